import Foundation
import Testing
@testable import Tender
import TenderTesting

private let scope = LedgerScope(merchantID: "acct_Q", locationID: "loc_1")
private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }
private let limits = OfflineRiskLimits(perPaymentMaximum: [.usd: 10_000], storedTotalMaximum: [.usd: 50_000],
                                       storedCountMaximum: 10)

/// The vendor's queue is the truth (issue 12): polling, guards, limits, stored time, capture rules.
@Suite struct TerminalQueueTests {
    @Test("results the vendor reports only in its queue are found by polling, with only the clock moving")
    func pollingFindsSilentResults() async throws {
        let clock = ManualClock()
        let processor = InMemoryPaymentProcessor(clock: clock)
        processor.setReportsForwardingAsEvents(false)
        let terminal = PaymentTerminal(processor: processor, scope: scope, limits: limits,
                                       polling: QueuePolling(interval: 30, maximumInterval: 120), clock: clock)
        let stored = try await terminal.takePayment(
            PaymentRequest(amount: usd(900), reference: "q-1", offlinePolicy: .forceOffline))
        #expect(stored.state == .storedOffline)
        let run = Task { await terminal.run() }
        defer { run.cancel() }
        #expect(processor.forwardStoredPayments() == 1)  // silently: no event
        var recorded = false
        for _ in 0..<20 where !recorded {
            _ = await eventually { clock.sleeperCount > 0 }
            clock.advance(by: 30)
            recorded = await eventually { (try? await terminal.session(reference: "q-1"))?.state == .forwarded }
        }
        #expect(recorded)
    }

    @Test("once an automatic-capture offline payment is forwarded (final), the poller stops reading the queue")
    func pollerIdlesAfterForwardedAutomaticCapture() async throws {
        let clock = ManualClock()
        let inner = InMemoryPaymentProcessor(clock: clock)
        let processor = LookupHookProcessor(inner)
        let terminal = PaymentTerminal(processor: processor, scope: scope, limits: limits,
                                       polling: QueuePolling(interval: 30, maximumInterval: 300), clock: clock)
        let stored = try await terminal.takePayment(
            PaymentRequest(amount: usd(900), reference: "q-auto", offlinePolicy: .forceOffline))
        #expect(stored.state == .storedOffline && stored.captureMode == .automatic)
        #expect(await terminal.pendingCount() == 1, "a stored payment waits on the processor")
        #expect(inner.forwardStoredPayments() == 1)
        await terminal.pollOnce()
        #expect(try await terminal.session(reference: "q-auto")?.state == .forwarded)
        #expect(await terminal.pendingCount() == 0)
        let readsBefore = processor.queueReads.current
        let run = Task { await terminal.run() }
        defer { run.cancel() }
        // An hour of the poller's schedule.
        for _ in 0..<120 {
            _ = await eventually { clock.sleeperCount > 0 }
            clock.advance(by: 30)
        }
        _ = await eventually { clock.sleeperCount > 0 }
        #expect(processor.queueReads.current == readsBefore, "the queue was read \(processor.queueReads.current - readsBefore) more times")
    }

    @Test("back online, the queue is read at once")
    func networkReturnReadsTheQueue() async throws {
        let processor = InMemoryPaymentProcessor()
        processor.setReportsForwardingAsEvents(false)
        let terminal = PaymentTerminal(processor: processor, scope: scope, limits: limits, clock: ManualClock())
        processor.setNetwork(.offline)
        await terminal.handle(.networkStatusChanged(.offline))
        _ = try await terminal.takePayment(PaymentRequest(amount: usd(500), reference: "q-2", offlinePolicy: .preferOnline))
        processor.setNetwork(.online)
        processor.forwardStoredPayments()
        await terminal.handle(.networkStatusChanged(.online))
        #expect(try await terminal.session(reference: "q-2")?.state == .forwarded)
    }

    @Test("risk limits count the vendor's own stored payments as well as the ledger's")
    func limitsUseTheVendorQueue() async throws {
        let processor = InMemoryPaymentProcessor()
        processor.setNetwork(.offline)
        // The vendor stores a payment the ledger never recorded (a crash in between).
        _ = try await processor.startPayment(PaymentRequest(amount: usd(9_000), reference: "q-orphan"), routing: .offline,
                                             attempt: PaymentAttempt()) { _ in }
        let terminal = PaymentTerminal(processor: processor, scope: scope,
                                       limits: OfflineRiskLimits(perPaymentMaximum: [.usd: 10_000],
                                                                 storedTotalMaximum: [.usd: 10_000]),
                                       clock: ManualClock())
        do {
            _ = try await terminal.takePayment(PaymentRequest(amount: usd(2_000), reference: "q-3", offlinePolicy: .forceOffline))
            Issue.record("the stored total ignored the vendor's queue")
        } catch let error as PaymentError {
            #expect(error.code == .offlineStoredTotalExceeded)
        }
    }

    @Test("a capture amount must fit the authorization, and exactly it when the processor cannot capture part")
    func captureAmounts() async throws {
        let processor = InMemoryPaymentProcessor()
        let terminal = PaymentTerminal(processor: processor, scope: scope, clock: ManualClock())
        _ = try await terminal.takePayment(PaymentRequest(amount: usd(1_000), reference: "q-cap", captureMode: .manual))
        await #expect(throws: PaymentError.self) { try await terminal.capture(reference: "q-cap", amount: usd(1_001)) }
        processor.setCapabilities(partialCapture: false)
        do {
            _ = try await terminal.capture(reference: "q-cap", amount: usd(500))
            Issue.record("a partial capture was sent to a processor that cannot capture part")
        } catch let error as PaymentError {
            #expect(error.code == .invalidAmount && error.message.contains("captures exactly what was authorized"))
        }
        processor.setCapabilities(partialCapture: true)
        #expect(try await terminal.capture(reference: "q-cap", amount: usd(500)).state == .succeeded)
    }

    @Test("metadata a processor would drop is refused before the processor is called")
    func metadataRefused() async throws {
        let processor = InMemoryPaymentProcessor()
        processor.setCapabilities(metadata: false)
        let terminal = PaymentTerminal(processor: processor, scope: scope, clock: ManualClock())
        do {
            _ = try await terminal.takePayment(PaymentRequest(amount: usd(100), reference: "q-meta",
                                                              metadata: ["table": "4"]))
            Issue.record("metadata was accepted by a processor that drops it")
        } catch let error as PaymentError {
            #expect(error.code == .invalidMetadata)
        }
        #expect(processor.calls.isEmpty)
    }

    @Test("device-wide count and since-last-online window, merged from the processor")
    func deviceRules() {
        let limits = OfflineRiskLimits(perPaymentMaximum: [.usd: 10_000], storedTotalMaximum: [.usd: 1_000_000])
            .merged(with: ProcessorOfflineLimits(deviceStoredCountMaximum: 1_000, offlineWindowMaximum: 86_400),
                    source: .processor("square"))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let request = PaymentRequest(amount: usd(100), reference: "q-device", offlinePolicy: .forceOffline)
        var queue = OfflineQueueSnapshot(networkStatus: .offline, storedCount: 3, deviceStoredCount: 1_000)
        let full = OfflineRouter.offlineProblem(request: request, limits: limits, queue: queue, now: now)
        #expect(full?.limit?.kind == .deviceStoredCountMaximum && full?.limit?.source == .processor("square"))
        queue.deviceStoredCount = 10
        queue.lastOnlineAt = now.addingTimeInterval(-86_400)
        let late = OfflineRouter.offlineProblem(request: request, limits: limits, queue: queue, now: now)
        #expect(late?.limit?.kind == .offlineWindow)
        queue.lastOnlineAt = now.addingTimeInterval(-3_600)
        #expect(OfflineRouter.offlineProblem(request: request, limits: limits, queue: queue, now: now) == nil)
    }
}
