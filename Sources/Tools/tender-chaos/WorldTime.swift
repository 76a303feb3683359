import Foundation
import Tender
import TenderTesting

/// A world's simulated time, kept in a small file beside its ledger, so that each launch (a child life, the
/// verifying life, the audit) starts a few seeded seconds after the previous one stopped, killed or not: a relaunch
/// lands inside the adapters' consistency windows and the searches' lag, where a lookup that answers "not found" too
/// early would let a payment be charged twice.
///
/// The time is written before the clock moves (``advance(by:)``), so whatever a killed life did happened at or
/// before the recorded time, and restored simulators always see time move forward. The file holds one fixed-width
/// number, rewritten in place with a single write.
final class WorldTime: @unchecked Sendable {
    let clock: ManualClock
    private let handle: FileHandle?
    private static let width = 24

    /// Opens the time of the world in `directory` and starts the clock `gap` seconds after it (at the epoch for a
    /// new world). `persists: false` keeps the time in memory only.
    init(directory: URL, gap: Double, persists: Bool = true) {
        let url = directory.appendingPathComponent("time.txt")
        var last = Accounts.epoch
        if let data = try? Data(contentsOf: url),
           let seconds = Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) {
            last = Date(timeIntervalSinceReferenceDate: seconds)
        }
        clock = ManualClock(start: last.addingTimeInterval(gap))
        if persists {
            if !FileManager.default.fileExists(atPath: url.path) {
                _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            }
            handle = try? FileHandle(forWritingTo: url)
        } else {
            handle = nil
        }
        record(clock.now())
    }

    deinit { try? handle?.close() }

    /// Records the time `seconds` ahead, then moves the clock there.
    func advance(by seconds: Double) {
        record(clock.now().addingTimeInterval(seconds))
        clock.advance(by: seconds)
    }

    private func record(_ date: Date) {
        guard let handle else { return }
        var text = String(format: "%.3f", date.timeIntervalSinceReferenceDate)
        text += String(repeating: " ", count: max(0, Self.width - text.count))
        try? handle.seek(toOffset: 0)
        try? handle.write(contentsOf: Data(text.utf8))
    }

    /// A seeded pause between two launches: from half a second to half a minute.
    static func gap(_ random: inout SeededGenerator) -> Double {
        0.5 + Double(random.next() % 10_000) / 10_000 * 29.5
    }
}
