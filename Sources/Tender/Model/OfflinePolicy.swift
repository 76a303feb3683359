/// Whether a payment may be taken while the device is offline, to be forwarded to the processor later.
///
/// Taking a payment offline means the card is not authorized until it is forwarded: if it is declined then, the
/// merchant bears the loss. Tender's default is therefore ``requireOnline`` for every processor (Stripe's SDK
/// defaults to `preferOnline`, Square's SDK requires a choice); opting in to offline is an explicit act.
///
/// | Tender | Stripe `OfflineBehavior` | Square `ProcessingMode` |
/// |---|---|---|
/// | ``requireOnline`` | `requireOnline` | `onlineOnly` |
/// | ``preferOnline`` | `preferOnline` | `autoDetect` |
/// | ``forceOffline`` | `forceOffline` | `offlineOnly` |
public enum OfflinePolicy: String, Hashable, Sendable, Codable, CaseIterable {
    /// Only online; refused when the device is offline.
    case requireOnline
    /// Online when possible, otherwise stored offline within the risk limits.
    case preferOnline
    /// Always stored offline (within the risk limits), even when online.
    case forceOffline

    /// Tender's default: ``requireOnline``. Offline is an explicit opt-in because the merchant carries its risk.
    public static let `default`: OfflinePolicy = .requireOnline
}

/// Whether the device can reach the processor.
public enum NetworkStatus: String, Hashable, Sendable, Codable, CaseIterable {
    /// Not known yet (the vendors' initial value).
    case unknown
    /// The processor cannot be reached.
    case offline
    /// The processor can be reached.
    case online
}
