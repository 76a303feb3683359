// Generated once from ../shared/reference/sdk-surface/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0), then kept
// by hand. The mirror-vs-surface test checks every declaration here against that file.
public import Foundation

// Value objects the SDK creates and hands out. Their public properties are read-only, as in the SDK; a backend creates
// them with the `package` initializer and may update them through the `package` setters.
// Deviation (all classes of this module): `public`, not `open` as imported Objective-C classes are. Subclassing the SDK's
// classes is no bridge's business; code that does would fail to compile here first, never only on iOS.

/// `SCPCharge`.
public class Charge: NSObject {
    /// `SCPCharge.amount`.
    public package(set) var amount: UInt
    /// `SCPCharge.currency`.
    public package(set) var currency: String
    /// `SCPCharge.status`.
    public package(set) var status: ChargeStatus
    /// `SCPCharge.paymentMethodDetails`.
    public package(set) var paymentMethodDetails: PaymentMethodDetails? = nil
    /// `SCPCharge.stripeDescription`.
    public package(set) var stripeDescription: String? = nil
    /// `SCPCharge.metadata`.
    public package(set) var metadata: [String: String]
    /// `SCPCharge.stripeId`.
    public package(set) var stripeId: String
    /// `SCPCharge.statementDescriptorSuffix`.
    public package(set) var statementDescriptorSuffix: String? = nil
    /// `SCPCharge.calculatedStatementDescriptor`.
    public package(set) var calculatedStatementDescriptor: String? = nil
    /// `SCPCharge.authorizationCode`.
    public package(set) var authorizationCode: String? = nil
    /// `SCPCharge.amountRefunded`.
    public package(set) var amountRefunded: UInt
    /// `SCPCharge.created`.
    public package(set) var created: Date? = nil
    /// `SCPCharge.captured`.
    public package(set) var captured: Bool
    /// `SCPCharge.paid`.
    public package(set) var paid: Bool
    /// `SCPCharge.refunded`.
    public package(set) var refunded: Bool
    /// `SCPCharge.customer`.
    public package(set) var customer: String? = nil
    /// `SCPCharge.paymentIntentId`.
    public package(set) var paymentIntentId: String? = nil
    /// `SCPCharge.receiptEmail`.
    public package(set) var receiptEmail: String? = nil
    /// `SCPCharge.receiptNumber`.
    public package(set) var receiptNumber: String? = nil
    /// `SCPCharge.receiptUrl`.
    public package(set) var receiptUrl: String? = nil
    /// `SCPCharge.balanceTransaction`.
    public package(set) var balanceTransaction: String? = nil
    /// `SCPCharge.applicationFee`.
    public package(set) var applicationFee: String? = nil
    /// `SCPCharge.applicationFeeAmount`.
    public package(set) var applicationFeeAmount: NSNumber? = nil
    /// `SCPCharge.onBehalfOf`.
    public package(set) var onBehalfOf: String? = nil
    /// `SCPCharge.livemode`.
    public package(set) var livemode: Bool
    /// `SCPCharge.generatedFrom`.
    public package(set) var generatedFrom: GeneratedFrom? = nil

    /// Creates the object as the SDK would hand it out (for a backend); optional properties start nil.
    package init(
        surface: SurfaceConstruction,
        amount: UInt,
        currency: String,
        status: ChargeStatus,
        metadata: [String: String],
        stripeId: String,
        amountRefunded: UInt,
        captured: Bool,
        paid: Bool,
        refunded: Bool,
        livemode: Bool
    ) {
        self.amount = amount
        self.currency = currency
        self.status = status
        self.metadata = metadata
        self.stripeId = stripeId
        self.amountRefunded = amountRefunded
        self.captured = captured
        self.paid = paid
        self.refunded = refunded
        self.livemode = livemode
        super.init()
    }
}
