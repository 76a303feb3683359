import Foundation
import Tender
import TenderPowerLoss

// --power-loss: the kill test's child lives open their ledger through the power-loss VFS (TenderPowerLoss), which
// keeps every write SQLite has not synced in the process's memory. So a SIGKILL of the child *is* a power cut that
// loses every unsynced write, whole pages at a time; and a child can be told to cut its own power at its N-th write
// to the ledger's files, tearing that write or letting a reordered part of its cache through first, then killing
// itself. What the vendors did stays durable by their own rule, as in the kill test (the simulators' files are
// written by the harness, not through the VFS): what the SDK acknowledged survives on the device, what the server
// acknowledged survives at the vendor.

/// How a child cuts its own power (the parent passes it with `--cut-at-write`, `--cut`, `--cut-seed`).
struct SelfCut: Sendable {
    /// The write (counted from the child's launch) in flight when the power goes.
    var atWrite: Int
    var mode: CutMode
    var seed: UInt64

    var arguments: [String] {
        ["--cut-at-write", "\(atWrite)", "--cut", mode.rawValue, "--cut-seed", "\(seed)"]
    }
}

/// What the cut lets reach the disk besides what was synced (``PowerCut``).
enum CutMode: String, Sendable, CaseIterable {
    /// Every unsynced write lost.
    case whole
    /// The write in flight reaches the file in part.
    case torn
    /// A disk that reorders its cache: some unsynced writes reach it, one maybe torn.
    case reordered

    func powerCut(seed: UInt64) -> PowerCut {
        switch self {
        case .whole: .wholePages
        case .torn: .tornWrite(seed: seed)
        case .reordered: .reordered(seed: seed)
        }
    }
}

/// The power-loss device of a child life: one VFS for the process, its cut armed if the parent asked for one.
enum ChildPowerLoss {
    /// The process's VFS (nil outside --power-loss).
    nonisolated(unsafe) static var vfs: PowerLossVFS?

    /// Registers the VFS and arms the cut; returns how the child's ledger is opened.
    static func install(cut: SelfCut?) throws -> @Sendable (URL) async throws -> SQLitePaymentLedger {
        let vfs = try PowerLossVFS(name: "tender-chaos-power-loss")
        Self.vfs = vfs
        if let cut { vfs.cutPower(atWrite: cut.atWrite, cut.mode.powerCut(seed: cut.seed), then: .killProcess) }
        if sabotageSkipsWriteAheadSync {
            return { try await vfs.openLedgerSkippingWriteAheadSync(at: $0) }
        }
        return { try await vfs.openLedger(at: $0) }
    }

    /// `vfs-writes N LABEL`: the writes the ledger's files received so far (the parent calibrates its cuts on it).
    static func reportWrites(_ label: String) {
        if let vfs { progress("vfs-writes \(vfs.statistics.writes) \(label)") }
    }
}

/// Self-check of the harness under --power-loss: with `TENDER_CHAOS_SABOTAGE=skip-write-ahead-sync` in a child's
/// environment, its ledger commits the write-ahead records (a new session, a new refund) without syncing them; a
/// power cut while the processor acts then loses payments the processor charged, which the test must report.
let sabotageSkipsWriteAheadSync = ProcessInfo.processInfo.environment["TENDER_CHAOS_SABOTAGE"] == "skip-write-ahead-sync"

/// What the power-loss mode did, over all rounds.
struct PowerLossReport: Codable, Sendable {
    /// Lives killed by the parent's SIGKILL at a random moment: a cut losing every unsynced write.
    var timedCuts = 0
    /// Lives that cut their own power at a chosen write, by what reached the disk (`whole`, `torn`, `reordered`).
    var cutsAtWrite: [String: Int] = [:]
    /// Self-cuts armed at a write the life never reached (it ended first).
    var cutsNotReached = 0
    /// Where the cuts landed: `startup` (opening, checkpoint at opening, recovery) or the burst's step kind.
    var phases: [String: Int] = [:]
    /// The writes a life makes to the ledger's files (median of the lives that ran to their end).
    var writesPerLife = 0

    /// Counts where a killed life was, from its output.
    mutating func notePhase(_ output: String) {
        let lines = output.split(separator: "\n")
        guard lines.contains("ready") else {
            phases["startup", default: 0] += 1
            return
        }
        let step = lines.last { $0.hasPrefix("step ") }?.split(separator: " ")
        phases[step.map { $0.count > 2 ? String($0[2]) : "burst" } ?? "after-recovery", default: 0] += 1
    }
}

/// The writes one life made, from its `vfs-writes N done` line.
func writesOfLife(_ output: String) -> Int? {
    for line in output.split(separator: "\n").reversed() where line.hasPrefix("vfs-writes ") && line.hasSuffix(" done") {
        return Int(line.split(separator: " ")[1])
    }
    return nil
}
