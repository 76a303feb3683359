public import Foundation

/// `SCPSimulatedCard`: the card a simulated reader presents (``SimulatorConfiguration/simulatedCard``), by type or by one
/// of Stripe's published test card numbers.
public class SimulatedCard: NSObject {
    /// The card type it was created with, if any (for the backend).
    package let type: SimulatedCardType?
    /// The test card number it was created with, if any (for the backend). A Stripe test number, never a real card.
    package let testCardNumber: String?

    /// `-initWithType:`.
    public init(type: SimulatedCardType) {
        self.type = type
        self.testCardNumber = nil
        super.init()
    }

    /// `-initWithTestCardNumber:`: one of Stripe's test card numbers.
    public init(testCardNumber: String) {
        self.type = nil
        self.testCardNumber = testCardNumber
        super.init()
    }

    /// `-isOnlinePin`: whether the card asks for an online PIN (answered by the backend).
    @discardableResult
    public func isOnlinePin() -> Bool {
        SurfaceRuntime.backend(for: "SimulatedCard.isOnlinePin()").pinKind(of: self) == .online
    }

    /// `-isOfflinePin`: whether the card asks for an offline PIN (answered by the backend).
    @discardableResult
    public func isOfflinePin() -> Bool {
        SurfaceRuntime.backend(for: "SimulatedCard.isOfflinePin()").pinKind(of: self) == .offline
    }
}
