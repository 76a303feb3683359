import Foundation
import Testing
@testable import Tender
import TenderStripe
import TenderStripeSimulator
import TenderTesting
@testable import TenderUI

/// The model as a SwiftUI view sees it: sequences of observed state, on Linux through `withObservationTracking`.
// Each test and helper carries Observation's availability (the model's): Swift Testing refuses it on a suite.
@MainActor
@Suite("TerminalModel")
struct TerminalModelTests {
    private let limits = OfflineRiskLimits(perPaymentMaximum: [.usd: 10_000], storedTotalMaximum: [.usd: 25_000],
                                           storedCountMaximum: 5, oldestStoredAgeMaximum: 86_400)

    /// A facade over Stripe's simulator, running, and a started model over it.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    private func stripeModel() async -> (TerminalModel, StripeSimulator, PaymentTerminal, [Task<Void, Never>]) {
        let simulator = await StripeSimulator.preview()
        let terminal = PaymentTerminal(processor: simulator.makeProcessor(), scope: uiScope)
        let model = TerminalModel(terminal: terminal)
        let tasks = [Task { await terminal.run() }, Task { await model.start() }]
        _ = await eventually { model.isFollowing }
        return (model, simulator, terminal, tasks)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("a whole payment: discovery, connection, the card prompt, processing, approval")
    func wholePayment() async throws {
        let (model, simulator, _, tasks) = await stripeModel()
        defer { tasks.forEach { $0.cancel() } }
        let status = ObservationRecorder(model) { $0.readerStatus }
        let readers = ObservationRecorder(model) { $0.discoveredReaders.count }

        let discovery = Task { await model.discoverReaders(timeout: 1) }
        #expect(await eventually { model.readerStatus == .discovering })
        await discovery.value
        let found = try #require(model.discoveredReaders.first)
        #expect(readers.values.first == 0 && (readers.values.last ?? 0) >= 1)
        await model.connect(found)
        #expect(model.reader?.id == found.id && model.readerStatus == .connected && model.lastError == nil)
        #expect(await eventually { status.values.contains(.connected) })
        #expect(status.values.first == .notConnected && status.values.last == .connected)

        let states = ObservationRecorder(model) { $0.paymentState }
        let prompts = ObservationRecorder(model) { $0.prompt }
        await simulator.inject(.holdNextCard)
        let charge = Task { await model.charge(PaymentRequest(amount: usd(1_250), reference: "ui-1")) }
        // Held at the reader: the model shows the card prompt and offers Cancel.
        #expect(await eventually { model.paymentState == .collecting && model.prompt != nil })
        #expect(model.isPaymentInProgress)
        guard case .presentCard(let options)? = model.prompt else {
            Issue.record("expected a card prompt, got \(String(describing: model.prompt))")
            return
        }
        #expect(!options.isEmpty && !CheckoutPrompt.presentCard(options).text.isEmpty)
        _ = await simulator.releaseHeld()
        let session = try #require(await charge.value)
        #expect(session.state == .succeeded)
        // After the approval the reader may still ask for the card to be removed: the prompt shows approval or that.
        #expect(await eventually {
            if case .readerMessage? = model.prompt { return true }
            return model.prompt == .approved
        }, "\(prompts.values)")
        #expect(prompts.values.contains { if case .presentCard? = $0 { true } else { false } })
        // Collecting (held at the reader), then processing unless the result overtook its event, then succeeded.
        #expect([[nil, .collecting, .processing, .succeeded], [nil, .collecting, .succeeded]].contains(states.values),
                "\(states.values)")
        #expect(states.values.contains(.collecting))
        // Observed in lifecycle order, never backwards.
        let order: [PaymentState?] = [nil, .created, .collecting, .processing, .succeeded]
        let positions = states.values.compactMap { order.firstIndex(of: $0) }
        #expect(positions == positions.sorted() && positions.count == states.values.count)
        #expect(!model.isPaymentInProgress && model.lastError == nil)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("a decline leaves the error and its advice, and the prompt says not approved")
    func declineShowsAdvice() async throws {
        let processor = InMemoryPaymentProcessor()
        let terminal = PaymentTerminal(processor: processor, scope: uiScope)
        let model = TerminalModel(terminal: terminal)
        let started = Task { await model.start() }
        defer { started.cancel() }
        #expect(await eventually { model.isFollowing })
        processor.present(.decline)
        let session = await model.charge(PaymentRequest(amount: usd(500), reference: "ui-decline"))
        #expect(session?.state == .declined)
        #expect(model.prompt == .notApproved && model.lastError?.code == .cardDeclined)
        #expect(model.lastError?.recovery.localizedAdvice == "Ask for another card.")
        model.dismissError()
        #expect(model.lastError == nil)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("an offline sale: stored, counted in the queue, then forwarded with progress")
    func offlineSale() async throws {
        let processor = InMemoryPaymentProcessor()
        processor.setNetwork(.offline)
        let terminal = PaymentTerminal(processor: processor, scope: uiScope, limits: limits)
        let model = TerminalModel(terminal: terminal)
        let tasks = [Task { await terminal.run() }, Task { await model.start() }]
        defer { tasks.forEach { $0.cancel() } }
        #expect(await eventually { model.isFollowing })
        await terminal.refreshNetworkStatus()
        let stored = ObservationRecorder(model) { $0.queue.storedCount }
        let forwarding = ObservationRecorder(model) { $0.forwarding }

        let session = await model.charge(PaymentRequest(amount: usd(2_000), reference: "ui-off",
                                                        offlinePolicy: .preferOnline))
        #expect(session?.state == .storedOffline)
        #expect(model.prompt == .storedOffline && !CheckoutPrompt.storedOffline.text.isEmpty)
        #expect(await eventually { model.queue.storedCount == 1 && model.queue.storedAmounts[.usd] == 2_000 })

        processor.setNetwork(.online)
        #expect(processor.forwardStoredPayments() == 1)
        await terminal.pollOnce()
        #expect(await eventually { model.queue.storedCount == 0 && stored.values.count == 3 && forwarding.values.count == 2 })
        #expect(stored.values == [0, 1, 0])
        #expect(forwarding.values == [nil, ForwardingProgress(forwarded: 1, total: 1)])
        #expect(model.forwarding?.isFinished == true && model.forwarding?.fraction == 1)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("before its first charge, an older payment's forwarding result is not shown as the payment in progress; one the app starts now is")
    func olderPaymentNotAdopted() async throws {
        let processor = InMemoryPaymentProcessor()
        processor.setNetwork(.offline)
        let terminal = PaymentTerminal(processor: processor, scope: uiScope, limits: limits)
        await terminal.refreshNetworkStatus()
        let old = try await terminal.takePayment(PaymentRequest(amount: usd(1_500), reference: "old-1",
                                                                offlinePolicy: .forceOffline))
        #expect(old.state == .storedOffline)

        let model = TerminalModel(terminal: terminal)
        let started = Task { await model.start() }
        defer { started.cancel() }
        #expect(await eventually { model.isFollowing })
        #expect(model.queue.storedCount == 1)
        processor.setNetwork(.online)
        await terminal.refreshNetworkStatus()
        #expect(processor.forwardStoredPayments() == 1)
        await terminal.pollOnce()
        #expect(try await terminal.session(reference: "old-1")?.state == .forwarded)
        // The forwarding result has reached the model (its queue is read again on it).
        #expect(await eventually { model.queue.storedCount == 0 })
        #expect(model.paymentReference == nil && model.paymentState == nil && model.prompt == nil,
                "\(String(describing: model.paymentReference)) \(String(describing: model.prompt))")
        #expect(model.lastError == nil && !model.isPaymentInProgress)

        // A payment the app starts through the facade directly is still followed.
        let new = try await terminal.takePayment(PaymentRequest(amount: usd(700), reference: "new-1"))
        #expect(new.state == .succeeded)
        #expect(await eventually { model.paymentReference == "new-1" && model.paymentState == .succeeded },
                "\(String(describing: model.paymentReference)) \(String(describing: model.paymentState))")
        #expect(model.prompt == .approved)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("a model started late begins from the facade's snapshot: the connected reader is there at once")
    func startsFromSnapshot() async throws {
        let processor = InMemoryPaymentProcessor()
        let terminal = PaymentTerminal(processor: processor, scope: uiScope)
        let reader = try #require(try await terminal.discoverReaders(timeout: 1).first)
        _ = try await terminal.connectReader(reader)
        let snapshot = try await terminal.snapshot()
        #expect(snapshot.reader?.id == reader.id && snapshot.readerStatus == .connected)

        let model = TerminalModel(terminal: terminal)
        #expect(model.reader == nil)
        let started = Task { await model.start() }
        defer { started.cancel() }
        #expect(await eventually { model.isFollowing })
        #expect(await eventually { model.reader?.id == reader.id })
        #expect(model.readerStatus == .connected)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("software update progress and its end are observed in order")
    func updateProgress() async throws {
        let processor = InMemoryPaymentProcessor()
        let terminal = PaymentTerminal(processor: processor, scope: uiScope)
        let model = TerminalModel(terminal: terminal)
        let started = Task { await model.start() }
        defer { started.cancel() }
        #expect(await eventually { model.isFollowing })
        let progress = ObservationRecorder(model) { $0.updateProgress }
        let update = ReaderSoftwareUpdate(version: "2.1.0", isRequired: true)
        await terminal.handle(.softwareUpdateAvailable(update))
        #expect(await eventually { model.softwareUpdate == update })
        for step in [0.25, 0.5, 1] {
            await terminal.handle(.softwareUpdateProgress(step))
            #expect(await eventually { model.updateProgress == step })
        }
        await terminal.handle(.softwareUpdateFinished(nil))
        #expect(await eventually { model.softwareUpdate == nil && model.updateProgress == nil })
        #expect(await eventually { progress.values == [nil, 0.25, 0.5, 1, nil] })
        #expect(model.lastError == nil)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("every cashier-facing line has English text in the string table")
    func stringsAreLocalized() {
        var prompts: [CheckoutPrompt] = [.processing, .approved, .storedOffline, .notApproved, .canceled, .outcomeUnknown]
        prompts += ReaderDisplayMessage.allCases.map { .readerMessage($0) }
        prompts += [[.insert], [.tap], [.swipe], [.insert, .tap], [.insert, .swipe], [.insert, .tap, .swipe]]
            .map { .presentCard($0) }
        for prompt in prompts {
            // A missing key comes back as the key itself.
            #expect(!prompt.text.hasPrefix("prompt.") && !prompt.text.hasPrefix("reader."), "\(prompt)")
        }
        let recoveries: [PaymentError.Recovery] = [.retrySamePayment, .collectAnotherCard, .goOnline, .reconnectReader,
                                                   .updateReader, .fixRequest, .fixIntegration, .waitAndRetry, .none]
        for recovery in recoveries {
            #expect(recovery.localizedAdvice == recovery.description, "\(recovery)")
        }
    }
}
