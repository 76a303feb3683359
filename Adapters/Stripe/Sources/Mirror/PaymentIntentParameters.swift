// Generated once from ../shared/reference/sdk-surface/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0), then kept
// by hand. The mirror-vs-surface test checks every declaration here against that file.
public import Foundation

// Configurations are immutable once built; only their builders create them (`init()`/`new` are unavailable in the SDK).
// Deviation (all classes of this module): `public`, not `open` as imported Objective-C classes are (see PaymentIntent.swift).

/// `SCPPaymentIntentParameters`. init()/new unavailable: build with PaymentIntentParametersBuilder.
public class PaymentIntentParameters: NSObject {
    /// `SCPPaymentIntentParameters.amount`.
    public private(set) var amount: UInt
    /// `SCPPaymentIntentParameters.currency`.
    public private(set) var currency: String
    /// `SCPPaymentIntentParameters.paymentMethodTypes`. Boxed PaymentMethodType raw values; default [cardPresent].
    public private(set) var paymentMethodTypes: [NSNumber]
    /// `SCPPaymentIntentParameters.captureMethod`. Defaults to .manual.
    public private(set) var captureMethod: CaptureMethod
    /// `SCPPaymentIntentParameters.metadata`.
    public private(set) var metadata: [String: String]? = nil
    /// `SCPPaymentIntentParameters.stripeDescription`.
    public private(set) var stripeDescription: String? = nil
    /// `SCPPaymentIntentParameters.statementDescriptor`.
    public private(set) var statementDescriptor: String? = nil
    /// `SCPPaymentIntentParameters.statementDescriptorSuffix`.
    public private(set) var statementDescriptorSuffix: String? = nil
    /// `SCPPaymentIntentParameters.receiptEmail`.
    public private(set) var receiptEmail: String? = nil
    /// `SCPPaymentIntentParameters.customer`.
    public private(set) var customer: String? = nil
    /// `SCPPaymentIntentParameters.applicationFeeAmount`. Boxed UInt in smallest currency unit.
    public private(set) var applicationFeeAmount: NSNumber? = nil
    /// `SCPPaymentIntentParameters.transferGroup`.
    public private(set) var transferGroup: String? = nil
    /// `SCPPaymentIntentParameters.transferDataDestination`.
    public private(set) var transferDataDestination: String? = nil
    /// `SCPPaymentIntentParameters.onBehalfOf`.
    public private(set) var onBehalfOf: String? = nil
    /// `SCPPaymentIntentParameters.setupFutureUsage`.
    public private(set) var setupFutureUsage: String? = nil
    /// `SCPPaymentIntentParameters.paymentMethodOptionsParameters`.
    public private(set) var paymentMethodOptionsParameters: PaymentMethodOptionsParameters

    /// Creates the configuration (its builder calls this).
    package init(
        surface: SurfaceConstruction,
        amount: UInt,
        currency: String,
        paymentMethodTypes: [NSNumber],
        captureMethod: CaptureMethod,
        metadata: [String: String]?,
        stripeDescription: String?,
        statementDescriptor: String?,
        statementDescriptorSuffix: String?,
        receiptEmail: String?,
        customer: String?,
        applicationFeeAmount: NSNumber?,
        transferGroup: String?,
        transferDataDestination: String?,
        onBehalfOf: String?,
        setupFutureUsage: String?,
        paymentMethodOptionsParameters: PaymentMethodOptionsParameters
    ) {
        self.amount = amount
        self.currency = currency
        self.paymentMethodTypes = paymentMethodTypes
        self.captureMethod = captureMethod
        self.metadata = metadata
        self.stripeDescription = stripeDescription
        self.statementDescriptor = statementDescriptor
        self.statementDescriptorSuffix = statementDescriptorSuffix
        self.receiptEmail = receiptEmail
        self.customer = customer
        self.applicationFeeAmount = applicationFeeAmount
        self.transferGroup = transferGroup
        self.transferDataDestination = transferDataDestination
        self.onBehalfOf = onBehalfOf
        self.setupFutureUsage = setupFutureUsage
        self.paymentMethodOptionsParameters = paymentMethodOptionsParameters
        super.init()
    }

    /// `description`: deprecated in the SDK in favour of ``stripeDescription``; it is `NSObject`'s description.
    @available(*, deprecated, message: "Use stripeDescription.")
    public override var description: String {
        super.description
    }
}

/// `SCPPaymentIntentParametersBuilder`: builds ``PaymentIntentParameters``; `build()` throws when the backend rejects
/// the values. init()/new unavailable; use init(amount:currency:).
public class PaymentIntentParametersBuilder: SCPBuilder<PaymentIntentParameters> {
    // Starting values are the SDK's defaults as the reference records them: `paymentMethodTypes` [cardPresent],
    // `captureMethod` manual. `paymentMethodOptionsParameters` (not described by the reference) starts as an empty
    // opaque object, since the SDK's property is non-optional.
    private var amount: UInt
    private var currency: String
    private var paymentMethodTypes: [NSNumber] = [NSNumber(value: PaymentMethodType.cardPresent.rawValue)]
    private var captureMethod: CaptureMethod = .manual
    private var metadata: [String: String]? = nil
    private var stripeDescription: String? = nil
    private var statementDescriptor: String? = nil
    private var statementDescriptorSuffix: String? = nil
    private var receiptEmail: String? = nil
    private var customer: String? = nil
    private var applicationFeeAmount: NSNumber? = nil
    private var transferGroup: String? = nil
    private var transferDataDestination: String? = nil
    private var onBehalfOf: String? = nil
    private var setupFutureUsage: String? = nil
    private var paymentMethodOptionsParameters: PaymentMethodOptionsParameters = PaymentMethodOptionsParameters(surface: .backend)

    /// `build:`: the configured ``PaymentIntentParameters``, or the error the backend reports for invalid values.
    @discardableResult
    public override func build() throws -> PaymentIntentParameters {
        let product = PaymentIntentParameters(
            surface: .backend,
            amount: amount,
            currency: currency,
            paymentMethodTypes: paymentMethodTypes,
            captureMethod: captureMethod,
            metadata: metadata,
            stripeDescription: stripeDescription,
            statementDescriptor: statementDescriptor,
            statementDescriptorSuffix: statementDescriptorSuffix,
            receiptEmail: receiptEmail,
            customer: customer,
            applicationFeeAmount: applicationFeeAmount,
            transferGroup: transferGroup,
            transferDataDestination: transferDataDestination,
            onBehalfOf: onBehalfOf,
            setupFutureUsage: setupFutureUsage,
            paymentMethodOptionsParameters: paymentMethodOptionsParameters
        )
        try SurfaceRuntime.backend(for: "PaymentIntentParametersBuilder.build()").validate(.paymentIntentParameters(product))
        return product
    }

    /// `-initWithAmount:currency:`. Call build() to obtain PaymentIntentParameters; build() throws.
    public init(amount: UInt, currency: String) {
        self.amount = amount
        self.currency = currency
        super.init()
    }

    /// `-setAmount:`: sets `amount`.
    @discardableResult
    public func setAmount(_ amount: UInt) -> PaymentIntentParametersBuilder {
        self.amount = amount
        return self
    }

    /// `-setCurrency:`: sets `currency`.
    @discardableResult
    public func setCurrency(_ currency: String) -> PaymentIntentParametersBuilder {
        self.currency = currency
        return self
    }

    /// `-setPaymentMethodTypes:`: sets `paymentMethodTypes`.
    @discardableResult
    public func setPaymentMethodTypes(_ paymentMethodTypes: [NSNumber]) -> PaymentIntentParametersBuilder {
        self.paymentMethodTypes = paymentMethodTypes
        return self
    }

    /// `-setCaptureMethod:`: sets `captureMethod`.
    @discardableResult
    public func setCaptureMethod(_ captureMethod: CaptureMethod) -> PaymentIntentParametersBuilder {
        self.captureMethod = captureMethod
        return self
    }

    /// `-setMetadata:`: sets `metadata`.
    @discardableResult
    public func setMetadata(_ metadata: [String: String]?) -> PaymentIntentParametersBuilder {
        self.metadata = metadata
        return self
    }

    /// `-setStripeDescription:`: sets `stripeDescription`.
    @discardableResult
    public func setStripeDescription(_ stripeDescription: String?) -> PaymentIntentParametersBuilder {
        self.stripeDescription = stripeDescription
        return self
    }

    /// `-setStatementDescriptor:`: sets `statementDescriptor`.
    @discardableResult
    public func setStatementDescriptor(_ statementDescriptor: String?) -> PaymentIntentParametersBuilder {
        self.statementDescriptor = statementDescriptor
        return self
    }

    /// `-setStatementDescriptorSuffix:`: sets `statementDescriptorSuffix`.
    @discardableResult
    public func setStatementDescriptorSuffix(_ statementDescriptorSuffix: String?) -> PaymentIntentParametersBuilder {
        self.statementDescriptorSuffix = statementDescriptorSuffix
        return self
    }

    /// `-setReceiptEmail:`: sets `receiptEmail`.
    @discardableResult
    public func setReceiptEmail(_ receiptEmail: String?) -> PaymentIntentParametersBuilder {
        self.receiptEmail = receiptEmail
        return self
    }

    /// `-setCustomer:`: sets `customer`.
    @discardableResult
    public func setCustomer(_ customer: String?) -> PaymentIntentParametersBuilder {
        self.customer = customer
        return self
    }

    /// `-setApplicationFeeAmount:`: sets `applicationFeeAmount`.
    @discardableResult
    public func setApplicationFeeAmount(_ applicationFeeAmount: NSNumber?) -> PaymentIntentParametersBuilder {
        self.applicationFeeAmount = applicationFeeAmount
        return self
    }

    /// `-setTransferGroup:`: sets `transferGroup`.
    @discardableResult
    public func setTransferGroup(_ transferGroup: String?) -> PaymentIntentParametersBuilder {
        self.transferGroup = transferGroup
        return self
    }

    /// `-setTransferDataDestination:`: sets `transferDataDestination`.
    @discardableResult
    public func setTransferDataDestination(_ transferDataDestination: String?) -> PaymentIntentParametersBuilder {
        self.transferDataDestination = transferDataDestination
        return self
    }

    /// `-setOnBehalfOf:`: sets `onBehalfOf`.
    @discardableResult
    public func setOnBehalfOf(_ onBehalfOf: String?) -> PaymentIntentParametersBuilder {
        self.onBehalfOf = onBehalfOf
        return self
    }

    /// `-setSetupFutureUsage:`: sets `setupFutureUsage`.
    @discardableResult
    public func setSetupFutureUsage(_ setupFutureUsage: String?) -> PaymentIntentParametersBuilder {
        self.setupFutureUsage = setupFutureUsage
        return self
    }

    /// `-setPaymentMethodOptionsParameters:`: sets `paymentMethodOptionsParameters`.
    @discardableResult
    public func setPaymentMethodOptionsParameters(_ paymentMethodOptionsParameters: PaymentMethodOptionsParameters) -> PaymentIntentParametersBuilder {
        self.paymentMethodOptionsParameters = paymentMethodOptionsParameters
        return self
    }
}
