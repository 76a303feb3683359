import Foundation
import Testing
@testable import Tender
import TenderTestKit
import TenderTesting

private let store = LedgerScope(merchantID: "acct_Q", locationID: "loc_Q")
private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }

/// Two reads of the queue overlap (the facade is reentrant while the ledger answers): the older answer, arriving
/// last, must not be sent after the newer one, or an app would show the queue going back in time.
@Suite struct QueueEventOrderTests {
    @Test("a queue snapshot read before a newer one was sent is dropped, never sent after it")
    func staleSnapshotDropped() async throws {
        let processor = InMemoryPaymentProcessor()
        processor.setNetwork(.offline)
        let ledger = FaultInjectingLedger(wrapping: InMemoryPaymentLedger())
        let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: store,
                                       limits: .single(perPayment: usd(10_000), storedTotal: usd(50_000)),
                                       clock: ManualClock())
        let events = terminal.events
        let counts = Locked<[Int]>([])
        let listener = Task {
            for await event in events { if case .queueChanged(let queue) = event { counts.withLock { $0.append(queue.storedCount) } } }
        }
        defer { listener.cancel() }

        _ = try await terminal.takePayment(PaymentRequest(amount: usd(1_000), reference: "q-1",
                                                          offlinePolicy: .forceOffline))
        // The first report reads the queue (one stored) and is held there.
        let latch = TestLatch()
        ledger.holdNextStoredSummary { await latch.wait() }
        let first = Task { await terminal.handle(.offlineQueueChanged) }
        for _ in 0..<5_000 where !(await latch.arrived) { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(await latch.arrived)
        // Meanwhile a second payment is stored and a second report reads and sends the queue (two stored).
        _ = try await terminal.takePayment(PaymentRequest(amount: usd(2_000), reference: "q-2",
                                                          offlinePolicy: .forceOffline))
        await terminal.handle(.offlineQueueChanged)
        for _ in 0..<5_000 where !counts.current.contains(2) { try await Task.sleep(nanoseconds: 1_000_000) }
        // The first report's answer (one stored) arrives last.
        await latch.open()
        await first.value
        // A third report after it: once its event is in, everything sent before it is too (one stream, in order).
        await terminal.handle(.offlineQueueChanged)
        for _ in 0..<5_000 where counts.current.filter({ $0 == 2 }).count < 2 { try await Task.sleep(nanoseconds: 1_000_000) }
        let sent = counts.current
        #expect(sent.filter { $0 == 2 }.count == 2, "\(sent)")
        #expect(sent.last == 2, "\(sent)")
        #expect(sent == sent.sorted(), "the queue went back in time: \(sent)")
    }
}
