public import Foundation
#if canImport(UIKit)
public import UIKit
#endif

/// Square's `PaymentManager` (`MobilePaymentsSDK.shared.paymentManager`): starts payments and holds the offline
/// queue.
///
/// Mirror: `@objc(SQMPPaymentManager)` is dropped; class-bound via `AnyObject`, as an `@objc` protocol is.
public protocol PaymentManager: AnyObject {
    /// How a card can be read now (fewer methods offline).
    var availableCardInputMethods: CardInputMethods { get }
    /// The payment in progress, if any.
    var currentPaymentHandle: (any PaymentHandle)? { get }
    /// The offline payments of the authorized account and location.
    var offlinePaymentQueue: any OfflinePaymentQueue { get }
    /// Adds an observer of ``availableCardInputMethods``.
    func add(_ availableCardInputMethodsObserver: any AvailableCardInputMethodsObserver)
    /// The idempotency key the SDK stored for a payment attempt's CreatePayment request, or `nil` if it has none.
    ///
    /// Spelling: the one Square's compiled sample uses (tag 2.5.0 `Example/`: its mock implements it), as Swift imports
    /// `-getIdempotencyKeyWithPaymentAttemptId:`; DocC prints `getIdempotencyKey(paymentAttemptId:)` (the reference's
    /// `swift`; this is its `alternateSpelling`). Note `Id`, where `PaymentParameters` writes `paymentAttemptID`.
    func getIdempotencyKey(withPaymentAttemptId paymentAttemptId: String) -> String?
    /// Removes an observer added with ``add(_:)``.
    func remove(_ availableCardInputMethodsObserver: any AvailableCardInputMethodsObserver)
    /// Starts a payment, presenting Square's payment UI from `viewController`. Returns a handle only if the payment
    /// started; the outcome arrives through `delegate`.
    @discardableResult
    func startPayment(
        _ paymentParameters: PaymentParameters,
        promptParameters: PromptParameters,
        from viewController: UIViewController,
        delegate: any PaymentManagerDelegate
    ) -> (any PaymentHandle)?
}

/// Square's `PaymentManagerDelegate`: told how a payment started with `startPayment` goes. Implemented by the app.
///
/// Mirror: `@objc(SQMPPaymentManagerDelegate)` is dropped; class-bound via `AnyObject`. Its three `@objc optional`
/// requirements have empty default implementations below.
public protocol PaymentManagerDelegate: AnyObject {
    /// Canceled, by the app or the buyer; a new payment may start.
    func paymentManager(_ paymentManager: any PaymentManager, didCancel payment: any Payment)
    /// Failed with `error` (a ``PaymentError`` by its `NSError` code). Inspect `payment` too.
    func paymentManager(_ paymentManager: any PaymentManager, didFail payment: any Payment, withError error: any Error)
    /// Succeeded (online, or stored offline) and Square's UI was dismissed; a new payment may start. `payment` is an
    /// ``OnlinePayment`` or an ``OfflinePayment``.
    func paymentManager(_ paymentManager: any PaymentManager, didFinish payment: any Payment)
    /// Started, with no action taken yet. Optional in the SDK.
    func paymentManager(_ paymentManager: any PaymentManager, didStart payment: any Payment)
    /// About to be canceled. Optional in the SDK.
    func paymentManager(_ paymentManager: any PaymentManager, willCancel payment: any Payment)
    /// Succeeded; Square's UI is about to be dismissed. Optional in the SDK.
    func paymentManager(_ paymentManager: any PaymentManager, willFinish payment: any Payment)
}

// Mirror: stand-ins for `@objc optional` (Linux has no optional requirements). A delegate that does not implement one
// of these gets nothing, as with an unimplemented optional method in the SDK.
extension PaymentManagerDelegate {
    /// Does nothing: `paymentManager(_:didStart:)` is optional in the SDK.
    public func paymentManager(_ paymentManager: any PaymentManager, didStart payment: any Payment) {}
    /// Does nothing: `paymentManager(_:willCancel:)` is optional in the SDK.
    public func paymentManager(_ paymentManager: any PaymentManager, willCancel payment: any Payment) {}
    /// Does nothing: `paymentManager(_:willFinish:)` is optional in the SDK.
    public func paymentManager(_ paymentManager: any PaymentManager, willFinish payment: any Payment) {}
}

/// Square's `PaymentHandle`: the payment in progress, returned by `startPayment` and by
/// `PaymentManager.currentPaymentHandle`.
///
/// Mirror: `@objc(SQMPPaymentHandle)` is dropped; class-bound via `AnyObject`.
public protocol PaymentHandle: AnyObject {
    /// Other ways to pay offered in this payment (cash, keyed card, Tap to Pay).
    var additionalPaymentMethods: [any AdditionalPaymentMethod] { get }
    /// Whether ``cancelPayment()`` can still cancel the payment.
    var isPaymentCancelable: Bool { get }
    /// The payment in progress.
    var payment: any Payment { get }
    /// The parameters the payment started with.
    var paymentParameters: PaymentParameters { get }
    /// The total including a card surcharge Square proposes, if any.
    var totalMoneyWithProposedCardSurcharge: (any MoneyAmount)? { get }
    /// Cancels the payment; `true` if a payment was canceled (the delegate then gets `didCancel`).
    @discardableResult
    func cancelPayment() -> Bool
}

/// Square's `AvailableCardInputMethodsObserver`: told when `PaymentManager.availableCardInputMethods` changes.
/// Implemented by the app.
///
/// Mirror: `@objc(SQMPAvailableCardInputMethodsObserver)` is dropped; class-bound via `AnyObject`.
public protocol AvailableCardInputMethodsObserver: AnyObject {
    /// The available card input methods changed to `cardInputMethods`.
    func availableCardInputMethodsDidChange(_ cardInputMethods: CardInputMethods)
}

/// Square's `AdditionalPaymentMethod`: another way to pay offered during a payment (`PaymentHandle`).
///
/// Mirror: `@objc(SQMPAdditionalPaymentMethod)` is dropped.
public protocol AdditionalPaymentMethod: NSObjectProtocol {
    /// A display name.
    var name: String { get }
    /// The kind of method.
    var type: AdditionalPaymentMethodType { get }
    /// Pays with `source` (a ``PaymentSource`` matching ``type``).
    func triggerPayment(with source: any PaymentSource) throws
}
