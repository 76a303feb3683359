public import Foundation

// Payment sources and reading card information without a payment (Square 2.5.0 DocC, `gh-pages` 227876b).

/// Square's `PaymentSource`: a cash, keyed-card or Tap to Pay source for ``AdditionalPaymentMethod``. Square documents
/// no members.
///
/// Mirror: `@objc(SQMPPaymentSource)` is dropped; class-bound, as an `@objc` protocol is.
public protocol PaymentSource: AnyObject {}

/// Square's `CashPaymentSource`. Square documents no members or initializers: only the SDK (here, a backend) makes one.
///
/// Mirror: `@objc(SQMPCashPaymentSource)` is dropped.
public class CashPaymentSource: NSObject, PaymentSource {
    /// Creates the source (for a backend).
    package override init() { super.init() }
}

/// Square's `KeyedCardPaymentSource`. Square documents no members or initializers.
///
/// Mirror: `@objc(SQMPKeyedCardPaymentSource)` is dropped.
public class KeyedCardPaymentSource: NSObject, PaymentSource {
    /// Creates the source (for a backend).
    package override init() { super.init() }
}

/// Square's `TapToPayPaymentSource`. Square documents no members or initializers.
///
/// Mirror: `@objc(SQMPTapToPayPaymentSource)` is dropped.
public class TapToPayPaymentSource: NSObject, PaymentSource {
    /// Creates the source (for a backend).
    package override init() { super.init() }
}

/// Square's `ReadCardInfoManager` (`SDKManager.readCardInfoManager`): reads a card's details without taking a payment.
///
/// Mirror: `@objc(SQMPReadCardInfoManager)` is dropped; class-bound, as an `@objc` protocol is.
public protocol ReadCardInfoManager: AnyObject {
    /// Adds an observer of the reads.
    func add(_ readCardInfoObserver: any ReadCardInfoObserver)
    /// Stops a read in progress.
    func cancelReadingCardInfo()
    /// Prepares the readers to read one card.
    ///
    /// Spelling: the one Square's compiled sample uses (`Example/Shared/Preview Content/MockMobilePaymentsSDK.swift` at
    /// tag 2.5.0, whose mock conforms to this protocol with it), which is what Swift imports from the selector
    /// `prepareToReadCardInfoOnceWithStoreSwipedCard:shouldReadPreInsertedCard:`; DocC prints
    /// `prepareToReadCardInfoOnce(storeSwipedCard:shouldReadPreInsertedCard:)` (the reference's `alternateSpelling`).
    func prepareToReadCardInfoOnce(withStoreSwipedCard storeSwipedCard: Bool, shouldReadPreInsertedCard: Bool)
    /// Removes an observer.
    func remove(_ readCardInfoObserver: any ReadCardInfoObserver)
}

/// Square's `ReadCardInfoObserver`.
///
/// Mirror: class-bound, as the SDK's protocol is (it is `@objc` in the SDK's module).
public protocol ReadCardInfoObserver: AnyObject {
    /// The read failed.
    func readCardInfoDidFail(_ error: ReadCardInfoError)
    /// A card was read.
    func readCardInfoDidSucceed(_ handle: any CardHandle)
}

/// Square's `ReadCardInfoError` (not an `Error` type in the SDK).
///
/// Mirror: `@objc(SQMPReadCardInfoError)` is dropped. Raw values are this mirror's own: never persist them.
public enum ReadCardInfoError: Int, CustomStringConvertible {
    /// The card could not be read.
    case cardError
    /// The SDK is not authorized.
    case notAuthorized
    /// A reader error.
    case readerError
    /// The card could not be stored.
    case storeError
    /// Unknown.
    case unknown
    /// The entry method is not supported.
    case unsupportedEntryMethod

    /// The SDK's text for this value (undocumented, so it comes from the ``SurfaceBackend``).
    public var description: String { surfaceDescription }
}

extension ReadCardInfoError: SurfaceEnum {
    static var surfaceTypeName: String { "ReadCardInfoError" }
    static var surfaceCases: [ReadCardInfoError] {
        [.cardError, .notAuthorized, .readerError, .storeError, .unknown, .unsupportedEntryMethod]
    }
    var surfaceCaseName: String {
        switch self {
        case .cardError: "cardError"
        case .notAuthorized: "notAuthorized"
        case .readerError: "readerError"
        case .storeError: "storeError"
        case .unknown: "unknown"
        case .unsupportedEntryMethod: "unsupportedEntryMethod"
        }
    }
}
