public import Foundation

/// Square's `PaymentParameters`: one payment's amount, processing mode and options, given to `startPayment`.
///
/// Mirror: `@objc(SQMPPaymentParameters)` is dropped. The initial values stated by Square's documentation are used
/// (`acceptPartialAuthorization` false, `allowCardSurcharge` true, `delayAction` cancel, `delayDuration` 0 meaning
/// Square's default, optionals `nil`). `autocomplete`, whose default is not stated, and `createdAt` (the device clock)
/// come from the installed ``SurfaceBackend``, so creating parameters needs one.
public class PaymentParameters: NSObject {
    /// Creates parameters. `amountMoney` excludes any tip.
    public init(paymentAttemptID: String, amountMoney: any MoneyAmount, processingMode: ProcessingMode) {
        let backend = SurfaceBackendSlot.current
        self.paymentAttemptID = paymentAttemptID
        self.amountMoney = amountMoney
        self.processingMode = processingMode
        self.autocomplete = backend.defaultAutocomplete
        self.createdAt = backend.now
        super.init()
    }

    /// Whether a Square Gift Card may approve less than requested. `false` by default; not allowed with
    /// `autocomplete`.
    public var acceptPartialAuthorization: Bool = false
    /// Whether a card surcharge may apply. `true` by default; never applied offline.
    public var allowCardSurcharge: Bool = true
    /// The amount, excluding ``tipMoney``.
    public var amountMoney: any MoneyAmount
    /// A developer fee, at most 90% of the total.
    public var appFeeMoney: (any MoneyAmount)?
    /// `true` completes the payment when possible; `false` holds it approved until completed or canceled.
    public var autocomplete: Bool
    /// A stored swiped card; when set, payment-method selection is skipped.
    public var cardHandle: (any CardHandle)?
    /// When the payment started on the device.
    public let createdAt: Date
    /// The customer, required for a card on file.
    public var customerID: String?
    /// What Square does to the payment if it is still open after ``delayDuration``. `cancel` by default.
    public var delayAction: DelayAction = .cancel
    /// Seconds until ``delayAction`` applies (minimum 60; 0 means Square's default). Card payments with
    /// `autocomplete == false` only.
    public var delayDuration: TimeInterval = 0
    /// The location; `nil` uses the authorized one.
    public var locationID: String?
    /// A note.
    public var note: String?
    /// An existing Square order ID.
    public var orderID: String?
    /// The app's ID for this payment attempt; the SDK derives and stores an idempotency key from it.
    public var paymentAttemptID: String
    /// Online, offline, or chosen by the SDK.
    public var processingMode: ProcessingMode
    /// The app's reference, such as an order number.
    public var referenceID: String?
    /// Text added to the card statement.
    public var statementDescriptionIdentifier: String?
    /// The team member taking the payment (formerly `employeeID`).
    public var teamMemberID: String?
    /// A tip on top of ``amountMoney``.
    public var tipMoney: (any MoneyAmount)?

    /// ``amountMoney`` plus ``tipMoney``.
    public var totalMoney: any MoneyAmount {
        Money(totaling: amountMoney, tipMoney)
    }
}

/// Square's `PromptParameters`: how the buyer is prompted, and which additional payment methods are offered.
///
/// Mirror: `@objc(SQMPPromptParameters)` is dropped.
public class PromptParameters: NSObject {
    /// Creates prompt parameters.
    public init(mode: PromptMode, additionalMethods: AdditionalPaymentMethods) {
        self.mode = mode
        self.additionalMethods = additionalMethods
        super.init()
    }

    /// The additional payment methods offered.
    public let additionalMethods: AdditionalPaymentMethods
    /// Square's UI or the app's.
    public let mode: PromptMode
}
