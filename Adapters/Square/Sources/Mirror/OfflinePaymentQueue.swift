import Foundation

/// Square's `OfflinePaymentQueue` (`PaymentManager.offlinePaymentQueue`): the offline payments stored on this device
/// for the authorized account and location.
///
/// Mirror: `@objc(SQMPOfflinePaymentQueue)` is dropped; class-bound via `AnyObject`, as an `@objc` protocol is.
public protocol OfflinePaymentQueue: AnyObject {
    /// Every offline payment stored on the device for the authorized account and location; or an
    /// ``OfflinePaymentQueueError``.
    ///
    /// Mirror: spelled as Swift imports the selector `getPayments:` (the SDK's example app implements
    /// `getPayments(_:)`); the DocC prints `@objc(getPayments:) func getPayments(completion:)` (reference §1). Both
    /// spellings accept the usual trailing closure, `getPayments { payments, error in … }`.
    func getPayments(_ completion: @escaping ([any OfflinePayment], (any Error)?) -> Void)
    /// The total of the queued payments for the authorized account and location; a `nil` amount means it could not
    /// be computed (see the error).
    func getTotalStoredPaymentsAmount(completion: @escaping ((any MoneyAmount)?, (any Error)?) -> Void)
}
