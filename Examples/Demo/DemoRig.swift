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
    /// Charges the processor accepted (not declined, not voided).
    var acceptedCharges = 0
    /// Their total in minor units.
    var amount: Int64 = 0
    /// Whether the accepted charge was captured.
    var captured = false
}

/// One simulated processor, driven by the demo through Tender's public API plus its simulator's controls.
protocol DemoRig: Sendable {
    /// "Stripe" or "Square".
    var title: String { get }
    /// The adapter.
    var processor: any PaymentProcessor { get }
    /// The merchant and location.
    var scope: LedgerScope { get }
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
}
