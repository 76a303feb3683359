import Foundation
import Tender

/// The Stripe Terminal iOS SDK (5.5) as the adapter uses it: every type here mirrors one of the SDK's, under the
/// SDK's Swift name (from `reference/sdk-surface/stripe-terminal-ios.json`), inside this namespace so that names
/// such as `Stripe.CardBrand` never collide with Tender's.
///
/// SDK objects (`PaymentIntent`, `Reader`, `Refund`…) are value types here. Where the SDK needs its own object back
/// (a `PaymentIntent` passed to `collectPaymentMethod`), the value carries an opaque handle the bridge maps back to
/// the object it received (``PaymentIntent/sdkHandle``); readers are mapped back by serial number.
///
/// The enums carry no integer raw values: Stripe's drift between releases (`CardBrand.unknown` was 9, now 11), so
/// they are `String`-backed by case name, safe to persist, and mapped to Tender by `switch`. A bridge converts the
/// SDK's enums case by case, never by raw value.
///
/// The types are split by concern: payments (`StripeTypes+Payments.swift`), readers (`+Readers`), offline
/// (`+Offline`) and errors (`+Errors`); this file holds the cancelable, the simulated-reader enums and the in-person
/// refund types.
package enum Stripe {}

// MARK: - Cancelable

extension Stripe {
    /// `SCPCancelable`: stops a discovery, a collection, a confirmation, an update or a reconnection.
    ///
    /// The SDK's `cancel(_:)` is asynchronous: its completion receives `nil` when the command will be canceled (the
    /// command's own completion then reports ``ErrorCode/Code/canceled``, or nil for a discovery) or an error when it
    /// cannot be (``ErrorCode/Code/cancelFailedAlreadyCompleted``, ``ErrorCode/Code/cancelFailedUnavailable``: a
    /// confirmation already on its way to Stripe). Since 5.0 every cancel completion is called.
    ///
    /// Bridge: wrap the `SCPCancelable` the SDK returned; `cancel` calls `cancel(_:)` and converts the error.
    package protocol Cancelable: AnyObject, Sendable {
        /// `completed`: the command has finished; canceling now fails.
        var completed: Bool { get }
        /// `cancel(_:)`: asks the SDK to cancel; `completion` gets nil or the reason it could not.
        func cancel(_ completion: @escaping @Sendable (ErrorCode?) -> Void)
    }
}

extension Stripe.Cancelable {
    /// `cancel()` in its `async` form: nil when the SDK accepted the cancellation, or the reason it could not.
    package func cancel() async -> Stripe.ErrorCode? {
        await awaitCallback { resume in cancel { resume($0) } }
    }
}

// MARK: - Simulated reader

extension Stripe {
    /// `SCPSimulatedCardType`: the simulator's test cards (`SimulatorConfiguration.simulatedCard`).
    package enum SimulatedCardType: String, Hashable, Sendable, Codable, CaseIterable {
        /// Visa.
        case visa
        /// Visa debit.
        case visaDebit
        /// Visa US common debit.
        case visaUsCommonDebit
        /// Mastercard.
        case mastercard
        /// Mastercard debit.
        case masterDebit
        /// Mastercard prepaid.
        case mastercardPrepaid
        /// American Express.
        case amex
        /// American Express (second card).
        case amex2
        /// Discover.
        case discover
        /// Discover (second card).
        case discover2
        /// Diners Club.
        case diners
        /// Diners Club, 14 digits.
        case diners14Digit
        /// JCB.
        case jcb
        /// UnionPay.
        case unionPay
        /// Interac (not accepted offline; refunded in person).
        case interac
        /// eftpos Australia debit.
        case eftposAuDebit
        /// eftpos Australia Visa debit.
        case eftposAuVisaDebit
        /// eftpos Australia debit Mastercard.
        case eftposAuDebitMastercard
        /// Declined: `card_declined`.
        case chargeDeclined
        /// Declined: `insufficient_funds`.
        case chargeDeclinedInsufficientFunds
        /// Declined: `lost_card`.
        case chargeDeclinedLostCard
        /// Declined: `stolen_card`.
        case chargeDeclinedStolenCard
        /// Declined: `expired_card`.
        case chargeDeclinedExpiredCard
        /// Declined: `processing_error`.
        case chargeDeclinedProcessingError
        /// The charge succeeds; a refund fails later.
        case refundFailed
        /// Online PIN CVM (WisePad 3 only).
        case onlinePinCvm
        /// Online PIN SCA retry (WisePad 3 only).
        case onlinePinScaRetry
        /// Offline PIN CVM (WisePad 3 only).
        case offlinePinCvm
        /// Offline PIN SCA retry (WisePad 3 only).
        case offlinePinScaRetry
    }

    /// `SCPSimulatedOfflineMode` (offline) (5.5 preview, `SimulatedOfflineModeConfiguration.sdkOfflineMode`): how the
    /// simulated network behaves.
    package enum SimulatedOfflineMode: String, Hashable, Sendable, Codable, CaseIterable {
        /// The network works.
        case disabled
        /// Every request fails at once.
        case offlineImmediate
        /// Requests hang until the timeout (15 s in the SDK), then fail.
        case offlineTimeout
        /// About 50 % of requests fail.
        case offlineIntermittent
    }

    /// `SCPTestReaderUpdateType` (5.5), plus `none`: the software update a simulated reader offers. The SDK takes a
    /// `TestReaderUpdate` on the connection configuration; the adapter never sets one, so the simulator takes it in
    /// its own configuration instead.
    package enum TestReaderUpdate: String, Hashable, Sendable, Codable, CaseIterable {
        /// No update.
        case none
        /// An optional update; becomes required 7 days after it is reported.
        case available
        /// A required update; installs on connect.
        case required
        /// An update required for offline use: an offline connect fails, an online connect installs it.
        case requiredOffline
        /// A required update with the battery too low: the update fails and so does the Bluetooth connect.
        case lowBattery
        /// A required update with the battery too low: the update fails but the connect succeeds.
        case lowBatterySucceedConnect
    }
}

// MARK: - In-person refunds (Interac)

extension Stripe {
    /// `SCPRefundStatus`.
    package enum RefundStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// The refund succeeded.
        case succeeded
        /// The refund is pending.
        case pending
        /// The refund failed (`failureReason`).
        case failed
        /// Unknown.
        case unknown
    }

    /// `SCPRefundParameters` (built with `RefundParametersBuilder(paymentIntentId:clientSecret:amount:currency:)`
    /// or `(chargeId:amount:currency:)`).
    package struct RefundParameters: Hashable, Sendable {
        /// `paymentIntentId` and `clientSecret`, or `chargeId`.
        package var paymentIntentId: String?, clientSecret: String?, chargeId: String?
        /// `amount`, minor units.
        package var amount: UInt
        /// `currency`, lowercase.
        package var currency: String
        /// `metadata` (Tender puts its idempotency key here: the SDK takes none).
        package var metadata: [String: String]

        /// Creates parameters.
        package init(paymentIntentId: String? = nil, clientSecret: String? = nil, chargeId: String? = nil,
                    amount: UInt, currency: String, metadata: [String: String] = [:]) {
            self.paymentIntentId = paymentIntentId
            self.clientSecret = clientSecret
            self.chargeId = chargeId
            self.amount = amount
            self.currency = currency
            self.metadata = metadata
        }
    }

    /// `SCPCollectRefundConfiguration` (the adapter sets nothing; kept for the call's shape).
    package struct CollectRefundConfiguration: Hashable, Sendable {
        /// Creates a configuration.
        package init() {}
    }

    /// `SCPRefund`.
    package struct Refund: Hashable, Sendable, Codable {
        /// `stripeId` (`re_…`).
        package var stripeId: String
        /// `amount`, `currency`.
        package var amount: UInt, currency: String
        /// `charge`: the refunded charge's id.
        package var charge: String
        /// `status`.
        package var status: RefundStatus
        /// `metadata`.
        package var metadata: [String: String]
        /// `failureReason`, for a failed refund.
        package var failureReason: String?

        /// Creates a refund.
        package init(stripeId: String, amount: UInt, currency: String, charge: String, status: RefundStatus,
                    metadata: [String: String] = [:], failureReason: String? = nil) {
            self.stripeId = stripeId
            self.amount = amount
            self.currency = currency
            self.charge = charge
            self.status = status
            self.metadata = metadata
            self.failureReason = failureReason
        }
    }
}
