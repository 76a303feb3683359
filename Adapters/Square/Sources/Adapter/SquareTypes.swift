import Foundation

/// The namespace of every type that mirrors Square's Mobile Payments SDK (iOS 2.5), so that Square's names
/// (`Square.Money`, `Square.Currency`, `Square.CardBrand`, `Square.PaymentError`…) never collide with Tender's.
///
/// Square publishes no raw values for its enums except `ProcessingMode` (see the reference, §1). The mirrors' `String`
/// raw values are their case names (so they are `Codable` and readable in the simulator's state file), never Square's
/// integers: every mapping goes by case name. Never persist a Square enum's integer.
public enum Square {}

// MARK: - Money

extension Square {
    /// Square's `Currency`: the six currencies the SDK accepts, plus `unknown`.
    public enum Currency: String, Hashable, Sendable, Codable, CaseIterable {
        /// Australian dollar.
        case AUD
        /// Canadian dollar.
        case CAD
        /// Euro.
        case EUR
        /// Pound sterling.
        case GBP
        /// Japanese yen.
        case JPY
        /// United States dollar.
        case USD
        /// A currency the SDK does not know.
        case unknown

        /// The ISO 4217 code (`"USD"`), or `"unknown"`.
        public var currencyCode: String { rawValue }

        /// Square's `init?(_ iso4217:)`: `nil` for a code outside the six.
        public init?(_ iso4217: String) {
            guard let currency = Currency(rawValue: iso4217.uppercased()), currency != .unknown else { return nil }
            self = currency
        }
    }

    /// Square's `Money` (a `MoneyAmount`): an unsigned amount in minor units and a currency.
    public struct Money: Hashable, Sendable, Codable, CustomStringConvertible {
        /// The amount in minor units.
        public var amount: UInt
        /// The currency.
        public var currency: Currency

        /// Square's `Money(amount:currency:)`.
        public init(amount: UInt, currency: Currency) {
            self.amount = amount
            self.currency = currency
        }

        /// "1250 USD" (minor units).
        public var description: String { "\(amount) \(currency.currencyCode)" }
    }
}

// MARK: - Payment parameters

extension Square {
    /// Square's `ProcessingMode`: online, offline, or chosen by the SDK. The only Square enum with published raw
    /// values (`onlineOnly = 0`, `offlineOnly = 1`, `autoDetect = 2`); Tender still maps it by case.
    public enum ProcessingMode: String, Hashable, Sendable, Codable, CaseIterable {
        /// Real-time network payment; the only mode Sandbox supports.
        case onlineOnly
        /// Stored on the device first, uploaded later. Not available in Sandbox.
        case offlineOnly
        /// Online or offline depending on connectivity, when the seller has opted in; otherwise online.
        case autoDetect
    }

    /// Square's `DelayAction`: what Square does to an uncompleted delayed-capture payment when its delay ends.
    public enum DelayAction: String, Hashable, Sendable, Codable, CaseIterable {
        /// Cancel (void) it. The default.
        case cancel
        /// Complete (capture) it.
        case complete
    }

    /// Square's `PromptMode`: whose UI prompts for the card.
    public enum PromptMode: String, Hashable, Sendable, Codable, CaseIterable {
        /// Square's own payment UI.
        case `default`
        /// The app's UI.
        case custom
    }

    /// Square's `AdditionalPaymentMethods` option set.
    public struct AdditionalPaymentMethods: OptionSet, Hashable, Sendable, Codable {
        /// The bits (Tender's own; Square publishes none).
        public let rawValue: Int
        /// Creates a set from bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Keyed card entry.
        public static let keyed = AdditionalPaymentMethods(rawValue: 1 << 0)
        /// Cash.
        public static let cash = AdditionalPaymentMethods(rawValue: 1 << 1)
        /// Tap to Pay on iPhone.
        public static let tapToPay = AdditionalPaymentMethods(rawValue: 1 << 2)
        /// All of them.
        public static let all: AdditionalPaymentMethods = [.keyed, .cash, .tapToPay]
    }

    /// Square's `PromptParameters(mode:additionalMethods:)`.
    public struct PromptParameters: Hashable, Sendable, Codable {
        /// Whose UI prompts.
        public var mode: PromptMode
        /// Payment methods offered besides the reader.
        public var additionalMethods: AdditionalPaymentMethods

        /// Creates prompt parameters.
        public init(mode: PromptMode = .default, additionalMethods: AdditionalPaymentMethods = []) {
            self.mode = mode
            self.additionalMethods = additionalMethods
        }
    }

    /// Square's `PaymentParameters` (2.5): what to charge and how. The SDK's `createdAt` (set by the SDK when the
    /// payment starts) and `cardHandle` are not mirrored: the simulator records its own clock's time.
    public struct PaymentParameters: Hashable, Sendable, Codable {
        /// Your ID for one payment attempt, stable across retries of the same sale (Tender passes the app's
        /// reference). The SDK generates an idempotency key and stores it with this ID.
        public let paymentAttemptID: String
        /// The amount, excluding the tip.
        public var amountMoney: Money
        /// Online, offline or automatic. Required since 2.2.0.
        public var processingMode: ProcessingMode
        /// The tip, added on top of the amount.
        public var tipMoney: Money?
        /// The developer's application fee (at most 90% of the total).
        public var appFeeMoney: Money?
        /// `true`: complete when possible; `false`: hold as approved until completed or canceled on the server.
        public var autocomplete: Bool = true
        /// Seconds after which Square applies ``delayAction`` to an uncompleted payment; 0 means the default
        /// (36 hours card-present). Only with `autocomplete == false`; at least 60 when set.
        public var delayDuration: TimeInterval = 0
        /// What Square does when the delay ends.
        public var delayAction: DelayAction = .cancel
        /// Whether a partial approval (gift cards) is accepted. Not allowed with `autocomplete == true`.
        public var acceptPartialAuthorization: Bool = false
        /// Whether a card surcharge may apply (never offline).
        public var allowCardSurcharge: Bool = true
        /// Your external ID, e.g. an order number (Tender passes the app's reference).
        public var referenceID: String?
        /// A free-text note.
        public var note: String?
        /// An existing Orders API order.
        public var orderID: String?
        /// The customer, for card on file.
        public var customerID: String?
        /// The location; defaults to the authorized one.
        public var locationID: String?
        /// The team member taking the payment.
        public var teamMemberID: String?
        /// Text added to the card statement.
        public var statementDescriptionIdentifier: String?

        /// Square's `PaymentParameters(paymentAttemptID:amountMoney:processingMode:)`.
        public init(paymentAttemptID: String, amountMoney: Money, processingMode: ProcessingMode) {
            self.paymentAttemptID = paymentAttemptID
            self.amountMoney = amountMoney
            self.processingMode = processingMode
        }

        /// The amount plus the tip, when both are in the same currency; otherwise the amount.
        public var totalMoney: Money {
            guard let tipMoney, tipMoney.currency == amountMoney.currency else { return amountMoney }
            let (sum, overflow) = amountMoney.amount.addingReportingOverflow(tipMoney.amount)
            return Money(amount: overflow ? UInt.max : sum, currency: amountMoney.currency)
        }
    }
}

// MARK: - Payments

extension Square {
    /// Square's `PaymentStatus`: the status of an ``OnlinePayment``.
    public enum PaymentStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// Started; nothing done yet.
        case initialized
        /// Pending (added in 2.2.4; used for ACH).
        case pending
        /// Approved, not yet completed (delayed capture).
        case approved
        /// Completed (captured).
        case completed
        /// Canceled (voided).
        case canceled
        /// Failed (for a card, a decline).
        case failed
        /// Could not be verified.
        case unknown
    }

    /// Square's `CardPaymentStatus`: the card part of an online payment.
    public enum CardPaymentStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// Authorized, not yet captured.
        case authorized
        /// Captured.
        case captured
        /// Voided.
        case voided
        /// Failed.
        case failed
        /// Unknown.
        case unknown
    }

    /// Square's `OfflineStatus`: where an ``OfflinePayment`` stands.
    public enum OfflineStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// Held on the device, waiting for upload.
        case queued
        /// Uploaded to Square; "funds are now secured". Not yet processed.
        case uploaded
        /// The upload failed with an unrecoverable error.
        case failedToUpload
        /// Square's processing failed (for example a decline). Cannot be recovered.
        case failedToProcess
        /// Processed; has a Square payment `id`. Removed from the device afterwards.
        case processed
        /// Could not be verified.
        case unknown
    }

    /// Square's `CardEntryMethod`.
    public enum CardEntryMethod: String, Hashable, Sendable, Codable, CaseIterable {
        /// Tapped.
        case contactless
        /// Chip inserted.
        case emv
        /// Typed in.
        case keyed
        /// Card on file.
        case onFile
        /// Magnetic stripe swiped.
        case swiped
        /// Unknown.
        case unknown
    }

    /// Square's `CardBrand` (15 cases).
    public enum CardBrand: String, Hashable, Sendable, Codable, CaseIterable {
        /// American Express.
        case americanExpress
        /// China UnionPay.
        case chinaUnionPay
        /// Discover.
        case discover
        /// Discover Diners.
        case discoverDiners
        /// EBT.
        case ebt
        /// eftpos.
        case eftpos
        /// FeliCa.
        case felica
        /// Interac (always fails offline).
        case interac
        /// JCB.
        case jcb
        /// Mastercard.
        case mastercard
        /// Another brand.
        case otherBrand
        /// Square Capital card.
        case squareCapitalCard
        /// Square Gift Card.
        case squareGiftCard
        /// Unknown.
        case unknown
        /// Visa.
        case visa
    }

    /// Square's `CardCoBrand`.
    public enum CardCoBrand: String, Hashable, Sendable, Codable, CaseIterable {
        /// Afterpay.
        case afterpay
        /// None.
        case none
        /// Unknown.
        case unknown
    }

    /// Square's `SourceType`: what paid.
    public enum SourceType: String, Hashable, Sendable, Codable, CaseIterable {
        /// A bank account.
        case bankAccount
        /// A card.
        case card
        /// Cash.
        case cash
        /// An external tender.
        case external
        /// A Square account balance.
        case squareAccount
        /// A digital wallet.
        case wallet
        /// Unknown.
        case unknown
    }

    /// Square's `Card`, for an online payment. Holds the last four digits only (anything else is dropped): never a
    /// full number.
    public struct Card: Hashable, Sendable, Codable {
        /// Square's card id, if any.
        public var id: String?
        /// The brand.
        public var cardBrand: CardBrand
        /// The co-brand.
        public var coBrand: CardCoBrand
        /// The last four digits.
        public var last4: String?
        /// Expiry month.
        public var expMonth: UInt
        /// Expiry year.
        public var expYear: UInt
        /// The cardholder's name, if read.
        public var cardholderName: String?

        /// Creates a card description.
        public init(id: String? = nil, cardBrand: CardBrand, coBrand: CardCoBrand = .none, last4: String?,
                    expMonth: UInt, expYear: UInt, cardholderName: String? = nil) {
            self.id = id
            self.cardBrand = cardBrand
            self.coBrand = coBrand
            self.last4 = last4.flatMap(Square.lastFour)
            self.expMonth = expMonth
            self.expYear = expYear
            self.cardholderName = cardholderName
        }
    }

    /// Square's `OfflineCard`: what is known of the card of an offline payment (no expiry, no co-brand).
    public struct OfflineCard: Hashable, Sendable, Codable {
        /// Square's card id, if any.
        public var id: String?
        /// The brand.
        public var cardBrand: CardBrand
        /// The last four digits.
        public var last4: String?
        /// The cardholder's name, if read.
        public var cardholderName: String?

        /// Creates an offline card description.
        public init(id: String? = nil, cardBrand: CardBrand, last4: String?, cardholderName: String? = nil) {
            self.id = id
            self.cardBrand = cardBrand
            self.last4 = last4.flatMap(Square.lastFour)
            self.cardholderName = cardholderName
        }
    }

    /// Square's `CardPaymentDetails` (online).
    public struct CardPaymentDetails: Hashable, Sendable, Codable {
        /// The card part's status.
        public var status: CardPaymentStatus
        /// How the card was read.
        public var entryMethod: CardEntryMethod
        /// The card.
        public var card: Card?
        /// The authorization code.
        public var authResultCode: String?
        /// The EMV application identifier.
        public var applicationIdentifier: String?
        /// The EMV application name.
        public var applicationName: String?

        /// Creates card payment details.
        public init(status: CardPaymentStatus, entryMethod: CardEntryMethod, card: Card?,
                    authResultCode: String? = nil, applicationIdentifier: String? = nil,
                    applicationName: String? = nil) {
            self.status = status
            self.entryMethod = entryMethod
            self.card = card
            self.authResultCode = authResultCode
            self.applicationIdentifier = applicationIdentifier
            self.applicationName = applicationName
        }
    }

    /// Square's `OfflineCardPaymentDetails`: no status and no authorization code.
    public struct OfflineCardPaymentDetails: Hashable, Sendable, Codable {
        /// How the card was read.
        public var entryMethod: CardEntryMethod
        /// The card.
        public var card: OfflineCard?
        /// The EMV application identifier.
        public var applicationIdentifier: String?
        /// The EMV application name.
        public var applicationName: String?

        /// Creates offline card payment details.
        public init(entryMethod: CardEntryMethod, card: OfflineCard?, applicationIdentifier: String? = nil,
                    applicationName: String? = nil) {
            self.entryMethod = entryMethod
            self.card = card
            self.applicationIdentifier = applicationIdentifier
            self.applicationName = applicationName
        }
    }

    /// Square's `OnlinePayment`.
    public struct OnlinePayment: Hashable, Sendable, Codable {
        /// The Square payment id.
        public var id: String?
        /// The status.
        public var status: PaymentStatus
        /// The amount, excluding the tip.
        public var amountMoney: Money
        /// The tip.
        public var tipMoney: Money?
        /// When it was created.
        public var createdAt: Date
        /// When it last changed.
        public var updatedAt: Date
        /// The location.
        public var locationID: String?
        /// The order.
        public var orderID: String?
        /// Your external ID.
        public var referenceID: String?
        /// What paid.
        public var sourceType: SourceType
        /// The card details (card payments only).
        public var cardDetails: CardPaymentDetails?
        /// The note.
        public var note: String?

        /// Creates an online payment.
        public init(id: String?, status: PaymentStatus, amountMoney: Money, tipMoney: Money? = nil, createdAt: Date,
                    updatedAt: Date, locationID: String?, orderID: String? = nil, referenceID: String?,
                    sourceType: SourceType = .card, cardDetails: CardPaymentDetails?, note: String? = nil) {
            self.id = id
            self.status = status
            self.amountMoney = amountMoney
            self.tipMoney = tipMoney
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.locationID = locationID
            self.orderID = orderID
            self.referenceID = referenceID
            self.sourceType = sourceType
            self.cardDetails = cardDetails
            self.note = note
        }
    }

    /// Square's `OfflinePayment`: a payment taken offline, known on the device by ``localID`` until Square
    /// processes it and gives it an ``id``.
    public struct OfflinePayment: Hashable, Sendable, Codable {
        /// The device-local id (a random UUID made on the device; "not from v2/payments").
        public var localID: String
        /// The Square payment id, `nil` until processed.
        public var id: String?
        /// Where it stands.
        public var status: OfflineStatus
        /// The amount, excluding the tip.
        public var amountMoney: Money
        /// The tip.
        public var tipMoney: Money?
        /// When the card was taken.
        public var createdAt: Date
        /// When it last changed.
        public var updatedAt: Date
        /// When it was uploaded.
        public var uploadedAt: Date?
        /// The location.
        public var locationID: String?
        /// Your external ID.
        public var referenceID: String?
        /// The card details, if the card was accepted.
        public var cardDetails: OfflineCardPaymentDetails?

        /// Creates an offline payment.
        public init(localID: String, id: String? = nil, status: OfflineStatus, amountMoney: Money,
                    tipMoney: Money? = nil, createdAt: Date, updatedAt: Date, uploadedAt: Date? = nil,
                    locationID: String?, referenceID: String?, cardDetails: OfflineCardPaymentDetails?) {
            self.localID = localID
            self.id = id
            self.status = status
            self.amountMoney = amountMoney
            self.tipMoney = tipMoney
            self.createdAt = createdAt
            self.updatedAt = updatedAt
            self.uploadedAt = uploadedAt
            self.locationID = locationID
            self.referenceID = referenceID
            self.cardDetails = cardDetails
        }

        /// The amount plus the tip.
        public var totalMoney: Money {
            Money(amount: amountMoney.amount + (tipMoney?.amount ?? 0), currency: amountMoney.currency)
        }
    }

    /// A payment as the delegate receives it: Square passes a `Payment` to cast to ``OnlinePayment`` or
    /// ``OfflinePayment``; here the cast is an enum.
    public enum Payment: Hashable, Sendable, Codable {
        /// An online payment.
        case online(OnlinePayment)
        /// An offline payment.
        case offline(OfflinePayment)

        /// The Square payment id, if any.
        public var id: String? {
            switch self {
            case .online(let payment): payment.id
            case .offline(let payment): payment.id
            }
        }

        /// Your external ID.
        public var referenceID: String? {
            switch self {
            case .online(let payment): payment.referenceID
            case .offline(let payment): payment.referenceID
            }
        }
    }

    /// Square's `CardInputMethods` option set: how a card can be read now (fewer methods offline).
    public struct CardInputMethods: OptionSet, Hashable, Sendable, Codable {
        /// The bits (Tender's own; Square publishes none).
        public let rawValue: Int
        /// Creates a set from bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Insert (dip).
        public static let chip = CardInputMethods(rawValue: 1 << 0)
        /// Tap.
        public static let contactless = CardInputMethods(rawValue: 1 << 1)
        /// Swipe.
        public static let swipe = CardInputMethods(rawValue: 1 << 2)
    }
}

// MARK: - Settings and authorization

extension Square {
    /// Square's `PaymentSettings` for the authorized seller.
    public struct PaymentSettings: Hashable, Sendable, Codable {
        /// Whether the seller has opted in to offline payments.
        public var isOfflineProcessingAllowed: Bool
        /// The largest single offline payment; `nil` when offline is not allowed.
        public var offlineTransactionAmountLimit: Money?
        /// The largest total of offline payments stored on this device; `nil` when offline is not allowed.
        public var offlineTotalStoredAmountLimit: Money?

        /// Creates settings.
        public init(isOfflineProcessingAllowed: Bool, offlineTransactionAmountLimit: Money?,
                    offlineTotalStoredAmountLimit: Money?) {
            self.isOfflineProcessingAllowed = isOfflineProcessingAllowed
            self.offlineTransactionAmountLimit = offlineTransactionAmountLimit
            self.offlineTotalStoredAmountLimit = offlineTotalStoredAmountLimit
        }

        /// A seller who has not opted in.
        public static let notOptedIn = PaymentSettings(isOfflineProcessingAllowed: false,
                                                       offlineTransactionAmountLimit: nil,
                                                       offlineTotalStoredAmountLimit: nil)
    }

    /// Square's `Environment`, derived from the application ID.
    public enum Environment: String, Hashable, Sendable, Codable, CaseIterable {
        /// Production.
        case production
        /// Sandbox: no offline payments, mock readers only.
        case sandbox
    }

    /// Square's `AuthorizationState`.
    public enum AuthorizationState: String, Hashable, Sendable, Codable, CaseIterable {
        /// Authorized with a seller and location.
        case authorized
        /// Authorization in progress.
        case authorizing
        /// Not authorized.
        case notAuthorized
    }

    /// Square's `Location` (`AuthorizationManager.location`).
    public struct Location: Hashable, Sendable, Codable {
        /// The location id.
        public var id: String
        /// The name.
        public var name: String
        /// The merchant category code.
        public var mcc: String
        /// The location's currency.
        public var currency: Currency

        /// Creates a location.
        public init(id: String, name: String, mcc: String = "5814", currency: Currency) {
            self.id = id
            self.name = name
            self.mcc = mcc
            self.currency = currency
        }
    }
}

// MARK: - Errors

extension Square {
    /// Square's `PaymentError`: the 16 cases of 2.5 and the 3 historical ones (19 codes across 2.0–2.5).
    public enum PaymentError: String, Error, Hashable, Sendable, Codable, CaseIterable {
        /// The device clock is out of sync with the server.
        case deviceTimeDoesNotMatchServerTime
        /// The `PaymentParameters` were invalid.
        case invalidPaymentParameters
        /// The payment source did not match the given payment method.
        case invalidPaymentSource
        /// The app lacks location permission.
        case locationPermissionNeeded
        /// The seller is not opted in to offline payments.
        case merchantNotOptedIntoOfflineProcessing
        /// No network.
        case noNetwork
        /// The SDK is not authorized.
        case notAuthorized
        /// The device's stored offline total would be exceeded.
        case offlineStoredAmountExceeded
        /// The payment is over the per-transaction offline limit.
        case offlineTransactionAmountExceeded
        /// Another payment is in progress.
        case paymentAlreadyInProgress
        /// The payment attempt ID was used before.
        case paymentAttemptIdReused
        /// An offline payment while authorized with a Sandbox account.
        case sandboxUnsupportedForOfflineProcessing
        /// The SDK timed out awaiting a payment.
        case timedOut
        /// Tracking consent is pending.
        case trackingConsentIsPending
        /// `startPayment` was used in an unexpected way.
        case unexpected
        /// The user entered an unsupported mode (split screen) mid-payment.
        case unsupportedMode
        /// Historical (≤ 2.3.1): the idempotency key was already used.
        case idempotencyKeyReused
        /// Historical (2.2.0–2.3.0): no network and not opted in to offline.
        case noNetworkAndMerchantNotOptedIntoOfflineProcessing
        /// Historical (2.3.0–2.3.1): a paymentAttemptId is required in this market.
        case paymentAttemptIdRequiredForSCA
    }

    /// Square's `AuthorizationError` (15 cases).
    public enum AuthorizationError: String, Error, Hashable, Sendable, Codable, CaseIterable {
        /// Already authorized.
        case alreadyAuthorized
        /// An authorization is running.
        case alreadyInProgress
        /// The authorization code was already used.
        case authorizationCodeAlreadyRedeemed
        /// A deauthorization is running.
        case deauthorizationInProgress
        /// The device clock is out of sync.
        case deviceTimeDoesNotMatchServerTime
        /// No access token.
        case emptyAccessToken
        /// No location ID.
        case emptyLocationID
        /// The authorization code expired.
        case expiredAuthorizationCode
        /// The access token is invalid.
        case invalidAccessToken
        /// The authorization code is invalid.
        case invalidAuthorizationCode
        /// The location ID is invalid.
        case invalidLocationID
        /// The location cannot process cards.
        case locationNotActivatedForCardProcessing
        /// No network.
        case noNetwork
        /// Unexpected.
        case unexpected
        /// The seller's country is not supported.
        case unsupportedCountry
    }

    /// Square's `OfflinePaymentQueueError` (3 cases).
    public enum OfflinePaymentQueueError: String, Error, Hashable, Sendable, Codable, CaseIterable {
        /// Not authorized.
        case notAuthorized
        /// Unexpected.
        case unexpected
        /// Offline used while authorized with Sandbox.
        case unsupportedSandboxEnvironment
    }

    /// Square's `ReaderPairingError` (17 cases), delivered by `readerPairingDidFail(with:)`.
    public enum ReaderPairingError: String, Error, Hashable, Sendable, Codable, CaseIterable {
        /// Bluetooth is off.
        case bluetoothDisabled
        /// Bluetooth is not ready.
        case bluetoothNotReady
        /// Bluetooth is not supported.
        case bluetoothNotSupported
        /// Bluetooth permission denied.
        case bluetoothPermissionDenied
        /// Bluetooth permission not determined.
        case bluetoothPermissionNotDetermined
        /// Bluetooth permission restricted.
        case bluetoothPermissionRestricted
        /// An unknown Bluetooth permission case.
        case bluetoothPermissionUnknownCase
        /// Bluetooth is resetting.
        case bluetoothResetting
        /// An unknown Bluetooth error.
        case bluetoothUnknownError
        /// The bond was removed; forget the reader in iOS settings.
        case bondingRemoved
        /// The reader failed to connect.
        case failedToConnect
        /// Not authorized.
        case notAuthorized
        /// Pairing is already running.
        case readerAlreadyPairing
        /// Bluetooth pairing is not possible in Sandbox.
        case sandboxNotSupported
        /// Pairing is not possible in the iOS simulator.
        case simulatorNotSupported
        /// Pairing timed out (after one minute).
        case timedOut
        /// The SDK is too old for this reader.
        case updateRequired
    }
}

// MARK: - Readers

extension Square {
    /// Square's `ReaderStatus` (2.3.0+).
    public enum ReaderStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// Connecting to the device.
        case connectingToDevice
        /// Establishing the secure connection to Square.
        case connectingToSquare
        /// Unavailable; see ``ReaderStatusInfo/unavailableReasonInfo``.
        case readerUnavailable
        /// Unrecoverable; the reader may need replacing.
        case faulty
        /// Ready to take payments.
        case ready
    }

    /// Square's `ReaderUnavailableReason` (12 cases).
    public enum ReaderUnavailableReason: String, Hashable, Sendable, Codable, CaseIterable {
        /// A blocking firmware update is being applied.
        case blockingFirmwareUpdate
        /// Bluetooth is off on the device.
        case bluetoothDisabled
        /// A Bluetooth error while connecting.
        case bluetoothFailure
        /// An internal SDK or device error.
        case internalError
        /// The maximum number of readers is connected.
        case maxReadersConnected
        /// The device is offline.
        case notConnectedToInternet
        /// The reader did not connect in time.
        case readerTimeout
        /// The device revoked access.
        case revokedByDevice
        /// The secure connection failed because of the network.
        case secureConnectionNetworkFailure
        /// The secure connection to Square failed.
        case secureConnectionToSquareFailure
        /// Tap to Pay failed.
        case tapToPayError
        /// Tap to Pay is not linked to the merchant.
        case tapToPayIsNotLinked
    }

    /// Square's `ReaderUnavailableReasonInfo`.
    public struct ReaderUnavailableReasonInfo: Hashable, Sendable, Codable {
        /// The reason.
        public var reason: ReaderUnavailableReason
        /// A short, non-localized title.
        public var title: String
        /// A non-localized detail.
        public var detail: String

        /// Creates reason info.
        public init(reason: ReaderUnavailableReason, title: String? = nil, detail: String = "") {
            self.reason = reason
            self.title = title ?? reason.rawValue
            self.detail = detail
        }
    }

    /// Square's `ReaderStatusInfo`.
    public struct ReaderStatusInfo: Hashable, Sendable, Codable {
        /// The status.
        public var status: ReaderStatus
        /// Why it is unavailable; non-nil only when ``status`` is `readerUnavailable`.
        public var unavailableReasonInfo: ReaderUnavailableReasonInfo?

        /// Creates status info; the reason is dropped unless the status is `readerUnavailable`.
        public init(status: ReaderStatus, unavailableReason: ReaderUnavailableReason? = nil) {
            self.status = status
            self.unavailableReasonInfo = status == .readerUnavailable
                ? unavailableReason.map { ReaderUnavailableReasonInfo(reason: $0) } : nil
        }

        /// Ready to take payments.
        public static let ready = ReaderStatusInfo(status: .ready)
    }

    /// Square's `ReaderModel`.
    public enum ReaderModel: String, Hashable, Sendable, Codable, CaseIterable {
        /// Square Reader (contactless and chip).
        case contactlessAndChip
        /// Square Reader for magstripe.
        case magstripe
        /// Square Stand.
        case stand
        /// Tap to Pay on iPhone (`embedded` before 2.1.0).
        case tapToPay
        /// Unknown.
        case unknown
    }

    /// Square's `ReaderChange` (2.5), delivered by `ReaderObserver.readerDidChange(_:change:)`.
    public enum ReaderChange: String, Hashable, Sendable, Codable, CaseIterable {
        /// Charging started.
        case batteryDidBeginCharging
        /// Charging stopped.
        case batteryDidEndCharging
        /// The battery level changed.
        case batteryLevelDidChange
        /// A card was inserted.
        case cardInserted
        /// A card was removed.
        case cardRemoved
        /// A blocking firmware update failed.
        case firmwareUpdateDidFail
        /// The firmware update percentage changed.
        case firmwareUpdatePercentDidChange
        /// The firmware update status changed (e.g. none → pending).
        case firmwareUpdateStatusDidChange
        /// The scheduled firmware update time changed.
        case firmwareUpdateTimeDidChange
        /// ``ReaderInfo/statusInfo`` changed.
        case readerStatusDidChange
    }

    /// Square's `FirmwareUpdateStatus`.
    public enum FirmwareUpdateStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// No update.
        case none
        /// An update is pending.
        case pending
        /// Installing.
        case inProgress
        /// The update failed.
        case failed
    }

    /// Square's `FirmwareInfo`.
    public struct FirmwareInfo: Hashable, Sendable, Codable {
        /// The installed version.
        public var version: String
        /// Update progress, 0...100.
        public var updatePercentage: Int
        /// The update status.
        public var updateStatus: FirmwareUpdateStatus

        /// Creates firmware info.
        public init(version: String, updatePercentage: Int = 0, updateStatus: FirmwareUpdateStatus = .none) {
            self.version = version
            self.updatePercentage = updatePercentage
            self.updateStatus = updateStatus
        }
    }

    /// Square's `ReaderBatteryLevel`.
    public enum ReaderBatteryLevel: String, Hashable, Sendable, Codable, CaseIterable {
        /// Critically low.
        case criticallyLow
        /// Low.
        case low
        /// Middle.
        case mid
        /// High.
        case high
        /// Full.
        case full
    }

    /// Square's `BatteryStatus`.
    public struct BatteryStatus: Hashable, Sendable, Codable {
        /// Whether it is charging.
        public var isCharging: Bool
        /// The coarse level.
        public var level: ReaderBatteryLevel
        /// The percentage, 0...100.
        public var percentage: Int

        /// Creates a battery status; the coarse level is derived from the percentage.
        public init(isCharging: Bool, percentage: Int) {
            self.isCharging = isCharging
            self.percentage = min(100, max(0, percentage))
            switch self.percentage {
            case ..<5: level = .criticallyLow
            case ..<20: level = .low
            case ..<60: level = .mid
            case ..<95: level = .high
            default: level = .full
            }
        }
    }

    /// Square's `ReaderConnectionType`.
    public enum ReaderConnectionType: String, Hashable, Sendable, Codable, CaseIterable {
        /// Audio jack.
        case audio
        /// Bluetooth.
        case bluetooth
        /// Built in (Tap to Pay).
        case embedded
        /// USB.
        case usb
        /// Unknown.
        case unknown
    }

    /// Square's `CardInsertionStatus`.
    public enum CardInsertionStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// A card is inserted.
        case inserted
        /// No card is inserted.
        case notInserted
        /// Unknown (the default for magstripe).
        case unknown
    }

    /// Square's `RetryConnectionResult`.
    public enum RetryConnectionResult: String, Hashable, Sendable, Codable, CaseIterable {
        /// Reconnection started.
        case startingReconnection
        /// Already connecting to Square.
        case readerAlreadyConnectingToSquare
        /// No such reader.
        case readerNotFound
        /// Retrying is not possible.
        case unableToRetry
    }

    /// Square's `ReaderInfo`.
    public struct ReaderInfo: Hashable, Sendable, Codable, Identifiable {
        /// The reader id.
        public var id: UInt
        /// The name.
        public var name: String
        /// The serial number.
        public var serialNumber: String?
        /// The model.
        public var model: ReaderModel
        /// How it can read cards.
        public var supportedInputMethods: CardInputMethods
        /// The firmware.
        public var firmwareInfo: FirmwareInfo?
        /// The status.
        public var statusInfo: ReaderStatusInfo
        /// The battery.
        public var batteryStatus: BatteryStatus?
        /// Whether a card is inserted.
        public var cardInsertionStatus: CardInsertionStatus
        /// The connection type.
        public var connectionType: ReaderConnectionType
        /// Whether ``ReaderManager/retryConnection(_:)`` may help.
        public var isConnectionRetryable: Bool

        /// Creates reader info.
        public init(id: UInt, name: String, serialNumber: String?, model: ReaderModel,
                    supportedInputMethods: CardInputMethods, firmwareInfo: FirmwareInfo?,
                    statusInfo: ReaderStatusInfo, batteryStatus: BatteryStatus?,
                    cardInsertionStatus: CardInsertionStatus = .notInserted,
                    connectionType: ReaderConnectionType = .bluetooth, isConnectionRetryable: Bool = true) {
            self.id = id
            self.name = name
            self.serialNumber = serialNumber
            self.model = model
            self.supportedInputMethods = supportedInputMethods
            self.firmwareInfo = firmwareInfo
            self.statusInfo = statusInfo
            self.batteryStatus = batteryStatus
            self.cardInsertionStatus = cardInsertionStatus
            self.connectionType = connectionType
            self.isConnectionRetryable = isConnectionRetryable
        }
    }
}

extension Square {
    /// `value` if it is exactly four ASCII digits, otherwise `nil`: no mirrored type can carry a full card number
    /// by mistake.
    package static func lastFour(_ value: String) -> String? {
        value.count == 4 && value.allSatisfy { $0.isASCII && $0.isNumber } ? value : nil
    }
}

extension CaseIterable where Self: RawRepresentable, Self.RawValue == String {
    /// The Swift case name, which is what every Square mapping goes by (Square publishes no raw values).
    package var caseName: String { rawValue }
}
