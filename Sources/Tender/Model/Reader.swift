/// A card reader as Tender describes it, whatever the processor and whatever its ``kind``.
///
/// A reader is `Codable` so that an app can save the one it connected and pass it back to
/// ``PaymentTerminal/connectReader(_:)`` on the next launch: the adapter looks for it again first (the vendors do not
/// reconnect by themselves at launch).
public struct Reader: Hashable, Sendable, Codable, Identifiable {
    /// The processor's identifier for the reader (serial number for Stripe, reader id for Square).
    public var id: String
    /// The serial number, when known (Bluetooth discovery may report it before other details).
    public var serialNumber: String?
    /// The model, e.g. `stripeM2` or `contactlessAndChip`.
    public var model: String
    /// How the reader reaches the device.
    public var kind: ReaderKind
    /// What the reader can do beyond taking a card, from its vendor's documentation for its kind and model.
    public var features: Set<ReaderFeature>
    /// A software update the reader reported and has not installed. A required one
    /// (``ReaderSoftwareUpdate/isRequired``) blocks payments until ``PaymentTerminal/installReaderUpdate()``
    /// installs it.
    public var availableUpdate: ReaderSoftwareUpdate?
    /// Installed software version, when known.
    public var softwareVersion: String?
    /// Battery level 0...1, when known.
    public var batteryLevel: Double?
    /// Whether the reader is charging, when known.
    public var isCharging: Bool?
    /// The location the reader is registered to or connected at.
    public var locationID: String?
    /// Whether this is a simulated reader.
    public var isSimulated: Bool

    /// Creates a reader description.
    public init(id: String, serialNumber: String? = nil, model: String, kind: ReaderKind = .bluetooth,
                features: Set<ReaderFeature> = [], availableUpdate: ReaderSoftwareUpdate? = nil,
                softwareVersion: String? = nil, batteryLevel: Double? = nil, isCharging: Bool? = nil,
                locationID: String? = nil, isSimulated: Bool = false) {
        self.id = id
        self.serialNumber = serialNumber
        self.model = model
        self.kind = kind
        self.features = features
        self.availableUpdate = availableUpdate
        self.softwareVersion = softwareVersion
        self.batteryLevel = batteryLevel
        self.isCharging = isCharging
        self.locationID = locationID
        self.isSimulated = isSimulated
    }

    private enum CodingKeys: String, CodingKey {
        case id, serialNumber, model, kind, features, availableUpdate, softwareVersion, batteryLevel, isCharging,
             locationID, isSimulated
    }

    /// Decodes a reader, including one saved before readers had a kind (a Bluetooth reader with no features).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try c.decode(String.self, forKey: .id),
                  serialNumber: try c.decodeIfPresent(String.self, forKey: .serialNumber),
                  model: try c.decode(String.self, forKey: .model),
                  kind: try c.decodeIfPresent(ReaderKind.self, forKey: .kind) ?? .bluetooth,
                  features: try c.decodeIfPresent(Set<ReaderFeature>.self, forKey: .features) ?? [],
                  availableUpdate: try c.decodeIfPresent(ReaderSoftwareUpdate.self, forKey: .availableUpdate),
                  softwareVersion: try c.decodeIfPresent(String.self, forKey: .softwareVersion),
                  batteryLevel: try c.decodeIfPresent(Double.self, forKey: .batteryLevel),
                  isCharging: try c.decodeIfPresent(Bool.self, forKey: .isCharging),
                  locationID: try c.decodeIfPresent(String.self, forKey: .locationID),
                  isSimulated: try c.decodeIfPresent(Bool.self, forKey: .isSimulated) ?? false)
    }
}

/// The ways a reader can read a card; a set, as the vendors report them.
public struct ReaderInputOptions: OptionSet, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The raw bits. Tender's own values, unrelated to any vendor's.
    public let rawValue: Int
    /// Creates options from bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Swipe the magnetic stripe.
    public static let swipe = ReaderInputOptions(rawValue: 1 << 0)
    /// Insert the chip.
    public static let insert = ReaderInputOptions(rawValue: 1 << 1)
    /// Tap (contactless).
    public static let tap = ReaderInputOptions(rawValue: 1 << 2)

    /// "Insert / Tap".
    public var description: String {
        var parts: [String] = []
        if contains(.swipe) { parts.append("Swipe") }
        if contains(.insert) { parts.append("Insert") }
        if contains(.tap) { parts.append("Tap") }
        return parts.isEmpty ? "None" : parts.joined(separator: " / ")
    }
}

/// A message the reader asks the app to show the customer.
public enum ReaderDisplayMessage: String, Hashable, Sendable, Codable, CaseIterable {
    /// Retry the card.
    case retryCard
    /// Insert the card.
    case insertCard
    /// Insert or swipe the card.
    case insertOrSwipeCard
    /// Swipe the card.
    case swipeCard
    /// Remove the card.
    case removeCard
    /// More than one contactless card was presented.
    case multipleContactlessCardsDetected
    /// Try another way of reading the card.
    case tryAnotherReadMethod
    /// Try another card.
    case tryAnotherCard
    /// The card was removed too early.
    case cardRemovedTooEarly
    /// A card was inserted.
    case cardInserted
    /// The card was removed.
    case cardRemoved
}

/// Why a reader disconnected.
public enum ReaderDisconnectReason: String, Hashable, Sendable, Codable, CaseIterable {
    /// Not known: treat as unexpected.
    case unknown
    /// The app asked.
    case requested
    /// The reader rebooted (asked for, or a security reboot).
    case rebooted
    /// The battery ran out or was critically low.
    case batteryLow
    /// The reader was powered off or idled down.
    case poweredOff
    /// The Bluetooth or USB link was lost.
    case linkLost
    /// The reader or the device removed the pairing, or access was revoked.
    case pairingRemoved
    /// The network needed for the reader's secure session was lost.
    case networkLost
}

/// A reader's connection state.
public enum ReaderConnectionStatus: String, Hashable, Sendable, Codable, CaseIterable {
    /// No reader connected.
    case notConnected
    /// Looking for readers.
    case discovering
    /// Connecting to a reader.
    case connecting
    /// A reader is connected.
    case connected
    /// Reconnecting after an unexpected disconnect.
    case reconnecting
}

/// A reader software update.
public struct ReaderSoftwareUpdate: Hashable, Sendable, Codable {
    /// The version that would be installed.
    public var version: String
    /// Whether it must be installed before the reader can take payments.
    public var isRequired: Bool
    /// When it becomes required, for optional updates.
    public var requiredAt: Double?
    /// A rough duration estimate in seconds.
    public var estimatedSeconds: Double?

    /// Creates an update description.
    public init(version: String, isRequired: Bool, requiredAt: Double? = nil, estimatedSeconds: Double? = nil) {
        self.version = version
        self.isRequired = isRequired
        self.requiredAt = requiredAt
        self.estimatedSeconds = estimatedSeconds
    }
}
