package import Foundation
package import SquareMobilePaymentsSurface
import TenderSquare
package import TenderSquareSimulator
package import protocol Tender.TenderClock

/// The surface mirror's behaviour from ``SquareSimulator``: installed in ``SurfaceBackendSlot``, it makes
/// `MobilePaymentsSDK.shared` an SDK whose every call goes to the simulator through its ``SquareClient`` API, whose
/// objects (payments, handles, readers, locations, settings) are built from the simulator's values, and whose
/// delegates and observers hear what the simulator's would. Test support: the bridge runs over it.
///
/// How it plays Square's rules, including the unkind parts:
/// - **The main thread.** Square requires every call on the main thread. Every SDK call is recorded with whether it
///   ran on the main queue (``calls``, ``offMainCalls``): a bridge that calls from elsewhere is caught by its tests.
/// - **Synchronous surface over an actor.** The SDK's members are synchronous; the simulator is an actor. A member
///   that needs an answer blocks its (main) thread until the simulator answered. The simulator never waits for the
///   main thread, so this cannot deadlock.
/// - **Callbacks on the main thread.** Delegate, observer and completion calls are queued to the main queue in the
///   order the simulator made them. With ``CallbackDelivery/duringCall`` those made during an SDK call are delivered
///   before that call returns (`didFail` before `startPayment` returns `nil`, as the simulator does); with
///   ``CallbackDelivery/afterReturn`` only after it returned. Square documents neither (unverified), so both run.
/// - **Weak delegates and observers.** The SDK holds them weakly here (Square does not say; a bridge must hold its
///   own), so one the bridge dropped hears nothing.
/// - **Relaunch.** ``relaunch()`` forgets every SDK object handed out (handles, readers, delegates, observers), with
///   the simulator's ``SquareSimulator/relaunch()``.
/// - **Not modelled** (the simulator has no such behaviour; calling it stops the process, loudly): Square's settings
///   screen, tracking consent, `blink(_:)`, additional payment methods.
package final class SimulatorSurfaceBackend: SurfaceBackend, @unchecked Sendable {
    /// When callbacks made during an SDK call reach the main thread.
    package enum CallbackDelivery: String, Sendable, CaseIterable {
        /// Before the call returns (in the simulator's order, on the main queue).
        case duringCall
        /// After the call returned (queued to the main queue).
        case afterReturn
    }

    /// One SDK call: its name, and whether it ran on the main queue.
    package struct Call: Hashable, Sendable, CustomStringConvertible {
        /// `"PaymentManager.startPayment"`.
        package var name: String
        /// Whether it ran on the main queue.
        package var onMainQueue: Bool
        /// The name, marked when off the main queue.
        package var description: String { onMainQueue ? name : "\(name) (off the main queue)" }
    }

    /// The simulator behind the SDK.
    package let simulator: SquareSimulator
    /// When callbacks reach the main thread.
    package let delivery: CallbackDelivery
    /// `PaymentParameters.autocomplete`'s initial value (Square does not state it).
    package let defaultAutocomplete: Bool
    private let clock: any TenderClock
    private let mainQueueKey = DispatchSpecificKey<UInt8>()
    private let lock = NSLock()
    private var recorded: [Call] = []
    private var applicationIDs: [String] = []
    private var mailbox: [() -> Void] = []
    private var managers: SimulatedSDKManager!
    private var readerObjects: [UInt: SurfaceReaderInfo] = [:]
    private var presenters: [UIViewController] = []

    /// A backend over `simulator`, whose device clock is `clock`.
    package init(simulator: SquareSimulator, clock: any TenderClock, delivery: CallbackDelivery = .duringCall,
                 defaultAutocomplete: Bool = true) {
        self.simulator = simulator
        self.clock = clock
        self.delivery = delivery
        self.defaultAutocomplete = defaultAutocomplete
        DispatchQueue.main.setSpecific(key: mainQueueKey, value: 1)
        managers = SimulatedSDKManager(backend: self)
    }

    // MARK: SurfaceBackend

    /// Records the application ID (the simulator's sellers carry their own environment).
    package func initialize(squareApplicationID: String) {
        record("MobilePaymentsSDK.initialize")
        locked { applicationIDs.append(squareApplicationID) }
    }

    /// The SDK manager of this launch (replaced by ``relaunch()``).
    package var sdkManager: any SDKManager { locked { managers } }

    /// The simulator's clock.
    package var now: Date { clock.now() }

    /// Undocumented SDK text: case names (the backend's choice, never Square's wording).
    package func text(_ request: SurfaceText) -> String {
        switch request {
        case .description(let value), .debugCode(let value), .currencyCode(let value): value.name
        case .errorDescription(let value), .debugMessage(let value): "\(value)"
        case .optionSetDescription(_, _, let members): "[\(members.joined(separator: ", "))]"
        case .moneyDescription(let amount, let currency): "\(amount) \(currency.name)"
        case .readerStatusTitle(let status, _, _): status.name
        case .readerStatusDescription(let status, let reason, _):
            reason.map { "\(status.name): \($0.name)" } ?? status.name
        case .readerUnavailableReasonDescription(let reason, _): reason.name
        }
    }

    /// `AdditionalPaymentMethods.allCases`: its three members (Square does not document the list).
    package func allCaseNames(ofOptionSet type: String) -> [String] { ["cash", "keyed", "tapToPay"] }

    /// An SDK enum encoded as its case name.
    package func encode(_ value: SurfaceCase, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value.name)
    }

    /// An SDK enum decoded from its case name.
    package func decodeCase(of type: String, from decoder: any Decoder) throws -> String {
        try decoder.singleValueContainer().decode(String.self)
    }

    // MARK: Test controls

    /// Every SDK call so far, in order.
    package var calls: [Call] { locked { recorded } }

    /// The SDK calls made off the main queue (Square: none may be).
    package var offMainCalls: [Call] { calls.filter { !$0.onMainQueue } }

    /// The application IDs `initialize` was called with.
    package var initializedApplicationIDs: [String] { locked { applicationIDs } }

    /// The view controllers payments were presented from, in order.
    package var presentingViewControllers: [UIViewController] { locked { presenters } }

    /// An app relaunch: the simulator forgets its handles, delegates and observers, and this backend every SDK object
    /// it handed out; `MobilePaymentsSDK.shared` is a new SDK manager afterwards. The simulator tells the delegates it
    /// forgets that their process ended (``SquareSimulator/ProcessEnded``), so that a test's task awaiting one ends.
    package func relaunch() async {
        await simulator.relaunch()
        let fresh = SimulatedSDKManager(backend: self)
        locked {
            managers = fresh
            readerObjects = [:]
        }
    }

    // MARK: Plumbing for the managers

    /// Whether the caller runs on the main queue.
    var onMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueKey) != nil }

    /// Records an SDK call.
    func record(_ name: String) {
        let call = Call(name: name, onMainQueue: onMainQueue)
        locked { recorded.append(call) }
    }

    /// Runs `work` on the simulator and blocks until it answered; with ``CallbackDelivery/duringCall``, delivers the
    /// callbacks it made before returning (when called on the main queue, as Square requires).
    func perform<Value: Sendable>(_ name: String,
                                  _ work: @escaping @Sendable (SquareSimulator) async -> Value) -> Value {
        record(name)
        let answer = Answer<Value>()
        let done = DispatchSemaphore(value: 0)
        let simulator = simulator
        Task.detached {
            answer.value = await work(simulator)
            done.signal()
        }
        done.wait()
        if delivery == .duringCall, onMainQueue { drainMailbox() }
        return answer.value!
    }

    /// Queues a callback for the main queue, in order.
    func post(_ callback: @escaping () -> Void) {
        locked { mailbox.append(callback) }
        DispatchQueue.main.async { self.drainMailbox() }
    }

    /// Runs the queued callbacks, in order (on the main queue).
    func drainMailbox() {
        while let next = locked({ mailbox.isEmpty ? nil : mailbox.removeFirst() }) { next() }
    }

    /// Records the view controller a payment is presented from.
    func presented(from viewController: UIViewController) { locked { presenters.append(viewController) } }

    /// The SDK's object for a simulator reader, created once per reader and launch, updated in place.
    func readerObject(_ reader: Square.ReaderInfo) -> SurfaceReaderInfo {
        if let object = locked({ readerObjects[reader.id] }) {
            SurfaceMapping.update(object, from: reader)
            return object
        }
        let object = SurfaceMapping.sdk(reader)
        locked { readerObjects[reader.id] = object }
        return object
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}

/// The simulator's answer, handed from its task to the blocked thread.
private final class Answer<Value>: @unchecked Sendable {
    var value: Value?
}

/// An error a 2.5 SDK cannot report, standing in for a simulator error that has no case in the mirror (the payment
/// errors Square removed before 2.5). The bridge passes it on as an unknown error.
package struct ErrorNotInThisSDK: Error, Hashable, Sendable, CustomStringConvertible {
    /// The simulator's case name.
    package var name: String

    /// Stands for the simulator's case `name`.
    package init(name: String) { self.name = name }
    /// `"idempotencyKeyReused (not in SDK 2.5)"`.
    package var description: String { "\(name) (not in SDK 2.5)" }
}
