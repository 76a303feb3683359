@_exported import Tender
public import TenderTesting

/// How the next presented card behaves, in terms every adapter's simulator can express.
public enum ConformanceCard: String, Hashable, Sendable, CaseIterable {
    /// Approved.
    case approve
    /// Declined while the customer waits.
    case decline
    /// Accepted offline, declined when forwarded.
    case declineWhenForwarded
}

/// A fault the real vendors have, injected by a ``ConformanceEnvironment`` into its simulated vendor. Every adapter,
/// third-party ones included, is tested against them: Tender's promise (no payment lost, no card charged twice)
/// must hold through each.
public enum ConformanceFault: Hashable, Sendable {
    /// The next authorization request (Stripe confirm, Square processing) times out before the vendor receives it:
    /// nothing is charged, and the SDK reports a timeout whose outcome it cannot know.
    case confirmNotReceived
    /// The next authorization request reaches the vendor and is approved, but its answer is lost (a timeout).
    case answerLostAfterCharge
    /// The vendor's server-side search lags: a payment appears in (or changes in) search results only `seconds`
    /// after it was created or changed there. Lookups by a vendor id stay consistent.
    case searchLag(seconds: Double)
    /// The next card presentation waits until ``ConformanceEnvironment/releaseHeld()``: collection is in progress
    /// (a task can be cancelled mid-collect).
    case holdNextCard
    /// The next authorization request waits until ``ConformanceEnvironment/releaseHeld()`` before the vendor acts on
    /// it (a task can be cancelled mid-confirm; the vendor then still charges).
    case holdNextAuthorization
}

/// Whether an environment can make its simulated vendor do what a check needs. A check the vendor cannot do is
/// reported as not run, with the reason, never as a silent pass.
public enum ConformanceSupport: Hashable, Sendable {
    /// The environment arranged it.
    case supported
    /// The vendor (or its simulator) cannot do it, and why: for example "house accounts take no refunds".
    case unsupported(String)
}

/// Where a ``ConformanceEnvironment`` moved its device for the cross-location checks.
public enum ConformanceLocation: Hashable, Sendable {
    /// The device now takes payments at this other location of the same merchant and vendor account.
    case moved(locationID: String)
    /// The vendor cannot take payments at a second location of one account, and why.
    case unsupported(String)
}

/// One fresh simulated vendor with an adapter on top: what the conformance suite drives.
///
/// An adapter author implements this over their simulator (see `Examples/AdapterTemplate` and the Stripe and Square
/// adapters' tests). Each ``ConformanceSubject/makeEnvironment()`` call must return an independent environment:
/// online, offline enabled if the vendor supports it, no payments yet.
public protocol ConformanceEnvironment: Sendable {
    /// The adapter under test.
    var processor: any PaymentProcessor { get }
    /// The location to connect readers at.
    var locationID: String { get }
    /// Whether the vendor can take payments offline in this environment.
    var supportsOffline: Bool { get }
    /// Turns the simulated network on or off. The adapter should report the change through its events.
    func setNetwork(online: Bool) async
    /// Decides how the next presented card behaves.
    func presentNextCard(_ card: ConformanceCard) async
    /// Lets the simulated vendor forward every stored payment now (the network is on).
    func forwardStoredPayments() async
    /// How many times the processor side has charged this reference (authorized or accepted when forwarded),
    /// counting every vendor payment of the reference (every payment attempt).
    func charges(reference: String) async -> Int

    /// How much the processor side has refunded of this reference's payments, in minor units (settled refunds
    /// only), or `nil` when the environment's processor takes no refunds (the refund checks are then skipped).
    func refunded(reference: String) async -> Int64?

    /// How much the processor side has captured of this reference's payments, in minor units (automatic and manual
    /// captures, every payment attempt), or `nil` when the environment cannot tell: the partial-capture check then
    /// says so in its report instead of checking the vendor's side.
    func captured(reference: String) async -> Int64?

    /// Injects a fault into the simulated vendor (see ``ConformanceFault``).
    func inject(_ fault: ConformanceFault) async
    /// Lets a held card presentation or authorization proceed (``ConformanceFault/holdNextCard``,
    /// ``ConformanceFault/holdNextAuthorization``).
    func releaseHeld() async
    /// Whether a held card presentation or authorization is waiting now (the check polls it to know the payment
    /// reached that point).
    func isHolding() async -> Bool
    /// The clock the simulated vendor runs on; the kit gives it to the facades it creates, so their background
    /// polling runs on the same time. Defaults to the system clock.
    var clock: any TenderClock { get }
    /// Moves the environment's clock forward (consistency windows, forwarding schedules, authorization expiry).
    func advanceClock(by seconds: Double) async
    /// Arranges that the next refund of the next payment is reported succeeded by the vendor, and that the vendor
    /// reports it failed `seconds` later on ``clock`` (Stripe documents refunds that fail after succeeding: its test
    /// card 4000000000005126, `charge.refund.updated`). The adapter must then report a
    /// ``ProcessorCapabilities/refundChangeWindow`` longer than `seconds`. Called before the payment is taken.
    /// Return ``ConformanceSupport/unsupported(_:)`` with the reason when the vendor cannot do it; the default,
    /// `nil`, means the environment has not said, and fails the check.
    func failNextRefundAfterSuccess(after seconds: Double) async -> ConformanceSupport?
    /// Moves the device to another location of the same merchant and vendor account (Stripe: readers are
    /// disconnected, to be connected there; Square: the SDK is signed in there), so that a second facade scoped to it
    /// takes payments for the same references as the first: their idempotency keys must never collide. Return
    /// ``ConformanceLocation/unsupported(_:)`` with the reason when the vendor has no such thing; the default, `nil`,
    /// means the environment has not said, and fails the check.
    func moveToAnotherLocation() async throws -> ConformanceLocation?

    /// Injects a reader fault into the simulated vendor (TenderTesting's ``ReaderFault``: Tap to Pay on an unsupported
    /// device or with an unlinked account, a smart reader the local network cannot reach, an update required). Return
    /// ``ConformanceSupport/unsupported(_:)`` with the reason when the vendor has no such thing; the default, `nil`,
    /// means the environment has not said, and fails the reader checks that need it.
    func injectReaderFault(_ fault: ReaderFault) async -> ConformanceSupport?

    /// Simulates an app relaunch: the vendor SDK forgets every object it handed the app (Stripe PaymentIntent
    /// objects, Square payment handles) while keeping what it persists (its offline store, payments it processed),
    /// and a fresh adapter is created over it, as after a process restart. Returns the new adapter; the environment's
    /// ``processor`` is the new one afterwards.
    func relaunch() async throws -> any PaymentProcessor
}

/// Makes environments for the conformance suite.
public protocol ConformanceSubject: Sendable {
    /// A name for reports, e.g. `"stripe"`.
    var name: String { get }
    /// A fresh environment.
    func makeEnvironment() async throws -> any ConformanceEnvironment
}

extension ConformanceEnvironment {
    /// The system clock, for environments whose vendor runs on real time.
    public var clock: any TenderClock { SystemClock() }

    /// No refunds: the refund checks are skipped for this environment.
    public func refunded(reference: String) async -> Int64? { nil }

    /// Cannot tell: the partial-capture check reports that it checked the ledger's side only.
    public func captured(reference: String) async -> Int64? { nil }
    /// Not declared: the check fails until the environment says whether its vendor can.
    public func failNextRefundAfterSuccess(after seconds: Double) async -> ConformanceSupport? { nil }

    /// Not declared: the check fails until the environment says whether its vendor can.
    public func moveToAnotherLocation() async throws -> ConformanceLocation? { nil }

    /// Not declared: the reader checks that need a fault fail until the environment says whether its vendor can.
    public func injectReaderFault(_ fault: ReaderFault) async -> ConformanceSupport? { nil }
}
