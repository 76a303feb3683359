/// The card brand, in one model for both processors.
public enum CardBrand: String, Hashable, Sendable, Codable, CaseIterable {
    /// Visa.
    case visa
    /// Mastercard.
    case mastercard
    /// American Express.
    case amex
    /// Discover.
    case discover
    /// Diners Club.
    case dinersClub
    /// JCB.
    case jcb
    /// UnionPay.
    case unionPay
    /// Interac (Canadian debit; never accepted offline).
    case interac
    /// eftpos Australia.
    case eftpos
    /// Cartes Bancaires.
    case cartesBancaires
    /// girocard.
    case girocard
    /// EBT.
    case ebt
    /// FeliCa.
    case felica
    /// A processor's gift or private-label card.
    case giftCard
    /// Another brand the processor names but Tender does not model.
    case other
    /// Not known (offline payments may not know the brand until forwarded).
    case unknown
}

/// How the card was read.
public enum CardEntryMethod: String, Hashable, Sendable, Codable, CaseIterable {
    /// Chip inserted (contact EMV).
    case chip
    /// Tapped (contactless EMV).
    case contactless
    /// Magnetic stripe swiped (not allowed offline).
    case swiped
    /// Magnetic stripe as a fallback after a failed chip read.
    case swipedFallback
    /// Contactless in magstripe mode.
    case contactlessMagstripe
    /// Typed in.
    case keyed
    /// A stored card.
    case onFile
    /// Not known.
    case unknown
}

/// What a receipt may show about the card. Never the full number, track data or PIN: no type in Tender can hold
/// them. Fields a processor cannot supply (often offline) are `nil`, not invented.
public struct CardDetails: Hashable, Sendable, Codable {
    /// The brand.
    public var brand: CardBrand
    /// The last four digits, when known.
    public var last4: String?
    /// How the card was read.
    public var entryMethod: CardEntryMethod
    /// The EMV application name (e.g. "VISA CREDIT"), when known.
    public var applicationName: String?
    /// The EMV application identifier (AID), when known.
    public var applicationIdentifier: String?
    /// The authorization code, when authorized online.
    public var authorizationCode: String?
    /// Expiry month 1...12, when known.
    public var expiryMonth: Int?
    /// Expiry year, when known.
    public var expiryYear: Int?

    /// Creates card details. `last4` is kept only if it is exactly four digits; anything else (a full number by
    /// mistake) is dropped.
    public init(brand: CardBrand, last4: String?, entryMethod: CardEntryMethod, applicationName: String? = nil,
                applicationIdentifier: String? = nil, authorizationCode: String? = nil, expiryMonth: Int? = nil,
                expiryYear: Int? = nil) {
        self.brand = brand
        self.last4 = last4.flatMap { $0.count == 4 && $0.allSatisfy(\.isASCIIDigit) ? $0 : nil }
        self.entryMethod = entryMethod
        self.applicationName = applicationName
        self.applicationIdentifier = applicationIdentifier
        self.authorizationCode = authorizationCode
        self.expiryMonth = expiryMonth.flatMap { (1...12).contains($0) ? $0 : nil }
        self.expiryYear = expiryYear.flatMap { $0 > 0 ? $0 : nil }
    }
}
