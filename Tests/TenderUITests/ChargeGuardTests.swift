import Foundation
import Testing
@testable import Tender
import TenderStripe
import TenderStripeSimulator
import TenderTesting
@testable import TenderUI

/// The model's own guards, as a cashier meets them: a payment is "starting" from the tap, a second tap while one runs is
/// refused and never replaces the first, discovery started twice ends as the second says, `start()` runs once, and
/// the next sale's reference is new (and survives a relaunch) unless the last payment must be retried.
// Each test and helper carries Observation's availability (the model's): Swift Testing refuses it on a suite.
@MainActor
@Suite("TerminalModel: one payment at a time, discovery and start re-entrant, sale references")
struct ChargeGuardTests {
    /// A facade over Stripe's simulator with a reader connected, running, and a started model over it.
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    private func connectedModel() async throws -> (TerminalModel, StripeSimulator, PaymentTerminal, [Task<Void, Never>]) {
        let simulator = await StripeSimulator.preview()
        let terminal = PaymentTerminal(processor: simulator.makeProcessor(), scope: uiScope)
        let reader = try #require(try await terminal.discoverReaders(.bluetooth, timeout: 1).first)
        _ = try await terminal.connectReader(reader)
        let model = TerminalModel(terminal: terminal)
        let tasks = [Task { await terminal.run() }, Task { await model.start() }]
        _ = await eventually { model.isFollowing && model.reader != nil }
        return (model, simulator, terminal, tasks)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("a second charge while one is in progress is refused clearly; the first is still followed to its end")
    func secondChargeRefused() async throws {
        let (model, simulator, terminal, tasks) = try await connectedModel()
        defer { tasks.forEach { $0.cancel() } }
        #expect(model.paymentPhase == .idle)
        await simulator.inject(.holdNextCard)
        let first = Task { await model.charge(PaymentRequest(amount: usd(1_250), reference: "ui-first")) }
        // From the tap on, the payment is under way: Charge is not offered.
        #expect(await eventually { model.paymentReference == "ui-first" })
        #expect(model.paymentPhase != .idle, "Charge offered while the first payment starts")
        #expect(await eventually { model.paymentState == .collecting })
        #expect(model.paymentPhase == .inProgress)

        // The second tap: refused at once, and the first payment stays the one shown.
        let second = Running { await model.charge(PaymentRequest(amount: usd(900), reference: "ui-second")) }
        #expect(await eventually { model.lastError?.code == .paymentInProgress },
                "\(String(describing: model.lastError))")
        #expect(model.paymentReference == "ui-first", "the second tap switched the followed payment")
        #expect(model.paymentState == .collecting)
        #expect(await eventually { second.isFinished }, "the second charge did not return while the first ran")

        _ = await simulator.releaseHeld()
        let session = try #require(await first.value)
        #expect(session.reference == "ui-first" && session.state == .succeeded)
        #expect(await second.value == nil)
        #expect(await eventually { model.paymentState == .succeeded })
        #expect(model.paymentReference == "ui-first" && model.prompt != .notApproved)
        #expect(model.paymentPhase == .idle)
        #expect(try await terminal.session(reference: "ui-second") == nil, "the refused charge reached the facade")
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("a second discovery: the first one's end does not reset the status while the second runs")
    func discoveryReentrant() async throws {
        let simulator = await StripeSimulator.preview()
        let terminal = PaymentTerminal(processor: simulator.makeProcessor(), scope: uiScope)
        let model = TerminalModel(terminal: terminal)
        let started = Task { await model.start() }
        defer { started.cancel() }
        #expect(await eventually { model.isFollowing })

        let first = Task { await model.discoverReaders(timeout: 30) }
        #expect(await eventually { model.readerStatus == .discovering })
        let second = Task { await model.discoverReaders(timeout: 30) }
        // The second call ends the first; the first call's end must leave the second's status alone.
        await first.value
        #expect(model.readerStatus == .discovering, "the first discovery's end reset the status of the second")
        #expect(await eventually { !model.discoveredReaders.isEmpty })
        #expect(model.readerStatus == .discovering)
        model.stopDiscovery()
        await second.value
        #expect(model.readerStatus == .notConnected)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("start() twice: the second call returns at once, events are applied once")
    func startOnce() async throws {
        let processor = InMemoryPaymentProcessor()
        let terminal = PaymentTerminal(processor: processor, scope: uiScope)
        let model = TerminalModel(terminal: terminal)
        let first = Task { await model.start() }
        defer { first.cancel() }
        #expect(await eventually { model.isFollowing })
        let second = Running { await model.start() }
        defer { second.cancel() }
        #expect(await eventually { second.isFinished }, "a second start() follows the events a second time")
        // The first is still following.
        #expect(model.isFollowing)
        let sale = await model.charge(PaymentRequest(amount: usd(300), reference: "ui-once"))
        #expect(sale?.state == .succeeded && model.paymentState == .succeeded)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("sale references: new per sale, unique to the device, kept across a relaunch; the same after an unknown outcome")
    func saleReferences() async throws {
        let suite = "tender-ui-tests-\(UUID().uuidString)"
        let defaults = try #require(UserDefaults(suiteName: suite))
        defer { defaults.removePersistentDomain(forName: suite) }

        let processor = InMemoryPaymentProcessor()
        let terminal = PaymentTerminal(processor: processor, scope: uiScope)
        let model = TerminalModel(terminal: terminal)
        let started = Task { await model.start() }
        defer { started.cancel() }
        #expect(await eventually { model.isFollowing })

        let first = model.nextSaleReference(in: defaults)
        let second = model.nextSaleReference(in: defaults)
        #expect(first != second)
        #expect(first.count <= PaymentRequest.maximumReferenceLength && second.count <= PaymentRequest.maximumReferenceLength)
        #expect(await model.charge(PaymentRequest(amount: usd(1_250), reference: second))?.state == .succeeded)

        // A relaunch: a new model and new defaults object over the same stored values. The numbers go on: the new
        // sale is not the old one, so it is not answered with yesterday's approval.
        let relaunched = TerminalModel(terminal: terminal)
        let defaultsAgain = try #require(UserDefaults(suiteName: suite))
        let afterRelaunch = relaunched.nextSaleReference(in: defaultsAgain)
        #expect(![first, second].contains(afterRelaunch), "\(afterRelaunch) was used before the relaunch")
        #expect(await relaunched.charge(PaymentRequest(amount: usd(1_250), reference: afterRelaunch))?.state
                == .succeeded)
        #expect(processor.charges(reference: afterRelaunch) == 1,
                "the sale after the relaunch returned an old payment instead of a charge")

        // Another device (its own stored values) never makes the same references.
        let otherSuite = "tender-ui-tests-\(UUID().uuidString)"
        let other = try #require(UserDefaults(suiteName: otherSuite))
        defer { other.removePersistentDomain(forName: otherSuite) }
        let otherReferences = (0..<3).map { _ in model.nextSaleReference(in: other) }
        #expect(Set(otherReferences).isDisjoint(with: [first, second, afterRelaunch]))

        // An unknown outcome: the next tap retries the same reference (never a new one), and is charged once.
        processor.present(.answerLostAfterCharge)
        let unknown = model.nextSaleReference(in: defaults)
        let lost = await model.charge(PaymentRequest(amount: usd(700), reference: unknown))
        #expect(lost?.state == .outcomeUnknown || model.paymentState == .outcomeUnknown)
        let retry = model.nextSaleReference(in: defaults)
        #expect(retry == unknown, "after an unknown outcome the next tap charges a new reference")
        let resolved = await model.charge(PaymentRequest(amount: usd(700), reference: retry))
        #expect(resolved?.state == .succeeded)
        #expect(processor.charges(reference: unknown) == 1, "the retry charged the card again")
        // Settled: the next sale is new again.
        #expect(model.nextSaleReference(in: defaults) != unknown)
    }
}

/// A call run in a task, with whether it has returned (read on the main actor, without waiting for it).
@MainActor
final class Running<Value: Sendable> {
    private(set) var isFinished = false
    private var task: Task<Value, Never>?

    init(_ body: @escaping @MainActor () async -> Value) {
        task = Task { @MainActor in
            let value = await body()
            self.isFinished = true
            return value
        }
    }

    var value: Value { get async { await task!.value } }
    func cancel() { task?.cancel() }
}
