/// Which merchant account and location a session belongs to. Every ledger query is scoped by it, so one seller
/// never sees another's payments on a shared device (Square's rule, applied to both processors).
public struct LedgerScope: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The processor account (Stripe account id, Square merchant id).
    public var merchantID: String
    /// The location (Stripe location id, Square location id).
    public var locationID: String

    /// Creates a scope.
    public init(merchantID: String, locationID: String) {
        self.merchantID = merchantID
        self.locationID = locationID
    }

    /// `merchant/location`.
    public var description: String { "\(merchantID)/\(locationID)" }
}
