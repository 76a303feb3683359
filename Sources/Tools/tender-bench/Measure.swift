import Foundation

/// Peak resident memory of this process in bytes (Linux `VmHWM`; `ru_maxrss` elsewhere).
func peakMemoryBytes() -> Int {
    #if os(Linux)
    return procStatus("VmHWM:")
    #else
    var usage = rusage()
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)
    #endif
}

/// Resident memory now, in bytes (Linux `VmRSS`; 0 elsewhere).
func currentMemoryBytes() -> Int {
    #if os(Linux)
    return procStatus("VmRSS:")
    #else
    return 0
    #endif
}

/// A `/proc/self/status` field given in kB, in bytes.
private func procStatus(_ field: String) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
          let kb = Int(line.split(separator: " ").dropFirst().first { Int($0) != nil } ?? "") else { return 0 }
    return kb * 1024
}
