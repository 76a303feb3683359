import Foundation
import CSQLite

// Power cuts of the volatile layer (PowerLossDevice.swift): what reaches the disk of the unsynced writes (nothing,
// a torn write, a reordered part of the cache), files that lose their name, and the power coming back.

extension PowerLossDevice {
    /// Fires an armed cut when its write has come. Returns the result of the write in flight (an I/O error: the
    /// power is gone), or `nil` when nothing fired. With ``PowerLossVFS/AfterCut/killProcess`` it never returns.
    func fireTriggerIfDue(inFlight: Int) -> Int32? {
        guard var armed = trigger else { return nil }
        armed.remaining -= 1
        guard armed.remaining <= 0 else {
            trigger = armed
            return nil
        }
        trigger = nil
        _ = cutLocked(armed.cut, inFlight: inFlight)
        if armed.then == .killProcess {
            // The lock stays held: no other write of this process reaches a file before it dies.
            kill(getpid(), SIGKILL)
            while true { pause() }
        }
        return ResultCode.ioerrWrite
    }

    /// Cuts the power: see ``PowerLossVFS/cutPower(_:)``.
    func cut(_ cut: PowerCut) -> PowerCutReport { withLock { cutLocked(cut, inFlight: nil) } }

    private func cutLocked(_ cut: PowerCut, inFlight: Int?) -> PowerCutReport {
        var report = PowerCutReport()
        let pending = files.flatMap { path, volatile in volatile.operations.map { (path: path, operation: $0) } }
            .sorted { $0.operation.sequence < $1.operation.sequence }
        let writes = pending.filter { if case .write(let data) = $0.operation.kind { !data.isEmpty } else { false } }
        // What reaches the disk: sequence → bytes kept of it (nil: all of it).
        var reaching: [Int: Int?] = [:]
        switch cut {
        case .wholePages:
            break
        case .tornWrite(let seed):
            var random = SplitMix64(seed: seed)
            if let target = writes.first(where: { $0.operation.sequence == inFlight }) ?? writes.last,
               let kept = Self.tear(target.operation, &random) {
                reaching.updateValue(kept, forKey: target.operation.sequence)
            }
        case .reordered(let seed):
            var random = SplitMix64(seed: seed)
            for entry in pending where random.below(2) == 0 {
                reaching.updateValue(nil, forKey: entry.operation.sequence)
            }
            let reachingWrites = writes.filter { reaching[$0.operation.sequence] != nil }
            if !reachingWrites.isEmpty, random.below(2) == 0 {
                let torn = reachingWrites[random.below(reachingWrites.count)]
                if let kept = Self.tear(torn.operation, &random) {
                    reaching.updateValue(kept, forKey: torn.operation.sequence)
                } else {
                    reaching.removeValue(forKey: torn.operation.sequence)
                }
            }
        }
        for entry in pending {
            guard let keeping = reaching[entry.operation.sequence] else { continue }
            if let keeping {
                report.tornWrite = PowerCutReport.TornWrite(path: entry.path, offset: entry.operation.offset,
                                                            length: entry.operation.length, keptBytes: keeping)
            } else {
                report.reachedOperations += 1
            }
            applyAtCut(entry.operation, keeping: keeping, path: entry.path)
        }
        report.droppedOperations = pending.count - reaching.count
        for (path, volatile) in files where volatile.createdUnsynced {
            if unlink(path) == 0 { report.removedFiles.append(path) }
        }
        report.removedFiles.sort()
        files = [:]
        generation += 1
        powered = false
        statistics.cuts += 1
        statistics.droppedOperations += report.droppedOperations
        if report.tornWrite != nil { statistics.tornWrites += 1 }
        return report
    }

    /// The disk's unit of writing: a torn write keeps whole sectors (SQLite's crash tests damage writes sector by
    /// sector too). A write within one sector reaches the disk whole or not at all.
    static let sectorSize: Int64 = 512

    /// How a write tears: `.some(nil)` it reaches the disk whole, `.some(n)` its first `n` bytes (up to a sector
    /// boundary, at least one sector, never all), `nil` not at all (a one-sector write).
    static func tear(_ operation: PendingOperation, _ random: inout SplitMix64) -> Int?? {
        guard case .write(let data) = operation.kind, !data.isEmpty else { return .some(nil) }
        let end = operation.offset + Int64(data.count)
        var boundaries: [Int] = []
        var boundary = (operation.offset / sectorSize + 1) * sectorSize
        while boundary < end {
            boundaries.append(Int(boundary - operation.offset))
            boundary += sectorSize
        }
        guard !boundaries.isEmpty else { return random.below(2) == 0 ? .some(nil) : nil }
        return .some(boundaries[random.below(boundaries.count)])
    }

    /// Writes an operation (or the first `keeping` bytes of a write) through an open handle. A torn write that
    /// extends the file extends it to the write's end all the same (its new bytes past what reached the disk read as
    /// zeros): a file's size changes with whole write calls, never by a torn part of one.
    func apply(_ operation: PendingOperation, keeping: Int?,
                       through inner: UnsafeMutablePointer<sqlite3_file>) -> Int32 {
        let methods = inner.pointee.pMethods.pointee
        switch operation.kind {
        case .write(let data):
            let count = min(keeping ?? data.count, data.count)
            if count > 0 {
                let rc = data.withUnsafeBytes { methods.xWrite(inner, $0.baseAddress, Int32(count), operation.offset) }
                guard rc == SQLITE_OK else { return rc }
            }
            let end = operation.offset + Int64(data.count)
            var size: sqlite3_int64 = 0
            if count < data.count, methods.xFileSize(inner, &size) == SQLITE_OK, size < end {
                return methods.xTruncate(inner, end)
            }
            return SQLITE_OK
        case .truncate:
            return methods.xTruncate(inner, operation.offset)
        }
    }

    /// At a cut, what reaches the disk is written through a handle still open on the file, or else with POSIX calls
    /// (never synced: a process killed next keeps it in the operating system's cache, as a disk would keep it).
    private func applyAtCut(_ operation: PendingOperation, keeping: Int?, path: String) {
        if let handle = open.values.first(where: { $0.durable && $0.path == path }) {
            _ = apply(operation, keeping: keeping, through: handle.inner)
            return
        }
        let descriptor = Foundation.open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        switch operation.kind {
        case .write(let data):
            let count = min(keeping ?? data.count, data.count)
            _ = data.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, count, off_t(operation.offset)) }
            var status = stat()
            let end = operation.offset + Int64(data.count)
            if count < data.count, fstat(descriptor, &status) == 0, Int64(status.st_size) < end {
                _ = ftruncate(descriptor, off_t(end))
            }
        case .truncate:
            _ = ftruncate(descriptor, off_t(operation.offset))
        }
    }

    /// Turns the power back on: see ``PowerLossVFS/restorePower()``.
    func restore() throws {
        try withLock {
            let stale = open.values.filter { $0.generation != generation }.map { $0.path ?? "(temporary file)" }
            guard stale.isEmpty else {
                throw PowerLossError("power cannot come back while files opened before the cut are still open: "
                                     + stale.sorted().joined(separator: ", ") + " (close every connection first)")
            }
            powered = true
        }
    }

    /// Unsynced operations and their bytes, now.
    var pending: (operations: Int, bytes: Int) {
        withLock {
            files.values.reduce((0, 0)) { total, volatile in
                (total.0 + volatile.operations.count,
                 total.1 + volatile.operations.reduce(0) { $0 + $1.length })
            }
        }
    }
}

/// A small seeded generator (SplitMix64): the same seed tears the same write the same way.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// A number in `0..<bound` (`bound` > 0).
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
