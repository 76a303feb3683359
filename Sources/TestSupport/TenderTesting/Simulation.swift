import Foundation
public import Tender

/// A deterministic pseudo-random generator (SplitMix64). The same seed gives the same sequence on every platform,
/// so simulators and the chaos harness are reproducible.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A random identifier with a prefix, e.g. `pi_3f9a…`, reproducible under the seed.
    public mutating func identifier(prefix: String, length: Int = 16) -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz")
        return prefix + String((0..<length).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
    }

    /// A UUID-shaped string, reproducible under the seed.
    public mutating func uuidString() -> String {
        let a = next(), b = next()
        let hex = String(format: "%016llX%016llX", a, b)
        let c = Array(hex)
        return "\(String(c[0..<8]))-\(String(c[8..<12]))-\(String(c[12..<16]))-\(String(c[16..<20]))-\(String(c[20..<32]))"
    }
}

/// The simulated network between the device and the processor, shared by both simulators.
public enum SimulatedNetwork: Hashable, Sendable {
    /// Every request reaches the processor.
    case online
    /// Every request fails at once with "not connected".
    case offline
    /// Each request fails with the given probability (0...1), drawn from the simulator's seeded generator.
    case flaky(failureRate: Double)
    /// Requests hang until the vendor's timeout, then fail with a timeout whose outcome the SDK cannot know.
    case timingOut

    /// Whether a request succeeds now, drawing from `random` for flaky networks.
    public func requestSucceeds(using random: inout SeededGenerator) -> Bool {
        switch self {
        case .online: true
        case .offline, .timingOut: false
        case .flaky(let rate): Double(random.next() % 1_000_000) / 1_000_000 >= rate
        }
    }

    /// The status an SDK would report: flaky counts as online (the SDK sees a connection that sometimes fails).
    public var reportedStatus: NetworkStatus {
        switch self {
        case .online, .flaky: .online
        case .offline, .timingOut: .offline
        }
    }
}

/// When a simulated customer presents the card, shared by every simulator.
public enum SimulatedCardPresentation: String, Hashable, Sendable, Codable, CaseIterable {
    /// As soon as the reader asks for a card.
    case immediate
    /// Only when the test or demo presents it (the simulator's `presentCard`), so a payment can be canceled while
    /// it waits, or the reader can be lost mid-payment.
    case waitForPresentCard
}
