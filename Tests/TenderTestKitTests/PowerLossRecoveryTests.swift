import Foundation
import Testing
import TenderTestKit

@Suite struct PowerLossRecoveryTests {
    /// A power cut before every ledger write of a payment, a forwarded offline payment and a refund, then a
    /// relaunch, leaves ledger and processor in agreement.
    @Test("the in-memory processor: a power cut at every ledger write, then a relaunch, loses nothing")
    func powerCutAtEveryWriteLeavesLedgerAndProcessorInAgreement() async {
        let outcomes = await PowerLossRecoveryCheck(subject: InMemorySubject()).run()
        #expect(outcomes.count >= 16, "\(outcomes)")
        for outcome in outcomes {
            #expect(outcome.problems.isEmpty, "\(outcome)")
        }
        #expect(Set(outcomes.map(\.scenario)) == ["online", "offlineThenForwarded", "refund"])
        #expect(outcomes.contains { $0.torn } && outcomes.contains { !$0.torn })
        // The uncut runs (the power lost after everything) end with the money taken once.
        #expect(outcomes.filter { $0.cutAtWrite == 0 && $0.scenario != "refund" }.allSatisfy { $0.charges == 1 })
    }

    @Test("the check bites: a ledger that skips the write-ahead sync loses charged payments and refunds")
    func skippedWriteAheadSyncIsCaught() async {
        let outcomes = await PowerLossRecoveryCheck(subject: InMemorySubject()) { vfs, url in
            try await vfs.openLedgerSkippingWriteAheadSync(at: url)
        }.run()
        let failing = outcomes.filter { !$0.problems.isEmpty }
        #expect(failing.contains { $0.scenario == "online" && $0.problems.contains { $0.contains("write-ahead record") } },
                "\(failing)")
        #expect(failing.contains { $0.scenario == "refund" && $0.problems.contains { $0.contains("the ledger records 0") } },
                "\(failing)")
    }
}
