import Foundation

/// Square's `OfflinePaymentQueue` (`PaymentManager.offlinePaymentQueue`): the offline payments stored on this device
/// for the authorized account and location.
///
/// Mirror: `@objc(SQMPOfflinePaymentQueue)` is dropped; class-bound via `AnyObject`, as an `@objc` protocol is.
public protocol OfflinePaymentQueue: AnyObject {
    /// Every offline payment stored on the device for the authorized account and location; or an
    /// ``OfflinePaymentQueueError``.
    ///
    /// Spelling: the one Square's compiled sample uses (tag 2.5.0 `Example/`: its mock implements `getPayments(_:)`),
    /// as Swift imports the selector `getPayments:`; DocC prints `@objc(getPayments:) func getPayments(completion:)`
    /// (the reference's `swift`; this is its `alternateSpelling`). Both accept a trailing closure.
    func getPayments(_ completion: @escaping ([any OfflinePayment], (any Error)?) -> Void)
    /// The total of the queued payments for the authorized account and location; a `nil` amount means it could not
    /// be computed (see the error).
    func getTotalStoredPaymentsAmount(completion: @escaping ((any MoneyAmount)?, (any Error)?) -> Void)
}
