// Written from ../shared/reference/sdk-surface/full/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0: SCPRefund.h,
// SCPRefundParameters.h, SCPConfirmRefundError.h, SCPCollectRefundConfiguration.h). The mirror-vs-surface test checks
// every declaration here against that file; the bridge names these types, so each is mirrored completely (except
// `CollectRefundConfiguration`, which no bridge names: only its type is declared, for `processRefund`'s signature).
public import Foundation

/// `SCPRefundStatus` (`NS_ENUM`), imported with raw type `UInt`.
public enum RefundStatus: UInt, @unchecked Sendable {
    /// `SCPRefundStatusSucceeded` = 0.
    case succeeded = 0
    /// `SCPRefundStatusPending` = 1.
    case pending = 1
    /// `SCPRefundStatusFailed` = 2.
    case failed = 2
    /// `SCPRefundStatusUnknown` = 3.
    case unknown = 3
}

/// `SCPRefund`: an in-person refund (Interac), as `processRefund` (and the deprecated `confirmRefund`) hand it out.
public class Refund: NSObject {
    /// `SCPRefund.stripeId`.
    public package(set) var stripeId: String
    /// `SCPRefund.amount`, in the currency's minor units.
    public package(set) var amount: UInt
    /// `SCPRefund.chargeId`: the refunded charge (nullable in the header).
    public package(set) var chargeId: String? = nil
    /// `SCPRefund.created`.
    public package(set) var created: Date
    /// `SCPRefund.currency`.
    public package(set) var currency: String
    /// `SCPRefund.metadata`.
    public package(set) var metadata: [String: String]
    /// `SCPRefund.reason`.
    public package(set) var reason: String? = nil
    /// `SCPRefund.status`.
    public package(set) var status: RefundStatus
    /// `SCPRefund.paymentMethodDetails`.
    public package(set) var paymentMethodDetails: PaymentMethodDetails? = nil
    /// `SCPRefund.failureReason`.
    public package(set) var failureReason: String? = nil
    /// `SCPRefund.balanceTransaction`.
    public package(set) var balanceTransaction: String? = nil
    /// `SCPRefund.stripeDescription`.
    public package(set) var stripeDescription: String? = nil
    /// `SCPRefund.failureBalanceTransaction`.
    public package(set) var failureBalanceTransaction: String? = nil
    /// `SCPRefund.paymentIntentId`.
    public package(set) var paymentIntentId: String? = nil
    /// `SCPRefund.receiptNumber`.
    public package(set) var receiptNumber: String? = nil
    /// `SCPRefund.sourceTransferReversal`.
    public package(set) var sourceTransferReversal: String? = nil
    /// `SCPRefund.transferReversal`.
    public package(set) var transferReversal: String? = nil

    /// Creates the object as the SDK would hand it out (for a backend); other optional properties start nil.
    package init(
        surface: SurfaceConstruction, stripeId: String, amount: UInt, chargeId: String?, created: Date,
        currency: String, metadata: [String: String], status: RefundStatus, failureReason: String? = nil
    ) {
        self.stripeId = stripeId
        self.amount = amount
        self.chargeId = chargeId
        self.created = created
        self.currency = currency
        self.metadata = metadata
        self.status = status
        self.failureReason = failureReason
        super.init()
    }
}

/// `SCPRefundParameters`: what `processRefund` refunds (by charge, or by payment intent and client secret). Made by
/// ``RefundParametersBuilder``.
public class RefundParameters: NSObject {
    /// `SCPRefundParameters.paymentIntentId`.
    public private(set) var paymentIntentId: String?
    /// `SCPRefundParameters.clientSecret`.
    public private(set) var clientSecret: String?
    /// `SCPRefundParameters.chargeId`.
    public private(set) var chargeId: String?
    /// `SCPRefundParameters.amount`.
    public private(set) var amount: UInt
    /// `SCPRefundParameters.currency`.
    public private(set) var currency: String
    /// `SCPRefundParameters.metadata`.
    public private(set) var metadata: [String: String]?
    /// `SCPRefundParameters.reverseTransfer` (a boxed `BOOL`, nil when unset).
    public private(set) var reverseTransfer: NSNumber?
    /// `SCPRefundParameters.refundApplicationFee` (a boxed `BOOL`, nil when unset).
    public private(set) var refundApplicationFee: NSNumber?

    init(paymentIntentId: String?, clientSecret: String?, chargeId: String?, amount: UInt, currency: String,
         metadata: [String: String]?, reverseTransfer: NSNumber?, refundApplicationFee: NSNumber?) {
        self.paymentIntentId = paymentIntentId
        self.clientSecret = clientSecret
        self.chargeId = chargeId
        self.amount = amount
        self.currency = currency
        self.metadata = metadata
        self.reverseTransfer = reverseTransfer
        self.refundApplicationFee = refundApplicationFee
        super.init()
    }
}

/// `SCPRefundParametersBuilder`.
public class RefundParametersBuilder: SCPBuilder<RefundParameters> {
    private var paymentIntentId: String?
    private var clientSecret: String?
    private var chargeId: String?
    private var amount: UInt
    private var currency: String
    private var metadata: [String: String]?
    private var reverseTransfer: NSNumber?
    private var refundApplicationFee: NSNumber?

    /// `build:`: the configured ``RefundParameters``, or the error the backend reports for invalid values.
    @discardableResult
    public override func build() throws -> RefundParameters {
        let product = RefundParameters(
            paymentIntentId: paymentIntentId, clientSecret: clientSecret, chargeId: chargeId, amount: amount,
            currency: currency, metadata: metadata, reverseTransfer: reverseTransfer,
            refundApplicationFee: refundApplicationFee)
        try SurfaceRuntime.backend(for: "RefundParametersBuilder.build()").validate(.refundParameters(product))
        return product
    }

    /// `-initWithPaymentIntentId:clientSecret:amount:currency:`.
    public init(paymentIntentId: String, clientSecret: String, amount: UInt, currency: String) {
        self.paymentIntentId = paymentIntentId
        self.clientSecret = clientSecret
        self.amount = amount
        self.currency = currency
        super.init()
    }

    /// `-initWithChargeId:amount:currency:`.
    public init(chargeId: String, amount: UInt, currency: String) {
        self.chargeId = chargeId
        self.amount = amount
        self.currency = currency
        super.init()
    }

    /// `-setChargeId:`.
    @discardableResult
    public func setChargeId(_ chargeId: String) -> RefundParametersBuilder {
        self.chargeId = chargeId
        return self
    }

    /// `-setPaymentIntentId:`.
    @discardableResult
    public func setPaymentIntentId(_ paymentIntentId: String) -> RefundParametersBuilder {
        self.paymentIntentId = paymentIntentId
        return self
    }

    /// `-setClientSecret:`.
    @discardableResult
    public func setClientSecret(_ clientSecret: String) -> RefundParametersBuilder {
        self.clientSecret = clientSecret
        return self
    }

    /// `-setAmount:`.
    @discardableResult
    public func setAmount(_ amount: UInt) -> RefundParametersBuilder {
        self.amount = amount
        return self
    }

    /// `-setCurrency:`.
    @discardableResult
    public func setCurrency(_ currency: String) -> RefundParametersBuilder {
        self.currency = currency
        return self
    }

    /// `-setMetadata:`.
    @discardableResult
    public func setMetadata(_ metadata: [String: String]?) -> RefundParametersBuilder {
        self.metadata = metadata
        return self
    }

    /// `-setReverseTransfer:`.
    @discardableResult
    public func setReverseTransfer(_ reverseTransfer: Bool) -> RefundParametersBuilder {
        self.reverseTransfer = NSNumber(value: reverseTransfer)
        return self
    }

    /// `-setRefundApplicationFee:`.
    @discardableResult
    public func setRefundApplicationFee(_ refundApplicationFee: Bool) -> RefundParametersBuilder {
        self.refundApplicationFee = NSNumber(value: refundApplicationFee)
        return self
    }
}

/// `SCPConfirmRefundError`: the `NSError` subclass a refund's completion delivers (domain ``ErrorDomain``, code an
/// ``ErrorCode/Code`` raw value). Stored properties are set once, before it is handed out, hence `@unchecked`.
public class ConfirmRefundError: NSError, @unchecked Sendable {
    /// `SCPConfirmRefundError.refund`: nil means the request timed out and the refund's status is unknown.
    public private(set) var refund: Refund?
    /// `SCPConfirmRefundError.requestError`.
    public private(set) var requestError: (any Error)?
    /// `SCPConfirmRefundError.apiError`.
    public private(set) var apiError: ApiError?

    /// Creates the error a backend reports for a failed refund.
    package convenience init(
        surface: SurfaceConstruction, code: ErrorCode.Code, userInfo: [String: Any] = [:], refund: Refund?,
        requestError: (any Error)? = nil, apiError: ApiError? = nil
    ) {
        self.init(domain: ErrorDomain, code: code.rawValue, userInfo: userInfo)
        self.refund = refund
        self.requestError = requestError
        self.apiError = apiError
    }
}

/// `SCPCollectRefundConfiguration`. No bridge names it: only the type is mirrored (its `customerCancellation` and
/// builder are the SDK's, not declared here).
public class CollectRefundConfiguration: NSObject, NSCopying {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }

    /// `NSCopying`: the configuration is immutable, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}
