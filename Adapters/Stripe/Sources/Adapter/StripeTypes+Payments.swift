package import Foundation

// MARK: - Payment enums

extension Stripe {
    /// `SCPPaymentIntentStatus`.
    package enum PaymentIntentStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// Next step: `collectPaymentMethod`.
        case requiresPaymentMethod
        /// Next step: `confirmPaymentIntent`.
        case requiresConfirmation
        /// 3DS and similar; Terminal payments should not end here.
        case requiresAction
        /// Authorized; capture on the backend.
        case requiresCapture
        /// In full EMV processing.
        case processing
        /// Canceled.
        case canceled
        /// Captured.
        case succeeded
        /// The authorization must be renewed before it can be captured (5.4.0).
        case requiresReauthorization
    }

    /// `SCPCaptureMethod`. `PaymentIntentParameters` defaults to ``manual``.
    package enum CaptureMethod: String, Hashable, Sendable, Codable, CaseIterable {
        /// Capture later, on the backend.
        case manual
        /// Captured on confirmation.
        case automatic
    }

    /// `SCPPaymentStatus`: the Terminal's payment activity.
    package enum PaymentStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// Busy, or no reader.
        case notReady
        /// Ready for a payment.
        case ready
        /// Waiting for the customer's card.
        case waitingForInput
        /// Processing a payment.
        case processing
    }

    /// `SCPCardBrand`.
    package enum CardBrand: String, Hashable, Sendable, Codable, CaseIterable {
        /// Visa.
        case visa
        /// American Express.
        case amex
        /// Mastercard.
        case masterCard
        /// Discover.
        case discover
        /// JCB.
        case JCB
        /// Diners Club.
        case dinersClub
        /// Interac.
        case interac
        /// UnionPay.
        case unionPay
        /// eftpos Australia.
        case eftposAu
        /// Cartes Bancaires (5.0).
        case cartesBancaires
        /// girocard (5.0).
        case girocard
        /// Unknown (offline payments may not know the brand until forwarded).
        case unknown
    }

    /// `SCPReadMethod`.
    package enum ReadMethod: String, Hashable, Sendable, Codable, CaseIterable {
        /// Unknown.
        case unknown
        /// Chip inserted.
        case contactEMV
        /// Tapped.
        case contactlessEMV
        /// Swiped after a failed chip read.
        case magneticStripeFallback
        /// Swiped.
        case magneticStripeTrack2
        /// Contactless in magstripe mode.
        case contactlessMagstripeMode

        /// Whether the card data came from a swipe, which Stripe refuses offline (`cardSwipeNotAvailable`).
        package var isSwipe: Bool { self == .magneticStripeFallback || self == .magneticStripeTrack2 }
    }

    /// `SCPChargeStatus`.
    package enum ChargeStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// Authorized (and captured or capturable).
        case succeeded
        /// Pending.
        case pending
        /// Failed (declined).
        case failed
    }

    /// `SCPPaymentMethodType` (the card-present ones the adapter meets).
    package enum PaymentMethodType: String, Hashable, Sendable, Codable, CaseIterable {
        /// `card_present`.
        case cardPresent
        /// `interac_present` (Canada): refunded in person, through the reader.
        case interacPresent
        /// Any other type.
        case unknown
    }
}

// MARK: - Card details

extension Stripe {
    /// `SCPReceiptDetails`: the EMV fields for a receipt. Offline, `accountType` and `authorizationResponseCode`
    /// are unavailable.
    package struct ReceiptDetails: Hashable, Sendable, Codable {
        /// `accountType`.
        package var accountType: String?
        /// `applicationPreferredName`.
        package var applicationPreferredName: String?
        /// `dedicatedFileName` (the AID).
        package var dedicatedFileName: String?
        /// `authorizationCode`.
        package var authorizationCode: String?
        /// `authorizationResponseCode`.
        package var authorizationResponseCode: String?
        /// `applicationCryptogram`, `terminalVerificationResults`, `transactionStatusInformation`.
        package var applicationCryptogram: String?, terminalVerificationResults: String?,
                   transactionStatusInformation: String?
        /// `cardholderVerificationMethod`.
        package var cardholderVerificationMethod: String?

        /// Creates receipt details.
        package init(accountType: String? = nil, applicationPreferredName: String? = nil,
                    dedicatedFileName: String? = nil, authorizationCode: String? = nil,
                    authorizationResponseCode: String? = nil, applicationCryptogram: String? = nil,
                    terminalVerificationResults: String? = nil, transactionStatusInformation: String? = nil,
                    cardholderVerificationMethod: String? = nil) {
            self.accountType = accountType
            self.applicationPreferredName = applicationPreferredName
            self.dedicatedFileName = dedicatedFileName
            self.authorizationCode = authorizationCode
            self.authorizationResponseCode = authorizationResponseCode
            self.applicationCryptogram = applicationCryptogram
            self.terminalVerificationResults = terminalVerificationResults
            self.transactionStatusInformation = transactionStatusInformation
            self.cardholderVerificationMethod = cardholderVerificationMethod
        }
    }

    /// `SCPCardPresentDetails` (a charge's `paymentMethodDetails.cardPresent` or `.interacPresent`) and
    /// `SCPOfflineCardPresentDetails` (offline): what a receipt may show. Never the card number, track data or PIN.
    package struct CardPresentDetails: Hashable, Sendable, Codable {
        /// `brand`; may be ``CardBrand/unknown`` offline until forwarded.
        package var brand: CardBrand
        /// `last4`.
        package var last4: String?
        /// `expMonth` / `expYear` (0 if missing).
        package var expMonth: Int, expYear: Int
        /// `readMethod`.
        package var readMethod: ReadMethod
        /// `cardholderName`.
        package var cardholderName: String?
        /// `receipt` (online) / `receiptDetails` (offline).
        package var receiptDetails: ReceiptDetails?
        /// `captureBefore` (online only): when the uncaptured authorization expires.
        package var captureBefore: Date?

        /// Creates card-present details.
        package init(brand: CardBrand, last4: String?, expMonth: Int = 0, expYear: Int = 0, readMethod: ReadMethod,
                    cardholderName: String? = nil, receiptDetails: ReceiptDetails? = nil, captureBefore: Date? = nil) {
            self.brand = brand
            self.last4 = last4
            self.expMonth = expMonth
            self.expYear = expYear
            self.readMethod = readMethod
            self.cardholderName = cardholderName
            self.receiptDetails = receiptDetails
            self.captureBefore = captureBefore
        }
    }

    /// `SCPCharge` (the fields the adapter reads). The SDK's `paymentMethodDetails` is flattened to its
    /// card-present details and type.
    package struct Charge: Hashable, Sendable, Codable {
        /// `stripeId` (`ch_…`).
        package var stripeId: String
        /// `amount`, minor units.
        package var amount: UInt
        /// `currency`, lowercase.
        package var currency: String
        /// `status`.
        package var status: ChargeStatus
        /// `captured`.
        package var captured: Bool
        /// `amountRefunded`.
        package var amountRefunded: UInt
        /// `paymentMethodDetails.type`.
        package var paymentMethodType: PaymentMethodType
        /// `paymentMethodDetails.cardPresent` (or `.interacPresent`).
        package var cardPresentDetails: CardPresentDetails?

        /// Creates a charge.
        package init(stripeId: String, amount: UInt, currency: String, status: ChargeStatus, captured: Bool = false,
                    amountRefunded: UInt = 0, paymentMethodType: PaymentMethodType = .cardPresent,
                    cardPresentDetails: CardPresentDetails? = nil) {
            self.stripeId = stripeId
            self.amount = amount
            self.currency = currency
            self.status = status
            self.captured = captured
            self.amountRefunded = amountRefunded
            self.paymentMethodType = paymentMethodType
            self.cardPresentDetails = cardPresentDetails
        }
    }
}

// MARK: - PaymentIntent

extension Stripe {
    /// `SCPPaymentIntent` (the fields the adapter uses). The real SDK returns objects, not ids: an intent created
    /// offline has no `stripeId` until it is forwarded, so the object itself is what the app passes back.
    package struct PaymentIntent: Hashable, Sendable, Codable {
        /// The SDK object this value stands for, opaque: the bridge keeps a registry from handle to `SCPPaymentIntent`
        /// and passes that object back to the SDK. `nil` for copies that did not come from the SDK (Stripe's
        /// server copies, through ``StripeServerLookup``): those must be retrieved through the SDK
        /// (`retrievePaymentIntent(clientSecret:)`) before the SDK can use them. A relaunch forgets every handle.
        /// Never use it to reconcile: use ``metadata`` and ``stripeId``.
        package var sdkHandle: String?
        /// `stripeId`: nil when created offline, set after forwarding.
        package var stripeId: String?
        /// `status`.
        package var status: PaymentIntentStatus
        /// `amount` in minor units.
        package var amount: UInt
        /// `currency`, lowercase (`"usd"`).
        package var currency: String
        /// `captureMethod`.
        package var captureMethod: CaptureMethod
        /// `created`.
        package var created: Date
        /// `metadata`.
        package var metadata: [String: String]
        /// `offlineDetails` (offline): set when created or confirmed offline.
        package var offlineDetails: OfflineDetails?
        /// `charges`, oldest first (declined attempts included).
        package var charges: [Charge]
        /// `clientSecret` (5.0).
        package var clientSecret: String?
        /// `amountTip`: the tip the customer chose, *in addition to* `amount`. Stripe documents it non-nil only in
        /// the intent `collectPaymentMethod` returns with `updatePaymentIntent` (which Tender never sets); after
        /// confirmation `amount` includes the tip and ``amountDetailsTip`` carries it.
        package var amountTip: UInt?
        /// `amountDetails.tip.amount` (the REST object's `amount_details.tip.amount`): after confirmation, the
        /// "portion of the amount that corresponds to a tip", so already *in* `amount`. Nil when no tip was
        /// collected (tipping skipped, or no tipping configuration); 0 when the customer chose no tip.
        package var amountDetailsTip: UInt?
        /// `amountCapturable`.
        package var amountCapturable: UInt?
        /// `amountReceived` (REST `amount_received`): what Stripe captured — after a partial capture, less than
        /// `amount`. Reconciliation records it as the captured amount of a manual-capture payment.
        package var amountReceived: UInt?
        /// `lastPaymentError`: why the last confirmation failed (a decline's `declineCode`).
        package var lastPaymentError: ApiError?
        /// `canceledAt`.
        package var canceledAt: Date?
        /// `cancellationReason` (`abandoned`, `requested_by_customer`…, or `automatic` when Stripe canceled it, as
        /// when an uncaptured authorization expires).
        package var cancellationReason: String?

        /// Creates an intent (the SDK creates them; the simulator and tests use this).
        package init(sdkHandle: String?, stripeId: String?, status: PaymentIntentStatus, amount: UInt, currency: String,
                    captureMethod: CaptureMethod, created: Date, metadata: [String: String],
                    offlineDetails: OfflineDetails? = nil, charges: [Charge] = [], clientSecret: String? = nil,
                    amountTip: UInt? = nil, amountDetailsTip: UInt? = nil, amountCapturable: UInt? = nil,
                    lastPaymentError: ApiError? = nil, canceledAt: Date? = nil, cancellationReason: String? = nil,
                    amountReceived: UInt? = nil) {
            self.sdkHandle = sdkHandle
            self.stripeId = stripeId
            self.status = status
            self.amount = amount
            self.currency = currency
            self.captureMethod = captureMethod
            self.created = created
            self.metadata = metadata
            self.offlineDetails = offlineDetails
            self.charges = charges
            self.clientSecret = clientSecret
            self.amountTip = amountTip
            self.amountDetailsTip = amountDetailsTip
            self.amountCapturable = amountCapturable
            self.amountReceived = amountReceived
            self.lastPaymentError = lastPaymentError
            self.canceledAt = canceledAt
            self.cancellationReason = cancellationReason
        }

        /// Seed 000's rule: ready to capture when the status is `requiresCapture` and `offlineDetails` is nil or
        /// has `requiresUpload == false`.
        package var isReadyToCapture: Bool {
            status == .requiresCapture && !(offlineDetails?.requiresUpload ?? false)
        }

        /// The charge that authorized the payment, if any (the last succeeded one).
        package var authorizedCharge: Charge? { charges.last { $0.status == .succeeded } }
    }

    /// `SCPPaymentIntentParameters` (built with `PaymentIntentParametersBuilder(amount:currency:)`).
    package struct PaymentIntentParameters: Hashable, Sendable {
        /// `amount`, minor units.
        package var amount: UInt
        /// `currency`, lowercase.
        package var currency: String
        /// `paymentMethodTypes`; the SDK's default is `[cardPresent]` (Interac needs `interacPresent` too).
        package var paymentMethodTypes: [PaymentMethodType]
        /// `captureMethod`; the SDK's default is manual.
        package var captureMethod: CaptureMethod
        /// `metadata`.
        package var metadata: [String: String]
        /// `stripeDescription`.
        package var stripeDescription: String?

        /// Creates parameters.
        package init(amount: UInt, currency: String, paymentMethodTypes: [PaymentMethodType] = [.cardPresent],
                    captureMethod: CaptureMethod = .manual, metadata: [String: String] = [:],
                    stripeDescription: String? = nil) {
            self.amount = amount
            self.currency = currency
            self.paymentMethodTypes = paymentMethodTypes
            self.captureMethod = captureMethod
            self.metadata = metadata
            self.stripeDescription = stripeDescription
        }
    }

    /// `SCPCreateConfiguration` (offline): its only field is the offline behaviour.
    package struct CreateConfiguration: Hashable, Sendable {
        /// `offlineBehavior`; default `preferOnline`, effective only for offline-enabled accounts.
        package var offlineBehavior: OfflineBehavior
        /// Creates a configuration.
        package init(offlineBehavior: OfflineBehavior = .preferOnline) { self.offlineBehavior = offlineBehavior }
    }

    /// `SCPCollectPaymentIntentConfiguration` (the fields the adapter uses; SDK defaults).
    package struct CollectPaymentIntentConfiguration: Hashable, Sendable {
        /// `skipTipping` (default false): no on-reader tip prompt, so no `amountTip`.
        package var skipTipping: Bool
        /// `updatePaymentIntent` (default false; with an offline-created intent it fails with 1935).
        package var updatePaymentIntent: Bool
        /// `tippingConfiguration`: the amount on-reader tip suggestions are computed on.
        package var tippingConfiguration: TippingConfiguration?
        /// Creates a configuration.
        package init(skipTipping: Bool = false, updatePaymentIntent: Bool = false,
                     tippingConfiguration: TippingConfiguration? = nil) {
            self.skipTipping = skipTipping
            self.updatePaymentIntent = updatePaymentIntent
            self.tippingConfiguration = tippingConfiguration
        }
    }

    /// `SCPConfirmPaymentIntentConfiguration` (`returnUrl`, `surcharge`; the adapter sets neither).
    package struct ConfirmPaymentIntentConfiguration: Hashable, Sendable {
        /// `returnUrl`.
        package var returnUrl: String?
        /// Creates a configuration.
        package init(returnUrl: String? = nil) { self.returnUrl = returnUrl }
    }
}
