import Foundation
import Tender

/// How the scripted customer pays.
enum DemoCard: Hashable, Sendable {
    /// An ordinary card that is approved.
    case approve
    /// A card declined while the customer waits (online), with a reason.
    case decline(String)
    /// A card accepted offline and declined when the payment is forwarded.
    case declineWhenForwarded
}

/// What the processor's side really holds for one reference: the truth the ledger is checked against.
struct ProcessorTruth: Hashable, Sendable {
    /// Charges the processor accepted (not declined, not voided, not released).
    var acceptedCharges = 0
    /// Their total in minor units.
    var amount: Int64 = 0
    /// Whether the accepted charge was captured.
    var captured = false
    /// Authorizations the processor released by itself when its capture window passed (Stripe's expiry; Square's
    /// `delay_action` CANCEL).
    var expiredAuthorizations = 0
    /// Authorizations the processor completed by itself when its delay passed (Square's `delay_action` COMPLETE).
    var completedByProcessor = 0
    /// What the processor refunded (settled refunds only), in minor units.
    var refunded: Int64 = 0
    /// How many refunds the processor settled as refunded.
    var refunds = 0
    /// How many refunds the processor still holds as pending.
    var pendingRefunds = 0
}

/// How a rig's processor reaches its simulator.
enum DemoPath: String, Sendable {
    /// The adapter calls the simulator directly (the simulator is the adapter's client).
    case direct
    /// The adapter calls the bridge over the real SDK's API (the surface mirror), whose backend is the simulator.
    case sdkSurface
}

/// One simulated processor, driven by the demo through Tender's public API plus its simulator's controls.
protocol DemoRig: Sendable {
    /// "Stripe Terminal" or "Square Mobile Payments".
    var title: String { get }
    /// The vendor's short name, for sentences ("Stripe", "Square").
    var vendor: String { get }
    /// The adapter.
    var processor: any PaymentProcessor { get }
    /// The merchant and location.
    var scope: LedgerScope { get }
    /// What the vendor does with an authorization nobody captures, in a sentence.
    var uncapturedRule: String { get }
    /// Turns the simulated network on or off.
    func setNetwork(online: Bool) async
    /// Decides how the next card behaves.
    func present(_ card: DemoCard) async
    /// Lets the vendor forward at most one stored payment; returns how many are still stored on the device.
    func forwardOne() async -> Int
    /// How many payments the vendor still holds on the device.
    func storedOnDevice() async -> Int
    /// The processor-side truth, by reference.
    func truth() async -> [String: ProcessorTruth]
    /// Ends the rig's use of process-wide resources (the SDK surface's backend slot), if it holds any.
    func finish() async
}

extension DemoRig {
    func finish() async {}
}
