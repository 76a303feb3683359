// Generated once from ../shared/reference/sdk-surface/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0), then kept
// by hand. The mirror-vs-surface test checks every declaration here against that file.
public import Foundation

// Value objects the SDK creates and hands out. Their public properties are read-only, as in the SDK; a backend creates
// them with the `package` initializer and may update them through the `package` setters.
// Deviation (all classes of this module): `public`, not `open` as imported Objective-C classes are. Subclassing the SDK's
// classes is no bridge's business; code that does would fail to compile here first, never only on iOS.

/// `SCPPaymentIntent`. init()/new unavailable: obtained from createPaymentIntent / retrievePaymentIntent.
public class PaymentIntent: NSObject, NSCopying {
    /// `SCPPaymentIntent.amount`. Smallest currency unit.
    public package(set) var amount: UInt
    /// `SCPPaymentIntent.amountCapturable`.
    public package(set) var amountCapturable: NSNumber? = nil
    /// `SCPPaymentIntent.amountDetails`.
    public package(set) var amountDetails: AmountDetails? = nil
    /// `SCPPaymentIntent.amountReceived`.
    public package(set) var amountReceived: NSNumber? = nil
    /// `SCPPaymentIntent.amountRequested`.
    public package(set) var amountRequested: NSNumber? = nil
    /// `SCPPaymentIntent.amountTip`.
    public package(set) var amountTip: NSNumber? = nil
    /// `SCPPaymentIntent.applicationFeeAmount`.
    public package(set) var applicationFeeAmount: NSNumber? = nil
    /// `SCPPaymentIntent.canceledAt`.
    public package(set) var canceledAt: Date? = nil
    /// `SCPPaymentIntent.cancellationReason`.
    public package(set) var cancellationReason: String? = nil
    /// `SCPPaymentIntent.captureMethod`.
    public package(set) var captureMethod: CaptureMethod
    /// `SCPPaymentIntent.charges`.
    public package(set) var charges: [Charge]
    /// `SCPPaymentIntent.clientSecret`.
    public package(set) var clientSecret: String? = nil
    /// `SCPPaymentIntent.confirmationMethod`.
    public package(set) var confirmationMethod: String? = nil
    /// `SCPPaymentIntent.created`.
    public package(set) var created: Date
    /// `SCPPaymentIntent.currency`.
    public package(set) var currency: String
    /// `SCPPaymentIntent.customer`.
    public package(set) var customer: String? = nil
    /// `SCPPaymentIntent.lastPaymentError`.
    public package(set) var lastPaymentError: ApiError? = nil
    /// `SCPPaymentIntent.livemode`.
    public package(set) var livemode: Bool
    /// `SCPPaymentIntent.metadata`.
    public package(set) var metadata: [String: String]? = nil
    /// `SCPPaymentIntent.nextAction`.
    public package(set) var nextAction: NextAction? = nil
    /// `SCPPaymentIntent.offlineDetails`. Set when created or confirmed offline.
    public package(set) var offlineDetails: OfflineDetails? = nil
    /// `SCPPaymentIntent.onBehalfOf`.
    public package(set) var onBehalfOf: String? = nil
    /// `SCPPaymentIntent.paymentMethod`.
    public package(set) var paymentMethod: PaymentMethod? = nil
    /// `SCPPaymentIntent.paymentMethodId`.
    public package(set) var paymentMethodId: String? = nil
    /// `SCPPaymentIntent.paymentMethodOptions`.
    public package(set) var paymentMethodOptions: PaymentMethodOptionsParameters? = nil
    /// `SCPPaymentIntent.paymentMethodTypes`. Array of boxed PaymentMethodType raw values.
    public package(set) var paymentMethodTypes: [NSNumber]? = nil
    /// `SCPPaymentIntent.receiptEmail`.
    public package(set) var receiptEmail: String? = nil
    /// `SCPPaymentIntent.setupFutureUsage`.
    public package(set) var setupFutureUsage: String? = nil
    /// `SCPPaymentIntent.statementDescriptor`.
    public package(set) var statementDescriptor: String? = nil
    /// `SCPPaymentIntent.statementDescriptorSuffix`.
    public package(set) var statementDescriptorSuffix: String? = nil
    /// `SCPPaymentIntent.status`.
    public package(set) var status: PaymentIntentStatus
    /// `SCPPaymentIntent.stripeDescription`.
    public package(set) var stripeDescription: String? = nil
    /// `SCPPaymentIntent.stripeId`. nil for intents created offline.
    public package(set) var stripeId: String? = nil
    /// `SCPPaymentIntent.transferGroup`.
    public package(set) var transferGroup: String? = nil

    /// Creates the object as the SDK would hand it out (for a backend); optional properties start nil.
    package init(
        surface: SurfaceConstruction,
        amount: UInt,
        captureMethod: CaptureMethod,
        charges: [Charge],
        created: Date,
        currency: String,
        livemode: Bool,
        status: PaymentIntentStatus
    ) {
        self.amount = amount
        self.captureMethod = captureMethod
        self.charges = charges
        self.created = created
        self.currency = currency
        self.livemode = livemode
        self.status = status
        super.init()
    }

    /// `NSCopying`: a new object with the same values.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = PaymentIntent(
            surface: .backend,
            amount: amount,
            captureMethod: captureMethod,
            charges: charges,
            created: created,
            currency: currency,
            livemode: livemode,
            status: status
        )
        copy.amountCapturable = amountCapturable
        copy.amountDetails = amountDetails
        copy.amountReceived = amountReceived
        copy.amountRequested = amountRequested
        copy.amountTip = amountTip
        copy.applicationFeeAmount = applicationFeeAmount
        copy.canceledAt = canceledAt
        copy.cancellationReason = cancellationReason
        copy.clientSecret = clientSecret
        copy.confirmationMethod = confirmationMethod
        copy.customer = customer
        copy.lastPaymentError = lastPaymentError
        copy.metadata = metadata
        copy.nextAction = nextAction
        copy.offlineDetails = offlineDetails
        copy.onBehalfOf = onBehalfOf
        copy.paymentMethod = paymentMethod
        copy.paymentMethodId = paymentMethodId
        copy.paymentMethodOptions = paymentMethodOptions
        copy.paymentMethodTypes = paymentMethodTypes
        copy.receiptEmail = receiptEmail
        copy.setupFutureUsage = setupFutureUsage
        copy.statementDescriptor = statementDescriptor
        copy.statementDescriptorSuffix = statementDescriptorSuffix
        copy.stripeDescription = stripeDescription
        copy.stripeId = stripeId
        copy.transferGroup = transferGroup
        return copy
    }
}
