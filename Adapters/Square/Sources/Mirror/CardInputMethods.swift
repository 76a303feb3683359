public import Foundation

/// Square's `CardInputMethods`: how a card can be read (chip, contactless, swipe). A final `NSObject` subclass that is
/// an `OptionSet`, not a struct.
///
/// Mirror: `@objc(SQMPCardInputMethods)` is dropped. The bit values are this mirror's own (Square does not publish
/// them). `@unchecked Sendable` (the class is final and immutable) so that its `static let` members compile under
/// Swift 6. `hash` is overridden to agree with the `isEqual(_:)` Square declares (its Objective-C header declares
/// `hash` too).
public final class CardInputMethods: NSObject, OptionSet, @unchecked Sendable {
    /// The option bits.
    public let rawValue: RawValue

    /// Creates a value from its option bits (`OptionSet`).
    public init(rawValue: Int) {
        self.rawValue = rawValue
        super.init()
    }

    /// No input method.
    public convenience override init() {
        self.init(rawValue: 0)
    }

    /// The union of `cardInputMethods`.
    public convenience init(_ cardInputMethods: [CardInputMethods]) {
        self.init(rawValue: cardInputMethods.reduce(0) { $0 | $1.rawValue })
    }

    /// Chip card insertion ("dip").
    public static let chip = CardInputMethods(rawValue: 1 << 0)
    /// Contactless (NFC) ("tap").
    public static let contactless = CardInputMethods(rawValue: 1 << 1)
    /// Magnetic stripe ("swipe").
    public static let swipe = CardInputMethods(rawValue: 1 << 2)

    /// Whether no method is available.
    public var isEmpty: Bool { rawValue == 0 }

    /// Whether every method in `inputMethods` is in this value.
    public func contains(_ inputMethods: CardInputMethods) -> Bool {
        rawValue & inputMethods.rawValue == inputMethods.rawValue
    }

    /// Equal when the option bits are.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? CardInputMethods)?.rawValue == rawValue
    }

    /// The option bits' hash, consistent with ``isEqual(_:)``.
    public override var hash: Int { rawValue.hashValue }

    /// The SDK's text for this value, from the ``SurfaceBackend``.
    public override var description: String {
        let named: [(String, CardInputMethods)] = [("chip", .chip), ("contactless", .contactless), ("swipe", .swipe)]
        let members = named.filter { contains($0.1) }.map(\.0)
        return SurfaceBackendSlot.current.text(
            .optionSetDescription(type: "CardInputMethods", rawValue: rawValue, members: members)
        )
    }
}

/// Square's `AdditionalPaymentMethods`: the payment methods offered besides a card reader (cash, keyed card, Tap to
/// Pay), given in `PromptParameters`. A final `NSObject` subclass that is an `OptionSet` and `CaseIterable`.
///
/// Mirror: `@objc(SQMPAdditionalPaymentMethods)` is dropped. The bit values are this mirror's own, with ``all`` the
/// union of the three. `@unchecked Sendable` (final, immutable) for the `static let` members under Swift 6. `isEqual`
/// and `hash` are overridden so that equality is the option bits', which the `OptionSet` conformance requires.
public final class AdditionalPaymentMethods: NSObject, OptionSet, CaseIterable, @unchecked Sendable {
    /// The option bits.
    public let rawValue: RawValue

    /// Creates a value from its option bits (`OptionSet`).
    public init(rawValue: Int) {
        self.rawValue = rawValue
        super.init()
    }

    /// No additional method.
    public convenience override init() {
        self.init(rawValue: 0)
    }

    /// The union of `additionalPaymentMethods`.
    public convenience init(_ additionalPaymentMethods: [AdditionalPaymentMethods]) {
        self.init(rawValue: additionalPaymentMethods.reduce(0) { $0 | $1.rawValue })
    }

    /// Cash.
    public static let cash = AdditionalPaymentMethods(rawValue: 1 << 0)
    /// A manually keyed card.
    public static let keyed = AdditionalPaymentMethods(rawValue: 1 << 1)
    /// Tap to Pay on iPhone.
    public static let tapToPay = AdditionalPaymentMethods(rawValue: 1 << 2)
    /// Every additional method.
    public static let all = AdditionalPaymentMethods(rawValue: cash.rawValue | keyed.rawValue | tapToPay.rawValue)

    /// `CaseIterable`: which values Square lists is not documented, so the ``SurfaceBackend`` names them.
    public static var allCases: [AdditionalPaymentMethods] {
        SurfaceBackendSlot.current.allCaseNames(ofOptionSet: "AdditionalPaymentMethods").map { name in
            guard let value = named.first(where: { $0.0 == name })?.1 else {
                preconditionFailure("SquareMobilePaymentsSurface: AdditionalPaymentMethods has no member \(name)")
            }
            return value
        }
    }

    /// Whether every method in `additionalPaymentMethods` is in this value.
    public func contains(_ additionalPaymentMethods: AdditionalPaymentMethods) -> Bool {
        rawValue & additionalPaymentMethods.rawValue == additionalPaymentMethods.rawValue
    }

    /// Equal when the option bits are.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? AdditionalPaymentMethods)?.rawValue == rawValue
    }

    /// The option bits' hash, consistent with ``isEqual(_:)``.
    public override var hash: Int { rawValue.hashValue }

    /// The SDK's text for this value, from the ``SurfaceBackend``.
    public override var description: String {
        let members = Self.named.filter { $0.0 != "all" && contains($0.1) }.map(\.0)
        return SurfaceBackendSlot.current.text(
            .optionSetDescription(type: "AdditionalPaymentMethods", rawValue: rawValue, members: members)
        )
    }

    /// The static members by name.
    private static var named: [(String, AdditionalPaymentMethods)] {
        [("all", .all), ("cash", .cash), ("keyed", .keyed), ("tapToPay", .tapToPay)]
    }
}
