import Foundation
import Tender

/// The Stripe Terminal iOS SDK (5.5) as the adapter uses it: every type here mirrors one of the SDK's, under the
/// SDK's own name, inside this namespace so that names such as `Stripe.CardBrand` never collide with Tender's.
///
/// The enums carry no integer raw values: Stripe's drift between releases (`CardBrand.unknown` was 9, now 11), so
/// they are `String`-backed by case name, safe to persist, and mapped to Tender by `switch`.
public enum Stripe {}

// MARK: - Enums

extension Stripe {
    /// `SCPPaymentIntentStatus`.
    public enum PaymentIntentStatus: String, Hashable, Sendable, Codable, CaseIterable {
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
        /// The authorization expired (5.4.0).
        case requiresReauthorization
    }

    /// `SCPOfflineBehavior` ⚑, set on a ``CreateConfiguration``.
    public enum OfflineBehavior: String, Hashable, Sendable, Codable, CaseIterable {
        /// Online if connectivity exists, otherwise offline. The SDK's default.
        case preferOnline
        /// Only with connectivity; since 3.6 always attempts online first.
        case requireOnline
        /// Always offline.
        case forceOffline
    }

    /// `SCPNetworkStatus` ⚑: the SDK's connection to stripe.com.
    public enum NetworkStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// The initial value.
        case unknown
        /// stripe.com cannot be reached.
        case offline
        /// stripe.com can be reached.
        case online
    }

    /// `SCPConnectionStatus`.
    public enum ConnectionStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// No reader connected.
        case notConnected
        /// Discovering readers (4.0).
        case discovering
        /// Connecting (also while a required update installs).
        case connecting
        /// Connected.
        case connected
        /// Reconnecting automatically after an unexpected disconnect (5.0).
        case reconnecting
    }

    /// `SCPPaymentStatus`.
    public enum PaymentStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// Busy, or no reader.
        case notReady
        /// Ready for a payment.
        case ready
        /// Waiting for the customer's card.
        case waitingForInput
        /// Processing a payment.
        case processing
    }

    /// `SCPCaptureMethod`. `PaymentIntentParameters` defaults to ``manual``.
    public enum CaptureMethod: String, Hashable, Sendable, Codable, CaseIterable {
        /// Capture later, on the backend.
        case manual
        /// Captured on confirmation.
        case automatic
    }

    /// `SCPReaderDisplayMessage`.
    public enum ReaderDisplayMessage: String, Hashable, Sendable, Codable, CaseIterable {
        /// Retry the card.
        case retryCard
        /// Insert the card.
        case insertCard
        /// Insert or swipe the card.
        case insertOrSwipeCard
        /// Swipe the card.
        case swipeCard
        /// Remove the card.
        case removeCard
        /// More than one contactless card.
        case multipleContactlessCardsDetected
        /// Try another read method.
        case tryAnotherReadMethod
        /// Try another card (unsupported cards report this since 3.6).
        case tryAnotherCard
        /// The card was removed too early.
        case cardRemovedTooEarly
    }

    /// `SCPReaderInputOptions` (an `NS_OPTIONS` set). The bits are this type's own, not Stripe's.
    public struct ReaderInputOptions: OptionSet, Hashable, Sendable, Codable {
        /// The bits.
        public let rawValue: Int
        /// Creates options from bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// `SCPReaderInputOptionSwipeCard`.
        public static let swipeCard = ReaderInputOptions(rawValue: 1 << 0)
        /// `SCPReaderInputOptionInsertCard`.
        public static let insertCard = ReaderInputOptions(rawValue: 1 << 1)
        /// `SCPReaderInputOptionTapCard`.
        public static let tapCard = ReaderInputOptions(rawValue: 1 << 2)
    }

    /// `SCPReaderEvent`.
    public enum ReaderEvent: String, Hashable, Sendable, Codable, CaseIterable {
        /// A card was inserted.
        case cardInserted
        /// The card was removed.
        case cardRemoved
    }

    /// `SCPDisconnectReason`.
    public enum DisconnectReason: String, Hashable, Sendable, Codable, CaseIterable {
        /// Unexpected.
        case unknown
        /// The app asked (`disconnectReader`).
        case disconnectRequested
        /// The app asked for a reboot (`rebootReader`).
        case rebootRequested
        /// The reader rebooted after 24 h uptime.
        case securityReboot
        /// The battery is critically low.
        case criticallyLowBattery
        /// The reader was powered off.
        case poweredOff
        /// Bluetooth was disabled on the device.
        case bluetoothDisabled
        /// Powered down after 10 h idle, not charging.
        case idlePowerDown
        /// The USB cable was disconnected.
        case usbDisconnected
        /// The Bluetooth signal was lost.
        case bluetoothSignalLost
        /// The reader removed this device's pairing.
        case peerRemovedPairingInformation
    }

    /// `SCPCardBrand`.
    public enum CardBrand: String, Hashable, Sendable, Codable, CaseIterable {
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
    public enum ReadMethod: String, Hashable, Sendable, Codable, CaseIterable {
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

        /// Whether the card data came from a magnetic stripe swipe, which Stripe refuses offline (`cardSwipeNotAvailable`).
        public var isSwipe: Bool { self == .magneticStripeFallback || self == .magneticStripeTrack2 }
    }

    /// `SCPDeviceType` (5.5), with the reference's spellings (Swift names not checked against a `.swiftinterface`).
    public enum DeviceType: String, Hashable, Sendable, Codable, CaseIterable {
        /// `chipper2X`.
        case chipper2X
        /// `wisePad3`.
        case wisePad3
        /// `stripeM2`.
        case stripeM2
        /// `stripeU200`.
        case stripeU200
        /// `wisePosE`.
        case wisePosE
        /// `wisePosEDevKit`.
        case wisePosEDevKit
        /// `etna`.
        case etna
        /// `chipper1X`.
        case chipper1X
        /// `wiseCube`.
        case wiseCube
        /// `stripeS700`.
        case stripeS700
        /// `S700DevKit`.
        case S700DevKit
        /// `stripeS710`.
        case stripeS710
        /// `S710DevKit`.
        case S710DevKit
        /// `verifoneV660p`.
        case verifoneV660p
        /// `V660pDevKit`.
        case V660pDevKit
        /// `verifoneM425`.
        case verifoneM425
        /// `M450`.
        case M450
        /// `P630`.
        case P630
        /// `UX700`.
        case UX700
        /// `UX700DevKit`.
        case UX700DevKit
        /// `VM100`.
        case VM100
        /// `VP100`.
        case VP100
        /// `VL110`.
        case VL110
        /// `VM110`.
        case VM110
        /// `VP110`.
        case VP110
        /// `tapToPay`.
        case tapToPay
        /// `stripeT600`.
        case stripeT600
        /// `T600DevKit`.
        case T600DevKit
        /// `stripeT610`.
        case stripeT610
        /// `T610DevKit`.
        case T610DevKit

        /// Bluetooth mobile readers (found by a Bluetooth scan; the POS device stores and forwards offline payments).
        public var isMobileReader: Bool {
            switch self {
            case .chipper2X, .wisePad3, .stripeM2, .chipper1X, .wiseCube, .etna: true
            default: false
            }
        }
    }

    /// `SCPDiscoveryMethod`.
    public enum DiscoveryMethod: String, Hashable, Sendable, Codable, CaseIterable {
        /// All nearby Bluetooth readers, optionally for a limited time.
        case bluetoothScan
        /// The closest Bluetooth reader (Chipper 2X BT only); reported twice, serial number first.
        case bluetoothProximity
        /// Internet (smart) readers.
        case internet
        /// Tap to Pay on iPhone.
        case tapToPay
    }

    /// `SCPBatteryStatus`.
    public enum BatteryStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// Unknown.
        case unknown
        /// At most 5 %.
        case critical
        /// Low.
        case low
        /// Above 20 %.
        case nominal
    }

    /// `SCPChargeStatus`.
    public enum ChargeStatus: String, Hashable, Sendable, Codable, CaseIterable {
        /// Authorized (and captured or capturable).
        case succeeded
        /// Pending.
        case pending
        /// Failed (declined).
        case failed
    }

    /// `UpdateTimeEstimate` (ObjC `SCPUpdateDurationEstimate`).
    public enum UpdateTimeEstimate: String, Hashable, Sendable, Codable, CaseIterable {
        /// Less than a minute.
        case lessThan1Minute
        /// One to two minutes.
        case estimate1To2Minutes
        /// Two to five minutes.
        case estimate2To5Minutes
        /// Five to fifteen minutes.
        case estimate5To15Minutes
    }

    /// `SCPSimulatedCardType`: the simulator's test cards.
    public enum SimulatedCardType: String, Hashable, Sendable, Codable, CaseIterable {
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
        /// Interac (not accepted offline).
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

    /// `SCPSimulatedOfflineMode` ⚑ (5.5 preview): how the simulated network behaves.
    public enum SimulatedOfflineMode: String, Hashable, Sendable, Codable, CaseIterable {
        /// The network works.
        case disabled
        /// Every request fails at once.
        case offlineImmediate
        /// Requests hang until the timeout (15 s in the SDK), then fail.
        case offlineTimeout
        /// About 50 % of requests fail.
        case offlineIntermittent
    }

    /// `SCPTestReaderUpdateType` (5.5) plus `none`: the software update the simulated reader offers.
    public enum TestReaderUpdate: String, Hashable, Sendable, Codable, CaseIterable {
        /// No update.
        case none
        /// An optional update; becomes required 7 days after it is reported.
        case available
        /// A required update; installs on connect.
        case required
        /// ⚑ An update required for offline use: an offline connect fails, an online connect installs it.
        case requiredOffline
        /// A required update with the battery too low: the update fails and so does the Bluetooth connect.
        case lowBattery
        /// A required update with the battery too low: the update fails but the connect succeeds.
        case lowBatterySucceedConnect
    }
}

// MARK: - Errors

extension Stripe {
    /// An error in Stripe's `ErrorDomain` (`com.stripe-terminal`), Swift `ErrorCode`, with the user-info keys the
    /// adapter reads. When it comes from `confirmPaymentIntent` it is the SDK's `ConfirmPaymentIntentError`:
    /// ``paymentIntent`` is the updated intent, or `nil` when the outcome is unknown.
    public struct ErrorCode: Error, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The case: its Swift name and numeric code.
        public struct Code: Hashable, Sendable, Codable, CustomStringConvertible {
            /// The Swift case name, e.g. `"declinedByStripeAPI"`. Lookups go by this name.
            public var name: String
            /// The numeric code, e.g. 6000 (informational).
            public var numericCode: Int?

            /// A code the table knows, by name; its numeric code comes from ``Stripe/errorTable``.
            public init(_ name: String) {
                self.name = name
                self.numericCode = Stripe.errorTable.mapping(named: name)?.numericCode
            }

            /// Any code, including ones a future SDK adds.
            public init(name: String, numericCode: Int?) {
                self.name = name
                self.numericCode = numericCode
            }

            /// `declinedByStripeAPI (6000)`.
            public var description: String { numericCode.map { "\(name) (\($0))" } ?? name }
        }

        /// The case.
        public var code: Code
        /// `SCPErrorKeyMessage`.
        public var message: String
        /// `SCPErrorKeyStripeAPIDeclineCode`, or the confirm error's `declineCode`.
        public var declineCode: String?
        /// ⚑ `SCPErrorKeyOfflineDeclineReason`.
        public var offlineDeclineReason: String?
        /// `ConfirmPaymentIntentError.paymentIntent`: the updated intent, `nil` when the request timed out and the
        /// status is unknown.
        public var paymentIntent: PaymentIntent?

        /// Creates an error.
        public init(_ code: Code, message: String, declineCode: String? = nil, offlineDeclineReason: String? = nil,
                    paymentIntent: PaymentIntent? = nil) {
            self.code = code
            self.message = message
            self.declineCode = declineCode
            self.offlineDeclineReason = offlineDeclineReason
            self.paymentIntent = paymentIntent
        }

        /// `declinedByStripeAPI (6000): message`.
        public var description: String { "\(code): \(message)" }
    }
}

extension Stripe.ErrorCode.Code {
    /// 1010.
    public static let cancelFailedAlreadyCompleted = Self("cancelFailedAlreadyCompleted")
    /// 1100.
    public static let notConnectedToReader = Self("notConnectedToReader")
    /// 1110.
    public static let alreadyConnectedToReader = Self("alreadyConnectedToReader")
    /// 1510.
    public static let connectionTokenProviderCompletedWithNothing = Self("connectionTokenProviderCompletedWithNothing")
    /// 1511 ⚑.
    public static let connectionTokenProviderCompletedWithNothingWhileForwarding =
        Self("connectionTokenProviderCompletedWithNothingWhileForwarding")
    /// 1530.
    public static let confirmInvalidPaymentIntent = Self("confirmInvalidPaymentIntent")
    /// 1560.
    public static let invalidClientSecret = Self("invalidClientSecret")
    /// 1591.
    public static let invalidConnectionConfiguration = Self("invalidConnectionConfiguration")
    /// 1910.
    public static let bluetoothConnectionInvalidLocationIdParameter =
        Self("bluetoothConnectionInvalidLocationIdParameter")
    /// 2020.
    public static let canceled = Self("canceled")
    /// 2330.
    public static let bluetoothScanTimedOut = Self("bluetoothScanTimedOut")
    /// 2650.
    public static let readerSoftwareUpdateFailedBatteryLow = Self("readerSoftwareUpdateFailedBatteryLow")
    /// 2830.
    public static let cardReadTimedOut = Self("cardReadTimedOut")
    /// 2860 ⚑.
    public static let offlinePaymentsDatabaseTooLarge = Self("offlinePaymentsDatabaseTooLarge")
    /// 2870 ⚑.
    public static let readerConnectionNotAvailableOffline = Self("readerConnectionNotAvailableOffline")
    /// 2871 ⚑.
    public static let readerConnectionOfflineLocationMismatch = Self("readerConnectionOfflineLocationMismatch")
    /// 2872 ⚑.
    public static let readerConnectionOfflineNeedsUpdate = Self("readerConnectionOfflineNeedsUpdate")
    /// 2890 ⚑.
    public static let amountExceedsMaxOfflineAmount = Self("amountExceedsMaxOfflineAmount")
    /// 2891 ⚑.
    public static let invalidOfflineCurrency = Self("invalidOfflineCurrency")
    /// 3010.
    public static let readerBusy = Self("readerBusy")
    /// 3230.
    public static let bluetoothDisconnected = Self("bluetoothDisconnected")
    /// 3850.
    public static let unsupportedReaderVersion = Self("unsupportedReaderVersion")
    /// 5008.
    public static let unexpectedOperationError = Self("unexpectedOperationError")
    /// 6000.
    public static let declinedByStripeAPI = Self("declinedByStripeAPI")
    /// 6900 ⚑.
    public static let cardSwipeNotAvailable = Self("cardSwipeNotAvailable")
    /// 6901 ⚑.
    public static let interacNotSupportedOffline = Self("interacNotSupportedOffline")
    /// 6905 ⚑.
    public static let onlinePinNotSupportedOffline = Self("onlinePinNotSupportedOffline")
    /// 9000.
    public static let notConnectedToInternet = Self("notConnectedToInternet")
    /// 9010.
    public static let requestTimedOut = Self("requestTimedOut")
    /// 9040.
    public static let internalNetworkError = Self("internalNetworkError")
    /// 9050.
    public static let connectionTokenProviderCompletedWithError = Self("connectionTokenProviderCompletedWithError")
    /// 9051 ⚑.
    public static let connectionTokenProviderCompletedWithErrorWhileForwarding =
        Self("connectionTokenProviderCompletedWithErrorWhileForwarding")
    /// 10106 ⚑.
    public static let notConnectedToInternetAndOfflineBehaviorRequireOnline =
        Self("notConnectedToInternetAndOfflineBehaviorRequireOnline")
    /// 10107 ⚑.
    public static let offlineBehaviorForceOfflineWithFeatureDisabled =
        Self("offlineBehaviorForceOfflineWithFeatureDisabled")
}

// MARK: - Payment intents

extension Stripe {
    /// `SCPReceiptDetails`: the EMV fields for a receipt. Offline, `accountType` and `authorizationResponseCode`
    /// are unavailable.
    public struct ReceiptDetails: Hashable, Sendable, Codable {
        /// `accountType`.
        public var accountType: String?
        /// `applicationPreferredName`.
        public var applicationPreferredName: String?
        /// `dedicatedFileName` (the AID).
        public var dedicatedFileName: String?
        /// `authorizationCode`.
        public var authorizationCode: String?
        /// `authorizationResponseCode`.
        public var authorizationResponseCode: String?
        /// `applicationCryptogram`.
        public var applicationCryptogram: String?
        /// `terminalVerificationResults`.
        public var terminalVerificationResults: String?
        /// `transactionStatusInformation`.
        public var transactionStatusInformation: String?
        /// `cardholderVerificationMethod`.
        public var cardholderVerificationMethod: String?

        /// Creates receipt details.
        public init(accountType: String? = nil, applicationPreferredName: String? = nil,
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

    /// `SCPCardPresentDetails` (online) and `SCPOfflineCardPresentDetails` ⚑ (offline): what a receipt may show.
    /// Never the card number, track data or PIN.
    public struct CardPresentDetails: Hashable, Sendable, Codable {
        /// `brand`; may be ``CardBrand/unknown`` offline until forwarded.
        public var brand: CardBrand
        /// `last4`.
        public var last4: String?
        /// `expMonth` (0 if missing).
        public var expMonth: Int
        /// `expYear` (0 if missing).
        public var expYear: Int
        /// `readMethod`.
        public var readMethod: ReadMethod
        /// `cardholderName`.
        public var cardholderName: String?
        /// `receiptDetails`.
        public var receiptDetails: ReceiptDetails?

        /// Creates card-present details.
        public init(brand: CardBrand, last4: String?, expMonth: Int = 0, expYear: Int = 0, readMethod: ReadMethod,
                    cardholderName: String? = nil, receiptDetails: ReceiptDetails? = nil) {
            self.brand = brand
            self.last4 = last4
            self.expMonth = expMonth
            self.expYear = expYear
            self.readMethod = readMethod
            self.cardholderName = cardholderName
            self.receiptDetails = receiptDetails
        }
    }

    /// `SCPOfflineDetails` ⚑ (`PaymentIntent.offlineDetails`).
    public struct OfflineDetails: Hashable, Sendable, Codable {
        /// `storedAt`: when the payment was collected.
        public var storedAt: Date?
        /// `requiresUpload`: still needs forwarding. Such a payment is not ready to capture.
        public var requiresUpload: Bool
        /// `cardPresentDetails` (`SCPOfflineCardPresentDetails`).
        public var cardPresentDetails: CardPresentDetails?

        /// Creates offline details.
        public init(storedAt: Date?, requiresUpload: Bool, cardPresentDetails: CardPresentDetails?) {
            self.storedAt = storedAt
            self.requiresUpload = requiresUpload
            self.cardPresentDetails = cardPresentDetails
        }
    }

    /// `SCPCharge` (the fields the adapter reads).
    public struct Charge: Hashable, Sendable, Codable {
        /// `stripeId` (`ch_…`).
        public var stripeId: String
        /// `amount`, minor units.
        public var amount: UInt
        /// `currency`, lowercase.
        public var currency: String
        /// `status`.
        public var status: ChargeStatus
        /// The decline code of a failed charge.
        public var declineCode: String?

        /// Creates a charge.
        public init(stripeId: String, amount: UInt, currency: String, status: ChargeStatus,
                    declineCode: String? = nil) {
            self.stripeId = stripeId
            self.amount = amount
            self.currency = currency
            self.status = status
            self.declineCode = declineCode
        }
    }

    /// `SCPPaymentIntent` (the fields the adapter uses).
    public struct PaymentIntent: Hashable, Sendable, Codable {
        /// The SDK object's identity. The real SDK has no public id for an offline intent (Stripe says to use your
        /// own id in metadata); the bridge fills this with the object's identity so that the same object can be
        /// passed back. Never use it to reconcile: use ``metadata``.
        public var sdkHandle: String
        /// `stripeId`: nil when created offline, set after forwarding.
        public var stripeId: String?
        /// `status`.
        public var status: PaymentIntentStatus
        /// `amount` in minor units.
        public var amount: UInt
        /// `currency`, lowercase (`"usd"`).
        public var currency: String
        /// `captureMethod`.
        public var captureMethod: CaptureMethod
        /// `created`.
        public var created: Date
        /// `metadata`.
        public var metadata: [String: String]
        /// `offlineDetails` ⚑: set when confirmed offline.
        public var offlineDetails: OfflineDetails?
        /// Card details of an online payment (`paymentMethod.cardPresent` / the charge's details).
        public var cardPresentDetails: CardPresentDetails?
        /// `charges`.
        public var charges: [Charge]
        /// `clientSecret` (5.0).
        public var clientSecret: String?
        /// `amountTip`.
        public var amountTip: UInt?

        /// Creates an intent (the SDK creates them; the simulator and tests use this).
        public init(sdkHandle: String, stripeId: String?, status: PaymentIntentStatus, amount: UInt, currency: String,
                    captureMethod: CaptureMethod, created: Date, metadata: [String: String],
                    offlineDetails: OfflineDetails? = nil, cardPresentDetails: CardPresentDetails? = nil,
                    charges: [Charge] = [], clientSecret: String? = nil, amountTip: UInt? = nil) {
            self.sdkHandle = sdkHandle
            self.stripeId = stripeId
            self.status = status
            self.amount = amount
            self.currency = currency
            self.captureMethod = captureMethod
            self.created = created
            self.metadata = metadata
            self.offlineDetails = offlineDetails
            self.cardPresentDetails = cardPresentDetails
            self.charges = charges
            self.clientSecret = clientSecret
            self.amountTip = amountTip
        }

        /// Seed 000's rule: ready to capture when the status is `requiresCapture` and `offlineDetails` is nil or
        /// has `requiresUpload == false`.
        public var isReadyToCapture: Bool {
            status == .requiresCapture && !(offlineDetails?.requiresUpload ?? false)
        }
    }

    /// `SCPPaymentIntentParameters` (built with `PaymentIntentParametersBuilder(amount:currency:)`).
    public struct PaymentIntentParameters: Hashable, Sendable {
        /// `amount`, minor units.
        public var amount: UInt
        /// `currency`, lowercase.
        public var currency: String
        /// `captureMethod`; the SDK's default is manual.
        public var captureMethod: CaptureMethod
        /// `metadata`.
        public var metadata: [String: String]
        /// `stripeDescription`.
        public var stripeDescription: String?

        /// Creates parameters.
        public init(amount: UInt, currency: String, captureMethod: CaptureMethod = .manual,
                    metadata: [String: String] = [:], stripeDescription: String? = nil) {
            self.amount = amount
            self.currency = currency
            self.captureMethod = captureMethod
            self.metadata = metadata
            self.stripeDescription = stripeDescription
        }
    }

    /// `SCPCreateConfiguration` ⚑: its only field is the offline behaviour.
    public struct CreateConfiguration: Hashable, Sendable {
        /// `offlineBehavior`; default `preferOnline`, effective only for offline-enabled accounts.
        public var offlineBehavior: OfflineBehavior
        /// Creates a configuration.
        public init(offlineBehavior: OfflineBehavior = .preferOnline) { self.offlineBehavior = offlineBehavior }
    }

    /// `SCPCollectPaymentIntentConfiguration` (the fields the adapter uses).
    public struct CollectConfiguration: Hashable, Sendable {
        /// `skipTipping`.
        public var skipTipping: Bool
        /// `updatePaymentIntent` (default false; with an offline-created intent it fails with 1935).
        public var updatePaymentIntent: Bool
        /// Creates a configuration.
        public init(skipTipping: Bool = true, updatePaymentIntent: Bool = false) {
            self.skipTipping = skipTipping
            self.updatePaymentIntent = updatePaymentIntent
        }
    }
}

// MARK: - Offline status

extension Stripe {
    /// `SCPOfflineStatusDetails` ⚑.
    public struct OfflineStatusDetails: Hashable, Sendable, Codable {
        /// `paymentsCount`: stored, unforwarded intents; nil after `clearCachedCredentials`.
        public var paymentsCount: Int?
        /// `paymentAmountsByCurrency`: lowercase code → minor units.
        public var paymentAmountsByCurrency: [String: Int64]
        /// `networkStatus`; starts `unknown`.
        public var networkStatus: NetworkStatus

        /// Creates details.
        public init(paymentsCount: Int?, paymentAmountsByCurrency: [String: Int64], networkStatus: NetworkStatus) {
            self.paymentsCount = paymentsCount
            self.paymentAmountsByCurrency = paymentAmountsByCurrency
            self.networkStatus = networkStatus
        }
    }

    /// `SCPOfflineStatus` ⚑.
    public struct OfflineStatus: Hashable, Sendable, Codable {
        /// `sdk`: the POS device, which stores and forwards for mobile readers.
        public var sdk: OfflineStatusDetails
        /// `reader`: the connected smart reader; nil for mobile readers or none.
        public var reader: OfflineStatusDetails?

        /// Creates a status.
        public init(sdk: OfflineStatusDetails, reader: OfflineStatusDetails? = nil) {
            self.sdk = sdk
            self.reader = reader
        }
    }
}

// MARK: - Readers

extension Stripe {
    /// `SCPReaderSoftwareUpdate`.
    public struct ReaderSoftwareUpdate: Hashable, Sendable, Codable {
        /// `deviceSoftwareVersion`.
        public var deviceSoftwareVersion: String
        /// `durationEstimate`.
        public var durationEstimate: UpdateTimeEstimate
        /// `requiredAt`: in the past means it installs on connect.
        public var requiredAt: Date
        /// `isTestUpdate` (5.5).
        public var isTestUpdate: Bool

        /// Creates an update.
        public init(deviceSoftwareVersion: String, durationEstimate: UpdateTimeEstimate, requiredAt: Date,
                    isTestUpdate: Bool = true) {
            self.deviceSoftwareVersion = deviceSoftwareVersion
            self.durationEstimate = durationEstimate
            self.requiredAt = requiredAt
            self.isTestUpdate = isTestUpdate
        }
    }

    /// `SCPReader`. Bluetooth proximity first reports one with only ``serialNumber``; the other fields follow.
    public struct Reader: Hashable, Sendable, Codable {
        /// `serialNumber`.
        public var serialNumber: String
        /// `deviceType`.
        public var deviceType: DeviceType
        /// `deviceSoftwareVersion`, when known.
        public var deviceSoftwareVersion: String?
        /// `batteryLevel` 0...1, when known.
        public var batteryLevel: Double?
        /// `batteryStatus`.
        public var batteryStatus: BatteryStatus
        /// `isCharging`, when known.
        public var isCharging: Bool?
        /// `locationId`, once connected.
        public var locationId: String?
        /// `availableUpdate`.
        public var availableUpdate: ReaderSoftwareUpdate?
        /// `simulated`.
        public var simulated: Bool

        /// Creates a reader.
        public init(serialNumber: String, deviceType: DeviceType, deviceSoftwareVersion: String? = nil,
                    batteryLevel: Double? = nil, batteryStatus: BatteryStatus = .unknown, isCharging: Bool? = nil,
                    locationId: String? = nil, availableUpdate: ReaderSoftwareUpdate? = nil, simulated: Bool = false) {
            self.serialNumber = serialNumber
            self.deviceType = deviceType
            self.deviceSoftwareVersion = deviceSoftwareVersion
            self.batteryLevel = batteryLevel
            self.batteryStatus = batteryStatus
            self.isCharging = isCharging
            self.locationId = locationId
            self.availableUpdate = availableUpdate
            self.simulated = simulated
        }
    }

    /// `SCPDiscoveryConfiguration` (one per method in the SDK, e.g. `BluetoothScanDiscoveryConfiguration`).
    public struct DiscoveryConfiguration: Hashable, Sendable {
        /// The discovery method.
        public var method: DiscoveryMethod
        /// Scan timeout in seconds (Bluetooth scan); nil scans until connected or canceled.
        public var timeout: Double?
        /// `setSimulated(_:)`.
        public var simulated: Bool

        /// Creates a configuration.
        public init(method: DiscoveryMethod = .bluetoothScan, timeout: Double? = nil, simulated: Bool = true) {
            self.method = method
            self.timeout = timeout
            self.simulated = simulated
        }
    }

    /// `SCPBluetoothConnectionConfiguration` (built with `BluetoothConnectionConfigurationBuilder(delegate:locationId:)`).
    public struct BluetoothConnectionConfiguration: Sendable {
        /// `locationId`: required; the reader registers to this location.
        public var locationId: String
        /// `autoReconnectOnUnexpectedDisconnect`; defaults to true (4.0+).
        public var autoReconnectOnUnexpectedDisconnect: Bool
        /// The reader's delegate.
        public var delegate: (any MobileReaderDelegate)?

        /// Creates a configuration.
        public init(locationId: String, autoReconnectOnUnexpectedDisconnect: Bool = true,
                    delegate: (any MobileReaderDelegate)?) {
            self.locationId = locationId
            self.autoReconnectOnUnexpectedDisconnect = autoReconnectOnUnexpectedDisconnect
            self.delegate = delegate
        }
    }
}

// MARK: - Cancelable

extension Stripe {
    /// `SCPCancelable`: stops a discovery, a collection, an update or a reconnection. Since 5.0 the operation's
    /// completion is always called, with ``ErrorCode/Code/canceled`` (or nil for a discovery).
    public final class Cancelable: Sendable {
        private struct State {
            var completed = false
            var canceled = false
            var onCancel: (@Sendable () -> Void)?
        }

        private let state = Locked(State())

        /// Creates a cancelable (the SDK does).
        public init() {}

        /// `completed`: the operation has finished.
        public var completed: Bool { state.current.completed }

        /// Whether ``cancel()`` was called before the operation finished.
        public var isCanceled: Bool { state.current.canceled }

        /// `cancel(_:)`. Throws ``ErrorCode/Code/cancelFailedAlreadyCompleted`` when the operation has finished.
        public func cancel() throws(ErrorCode) {
            let (alreadyCompleted, action) = state.withLock { s -> (Bool, (@Sendable () -> Void)?) in
                if s.completed { return (true, nil) }
                if s.canceled { return (false, nil) }
                s.canceled = true
                return (false, s.onCancel)
            }
            if alreadyCompleted {
                throw ErrorCode(.cancelFailedAlreadyCompleted, message: "The command already completed.")
            }
            action?()
        }

        /// Marks the operation finished (the SDK's side).
        public func markCompleted() { state.withLock { $0.completed = true; $0.onCancel = nil } }

        /// Sets what canceling does (the SDK's side). Runs at once if already canceled.
        public func setCancelAction(_ action: @escaping @Sendable () -> Void) {
            let runNow = state.withLock { s -> Bool in
                if s.canceled { return true }
                s.onCancel = action
                return false
            }
            if runNow { action() }
        }
    }
}
