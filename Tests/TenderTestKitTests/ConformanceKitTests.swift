import Foundation
import Testing
import TenderTestKit
import TenderTesting

/// The in-memory processor as a conformance subject.
struct InMemorySubject: ConformanceSubject {
    let name = "memory"
    /// When set, wraps the processor in a deliberately broken adapter.
    var flaw: BrokenProcessor.Flaw?
    /// When false, the environment does not say whether it can fail a refund after success or move to another
    /// location (as an environment written before those hooks existed).
    var declaresHooks = true

    final class Environment: ConformanceEnvironment, @unchecked Sendable {
        private let current: Locked<InMemoryPaymentProcessor>
        let manualClock: ManualClock
        var clock: any TenderClock { manualClock }
        let flaw: BrokenProcessor.Flaw?
        var declaresHooks = true
        var memory: InMemoryPaymentProcessor { current.current }
        var processor: any PaymentProcessor { flaw.map { BrokenProcessor(inner: memory, flaw: $0) } ?? memory }
        let locationID = "loc_conformance"
        let supportsOffline = true

        init(flaw: BrokenProcessor.Flaw?) {
            manualClock = ManualClock()
            let clock = manualClock
            let memory = InMemoryPaymentProcessor(clock: clock)
            memory.setRefundChangeWindow(86_400)
            current = Locked(memory)
            self.flaw = flaw
        }
        func failNextRefundAfterSuccess(after seconds: Double) async -> ConformanceSupport? {
            guard declaresHooks else { return nil }
            memory.failNextRefundAfterSuccess(after: seconds)
            return .supported
        }
        /// The in-memory processor knows no locations: the same processor serves a second one.
        func moveToAnotherLocation() async throws -> ConformanceLocation? {
            declaresHooks ? .moved(locationID: "loc_other") : nil
        }

        func setNetwork(online: Bool) async { memory.setNetwork(online ? .online : .offline) }
        func presentNextCard(_ card: ConformanceCard) async {
            switch card {
            case .approve: memory.present(.approve)
            case .decline: memory.present(.decline)
            case .declineWhenForwarded: memory.present(.declineWhenForwarded)
            }
        }
        func forwardStoredPayments() async { memory.forwardStoredPayments() }
        func charges(reference: String) async -> Int { memory.charges(reference: reference) }
        func refunded(reference: String) async -> Int64? { memory.refunded(reference: reference) }
        func captured(reference: String) async -> Int64? { memory.captured(reference: reference) }
        func inject(_ fault: ConformanceFault) async {
            switch fault {
            case .confirmNotReceived: memory.injectTimeout(.confirmNotReceived)
            case .answerLostAfterCharge: memory.injectTimeout(.answerLostAfterCharge)
            case .searchLag(let seconds): memory.setSearchLag(seconds: seconds)
            case .holdNextCard: memory.holdNextCard()
            case .holdNextAuthorization: memory.holdNextAuthorization()
            }
        }
        func injectReaderFault(_ fault: ReaderFault) async -> ConformanceSupport? {
            memory.injectReaderFault(fault)
            return .supported
        }
        func releaseHeld() async { memory.releaseHeld() }
        func isHolding() async -> Bool { memory.isHolding }
        func advanceClock(by seconds: Double) async { manualClock.advance(by: seconds) }
        func relaunch() async throws -> any PaymentProcessor {
            let next = memory.relaunched()
            current.withLock { $0 = next }
            return processor
        }
    }

    func makeEnvironment() async throws -> any ConformanceEnvironment {
        let environment = Environment(flaw: flaw)
        environment.declaresHooks = declaresHooks
        return environment
    }
}

/// A deliberately broken adapter over the in-memory processor.
struct BrokenProcessor: PaymentProcessor {
    /// What is wrong with it.
    enum Flaw: Sendable {
        /// Maps a decline as a success.
        case declineAsSuccess
        /// Reads "I cannot tell" as "nothing happened": a timeout becomes failed, an unknown lookup notFound.
        case unknownAsFailed
    }

    let inner: InMemoryPaymentProcessor
    let flaw: Flaw
    var name: String { inner.name }
    func capabilities() async -> ProcessorCapabilities { await inner.capabilities() }
    func readerDiscovery(_ kind: ReaderKind, timeout: Double) -> AsyncThrowingStream<Reader, any Error> {
        inner.readerDiscovery(kind, timeout: timeout)
    }
    func connectedReader() async -> Reader? { await inner.connectedReader() }
    func installReaderUpdate() async throws { try await inner.installReaderUpdate() }
    func rebootReader() async throws { try await inner.rebootReader() }
    func setReaderDisplay(_ cart: ReaderCart?) async throws { try await inner.setReaderDisplay(cart) }
    func connectReader(_ reader: Reader, locationID: String) async throws -> Reader {
        try await inner.connectReader(reader, locationID: locationID)
    }
    func disconnectReader() async throws { try await inner.disconnectReader() }
    func startPayment(_ request: PaymentRequest, routing: RoutingDecision, attempt: PaymentAttempt,
                      updates: @escaping PaymentUpdateHandler) async throws -> ProcessorPaymentUpdate {
        var final: ProcessorPaymentUpdate
        do {
            final = try await inner.startPayment(request, routing: routing, attempt: attempt, updates: updates)
        } catch where flaw == .unknownAsFailed {
            return ProcessorPaymentUpdate(reference: request.reference, state: .failed)
        }
        switch flaw {
        case .declineAsSuccess where final.state == .declined:
            final.state = .succeeded
            final.error = nil
        case .unknownAsFailed where final.state == .outcomeUnknown:
            final.state = .failed
        default:
            break
        }
        return final
    }
    func cancelPayment(reference: String) async throws { try await inner.cancelPayment(reference: reference) }
    func capturePayment(_ request: CaptureRequest) async throws -> ProcessorPaymentUpdate {
        try await inner.capturePayment(request)
    }
    func voidPayment(_ request: VoidRequest) async throws -> ProcessorPaymentUpdate {
        try await inner.voidPayment(request)
    }
    func queueSnapshot() async throws -> OfflineQueueSnapshot { try await inner.queueSnapshot() }
    func networkStatus() async -> NetworkStatus { await inner.networkStatus() }
    func refundPayment(_ request: RefundRequest, throughReader: Bool) async throws -> RefundResult {
        try await inner.refundPayment(request, throughReader: throughReader)
    }
    func lookUpRefund(_ refund: RefundRecord, processorPaymentID: String) async throws -> RefundResult? {
        try await inner.lookUpRefund(refund, processorPaymentID: processorPaymentID)
    }
    func lookUpPayment(_ query: PaymentLookupQuery) async throws -> ProcessorLookup {
        let answer = try await inner.lookUpPayment(query)
        return flaw == .unknownAsFailed && answer == .unknown ? .notFound : answer
    }
    func events() -> AsyncStream<ProcessorEvent> { inner.events() }
}

@Suite struct ConformanceKitTests {
    @Test func inMemoryProcessorConforms() async {
        let report = await ConformanceSuite(subject: InMemorySubject()).run()
        #expect(report.passed, "\(report)")
        #expect(report.results.count == ConformanceSuite.checks.count)
    }

    @Test func kitFailsAnAdapterThatMapsADeclineAsASuccess() async {
        let report = await ConformanceSuite(subject: InMemorySubject(flaw: .declineAsSuccess)).run()
        #expect(!report.passed)
        let decline = report.results.first { $0.check == "decline" }
        #expect(decline?.passed == false)
        #expect(decline?.failures.contains { $0.contains("ended succeeded, expected declined") } == true, "\(report)")
        // Only the checks that present a declining card catch it: the others still pass.
        #expect(report.results.filter { !$0.passed }.map(\.check) == ["decline", "another card after a decline"],
                "\(report)")
    }

    @Test func anEnvironmentThatDoesNotSayWhatItsVendorCanDoFailsTheNewChecks() async {
        let report = await ConformanceSuite(subject: InMemorySubject(declaresHooks: false)).run()
        let failed = report.results.filter { !$0.passed }
        #expect(failed.map(\.check) == ["refunds: a refund that fails after it succeeded",
                                         "keys: the same references at two locations never collide"], "\(report)")
        #expect(failed.allSatisfy { $0.failures.contains { $0.contains("does not say") } }, "\(report)")
    }

    @Test func kitFailsAnAdapterThatReadsUnknownAsFailed() async {
        let report = await ConformanceSuite(subject: InMemorySubject(flaw: .unknownAsFailed)).run()
        let failed = Set(report.results.filter { !$0.passed }.map(\.check))
        // A lost answer recorded as "failed" is a charged card the ledger calls unpaid; a lagging search read as
        // "never charged" is the same mistake at recovery.
        #expect(failed.contains("fault: answer lost after charge"), "\(report)")
        #expect(failed.contains("fault: search lag"), "\(report)")
    }

    @Test func faultInjectionNeverDoubleCharges() async throws {
        let memory = InMemoryPaymentProcessor()
        let faulty = FaultInjectingProcessor(wrapping: memory, faultRate: 0.4, seed: 7)
        let terminal = PaymentTerminal(processor: faulty, scope: LedgerScope(merchantID: "m", locationID: "l"))
        await terminal.handle(.networkStatusChanged(.online))
        for index in 0..<40 {
            let request = PaymentRequest(amount: Money(minorUnits: 100 + Int64(index), currency: .usd), reference: "f-\(index)")
            var session = try await terminal.takePayment(request)
            var tries = 1
            while session.state == .outcomeUnknown, tries < 20 {
                session = try await terminal.takePayment(request)
                tries += 1
            }
            #expect(session.state == .succeeded || session.state == .failed, "f-\(index) ended \(session.state)")
            #expect(memory.charges(reference: "f-\(index)") == (session.state == .succeeded ? 1 : 0))
        }
        #expect((faulty.injected[.dropRequest] ?? 0) > 0 && (faulty.injected[.loseAnswer] ?? 0) > 0)
    }

    @Test func scriptedFaults() async throws {
        let memory = InMemoryPaymentProcessor()
        let faulty = FaultInjectingProcessor(wrapping: memory)
        faulty.script(.loseAnswer)
        await #expect(throws: PaymentError.self) {
            _ = try await faulty.startPayment(PaymentRequest(amount: Money(minorUnits: 100, currency: .usd), reference: "s"),
                                              routing: .online, attempt: PaymentAttempt()) { _ in }
        }
        #expect(memory.charges(reference: "s") == 1)
        #expect(faulty.injected == [.loseAnswer: 1])
    }
}

@Suite struct CrashRecoveryTests {
    @Test func crashAtEveryWriteLeavesLedgerAndProcessorInAgreement() async {
        let outcomes = await CrashRecoveryCheck(subject: InMemorySubject()).run()
        #expect(outcomes.count >= 8, "\(outcomes)")
        for outcome in outcomes {
            #expect(outcome.problems.isEmpty, "\(outcome)")
            #expect(outcome.charges <= 1)
        }
        // The uncrashed runs end with the money taken; some crash points end with nothing charged, which the
        // ledger must then say too (checked above).
        #expect(outcomes.filter { $0.crashAtWrite == 0 }.allSatisfy { $0.charges == 1 })
    }

    @Test func crashingLedgerStopsAtTheGivenWrite() async throws {
        let crashing = CrashingLedger(wrapping: InMemoryPaymentLedger(), crashAtWrite: 2)
        let scope = LedgerScope(merchantID: "m", locationID: "l")
        let session = PaymentSession(request: PaymentRequest(amount: Money(minorUnits: 1, currency: .usd), reference: "r"),
                                     scope: scope, processor: "p", route: .online, at: ManualClock().now())
        try await crashing.insert(session)
        await #expect(throws: SimulatedCrash.self) {
            _ = try await crashing.record(SessionChange(reference: "r", expectedState: .created, newState: .collecting,
                                                        at: ManualClock().now()), scope: scope)
        }
        await #expect(throws: SimulatedCrash.self) { _ = try await crashing.allSessions(scope: scope) }
        #expect(await crashing.crashed)
    }
}

@Suite struct RaceConformanceKitTests {
    /// The race and amount checks (issue 28: items 1–3) alone, on the in-memory processor.
    @Test func inMemoryProcessorPassesTheRaceAndAmountChecks() async {
        let report = await ConformanceSuite(subject: InMemorySubject())
            .run(where: { $0.hasPrefix("races:") || $0.hasPrefix("amounts:") })
        #expect(report.results.count == 3, "\(report)")
        #expect(report.passed, "\(report)")
    }
}
