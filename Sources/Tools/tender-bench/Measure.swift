import Foundation

/// Runs `body` `trials` times and returns the median duration in seconds.
func median(trials: Int, _ body: () async throws -> Void) async rethrows -> Double {
    var samples: [Double] = []
    samples.reserveCapacity(trials)
    let clock = ContinuousClock()
    for _ in 0..<trials {
        let start = clock.now
        try await body()
        let elapsed = clock.now - start
        samples.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    samples.sort()
    return samples[samples.count / 2]
}

/// Peak resident memory of this process in bytes (Linux `VmHWM`; `ru_maxrss` elsewhere).
func peakMemoryBytes() -> Int {
    #if os(Linux)
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
       let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
       let kb = Int(line.split(separator: " ").dropFirst().first { Int($0) != nil } ?? "") {
        return kb * 1024
    }
    return 0
    #else
    var usage = rusage()
    getrusage(RUSAGE_SELF, &usage)
    return Int(usage.ru_maxrss)
    #endif
}

/// Resident memory now, in bytes (Linux `VmRSS`).
func currentMemoryBytes() -> Int {
    #if os(Linux)
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
       let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
       let kb = Int(line.split(separator: " ").dropFirst().first { Int($0) != nil } ?? "") {
        return kb * 1024
    }
    #endif
    return 0
}
