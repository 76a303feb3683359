@_exported import Tender

/// How the next presented card behaves, in terms every adapter's simulator can express.
public enum ConformanceCard: String, Hashable, Sendable, CaseIterable {
    /// Approved.
    case approve
    /// Declined while the customer waits.
    case decline
    /// Accepted offline, declined when forwarded.
    case declineWhenForwarded
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
    /// How many times the processor side has charged this reference (authorized or accepted when forwarded).
    func charges(reference: String) async -> Int
}

/// Makes environments for the conformance suite.
public protocol ConformanceSubject: Sendable {
    /// A name for reports, e.g. `"stripe"`.
    var name: String { get }
    /// A fresh environment.
    func makeEnvironment() async throws -> any ConformanceEnvironment
}
