import Foundation
import Tender
package import TenderStripe
package import TenderTesting

extension Stripe {
    /// `SCPSimulatorConfiguration` (`Terminal.shared.simulatorConfiguration`) plus the knobs the SDK's simulated
    /// reader and `SimulatedOfflineModeConfiguration` give, and the ones this simulator adds to model documented
    /// behaviour deterministically. Every value the reference marks unverified (†), or that is an inference, is
    /// configurable here and says so.
    package struct SimulatorConfiguration: Hashable, Sendable {
        // MARK: Account and reader

        /// `offlineEnabled`: simulates a Terminal configuration with offline mode on (`offline[enabled]=true`).
        package var offlineEnabled: Bool
        /// `simulatedCard`: the card the simulated reader reads.
        package var simulatedCard: SimulatedCardType
        /// How the simulated card is read (the SDK's simulator has no UI; this picks chip, tap or swipe).
        package var simulatedReadMethod: ReadMethod
        /// `simulatedTipAmount`, minor units: the tip the reader collects unless `skipTipping` is set (only a reader
        /// with on-reader tipping collects one: the smart readers and WisePad 3).
        package var simulatedTipAmount: UInt?
        /// The software update the simulated reader offers (the SDK's `testReaderUpdate`).
        package var testReaderUpdate: TestReaderUpdate
        /// The readers in range of the device (all simulated: a discovery that is not `simulated` finds none).
        package var readersInRange: [Reader]
        /// When the simulated customer presents the card: at once, or when ``StripeSimulator/presentCard()`` is
        /// called (so a test can cancel, or disconnect the reader, while the reader waits).
        package var cardPresentation: CardPresentation
        /// Whether an automatic reconnection after an unexpected disconnect succeeds.
        package var reconnectionSucceeds: Bool
        /// † Whether connecting offline to a reader never connected online at this location is allowed when a
        /// reader of its type was (Stripe allows "any reader of the same type"); off reproduces 2873
        /// (`readerConnectionOfflinePairingUnseenDisabled`), a setting the reference names without saying how it is
        /// turned off.
        package var offlinePairingOfUnseenReaders: Bool

        // MARK: Offline payments

        /// The account's operating currency (lowercase). Stripe allows offline payments in it, up to "10,000 USD or
        /// equivalent in your operating currency"; another currency is refused offline
        /// (`invalidOfflineCurrency`, 2891).
        package var operatingCurrency: String
        /// † The offline maximum in the operating currency, minor units. Only the USD figure (10,000) is published;
        /// "equivalent" in another currency is configurable for that reason.
        package var offlineMaximum: UInt
        /// The most payments the SDK stores before `offlinePaymentsDatabaseTooLarge` (2860). Stripe publishes no
        /// number; nil means no limit. Configurable for that reason.
        package var offlineStoredPaymentsMaximum: Int?
        /// † A reason the next cards decline offline verification with (6903 `offlineTransactionDeclined`, the
        /// reason under `ErrorKey.offlineDeclineReason`); nil: no offline decline. Which cards do so is not published.
        package var offlineCardDeclineReason: String?
        /// Inference: whether a card collected while online and then confirmed offline is refused with 6904
        /// (`offlineCollectAndConfirmMismatch`, "retry collectPaymentMethod"), as the reference's description says.
        /// Off reproduces pre-6904 SDKs (ios#294), where such a confirmation was stored.
        package var collectOnlineConfirmOfflineMismatch: Bool
        /// Whether setting the network back online forwards the stored payments at once (the SDK forwards "when
        /// Internet access is restored"). Off lets a test drive ``StripeSimulator/forwardPendingPayments(maxCount:)``.
        package var forwardsWhenNetworkReturns: Bool
        /// † The SDK's background forwarding: how long after a payment is stored (or a pass left payments stored)
        /// the SDK forwards again on its own while online (Stripe: payments taken `forceOffline` online "are
        /// forwarded in the background"). The schedule is not published; nil turns it off. Evaluated lazily, on the
        /// next SDK call after the clock passed it (or ``StripeSimulator/runDueWork()``).
        package var backgroundForwardingDelay: Double?
        /// A forwarding error to report for each stored payment instead of forwarding it (e.g. 1938); nil forwards
        /// normally. Whether the SDK keeps the payment is ``forwardingErrorsKeepingPayment``.
        package var forwardingFailure: ErrorCode.Code?
        /// Inference from the reference's messages: the forwarding errors after which the SDK keeps the payment stored
        /// and forwards it later (1938 "reconnect with live keys to resume", token, network and key-store errors);
        /// any other (1937 "the test transaction will be deleted", a refusal by Stripe) drops it.
        package var forwardingErrorsKeepingPayment: Set<String>
        /// Off by default. stripe-terminal-react-native#1061 (reference "Known issues", near line 598): on iOS an
        /// offline decline is reported by `didForwardPaymentIntent` as "a failed charge, sometimes preceded by
        /// `requiresPaymentMethod`": "sometimes a first call with no charge and a requiresPaymentMethod status but
        /// always followed by the second with the failed status". On, every forwarded decline is reported that way:
        /// first the intent `requiresPaymentMethod` with no charge and no error, then the declined one.
        package var forwardedDeclineFirstReportsRequiresPaymentMethod = false
        /// Inference: whether `clearCachedCredentials` loses the stored, unforwarded payments. The reference says only
        /// that `paymentsCount` becomes nil and the amounts empty; Stripe warns that clearing the SDK's storage
        /// loses them.
        package var clearCachedCredentialsDropsStoredPayments: Bool

        // MARK: Network and Stripe's servers

        /// † The failure rate of `offlineIntermittent` ("about 50 %" in the reference).
        package var intermittentFailureRate: Double
        /// What happened to a confirmation whose response timed out in `offlineTimeout` mode: Stripe cannot say, so
        /// both are simulated. The default is the dangerous one: Stripe authorized the card and the answer was lost.
        package var timeoutOutcome: TimeoutOutcome
        /// † How long Stripe's Search takes to show a new or changed PaymentIntent. Stripe documents Search as
        /// eventually consistent, "up to about a minute"; the typical lag is not published. Retrieving by id is
        /// consistent.
        package var searchLag: Double
        /// How long an uncaptured authorization lasts: Stripe: "You must manually capture PaymentIntents within two
        /// days or the authorization expires and funds are released to the customer".
        package var captureWindow: Double
        /// What Stripe does when the capture window passes (see ``ExpiredAuthorization``).
        package var expiredAuthorization: ExpiredAuthorization
        /// † When a refund of the `refundFailed` test card fails ("asynchronously, with `expired_or_canceled_card`"):
        /// seconds after it was created. Unverified: Stripe publishes no figure; a real refund can fail days later.
        package var refundFailureDelay: Double
        /// How a refund of the `refundFailed` test card begins, until ``refundFailureDelay`` has passed. Stripe
        /// documents refunds that are `succeeded` and later `failed` (`charge.refund.updated`), so the default is
        /// `succeeded`: the unkind case, where the app has already told the customer they were refunded. `pending` is
        /// the other documented path. Which one the test card takes is unverified.
        package var refundFailedCardStartsAs: Stripe.RefundStatus
        /// How long Stripe keeps an idempotency key: a key reused within it with other parameters is refused with
        /// `idempotency_error`; reused with the same ones, Stripe answers the first result again. Stripe documents
        /// that keys "can be removed from the system automatically after they're at least 24 hours old".
        package var idempotencyKeyLifetime: Double
        /// † Whether the amount's final two digits decide declines, as Stripe's physical test card does (Stripe: "an
        /// amount ending in 00 results in an approved payment"; the other endings come from a third-party copy of
        /// Stripe's testing page and apply to the physical card). Off by default for that reason.
        package var declinesByTestAmount: Bool

        /// Creates a configuration; the defaults are an online, offline-capable-off USD account with a Stripe M2,
        /// a Chipper 2X and a WisePad 3 in range, reading a Visa by chip.
        package init(offlineEnabled: Bool = false, simulatedCard: SimulatedCardType = .visa,
                    simulatedReadMethod: ReadMethod = .contactEMV, simulatedTipAmount: UInt? = nil,
                    testReaderUpdate: TestReaderUpdate = .none,
                    readersInRange: [Reader] = SimulatorConfiguration.defaultReaders,
                    cardPresentation: CardPresentation = .immediate, operatingCurrency: String = "usd",
                    offlineMaximum: UInt = 1_000_000, offlineStoredPaymentsMaximum: Int? = nil,
                    intermittentFailureRate: Double = 0.5, timeoutOutcome: TimeoutOutcome = .processedResponseLost,
                    reconnectionSucceeds: Bool = true, forwardsWhenNetworkReturns: Bool = true,
                    backgroundForwardingDelay: Double? = 30, forwardingFailure: ErrorCode.Code? = nil,
                    clearCachedCredentialsDropsStoredPayments: Bool = true, declinesByTestAmount: Bool = false,
                    searchLag: Double = 2, captureWindow: Double = 2 * 86_400,
                    expiredAuthorization: ExpiredAuthorization = .canceled) {
            self.offlineEnabled = offlineEnabled
            self.simulatedCard = simulatedCard
            self.simulatedReadMethod = simulatedReadMethod
            self.simulatedTipAmount = simulatedTipAmount
            self.testReaderUpdate = testReaderUpdate
            self.readersInRange = readersInRange
            self.cardPresentation = cardPresentation
            self.reconnectionSucceeds = reconnectionSucceeds
            self.offlinePairingOfUnseenReaders = true
            self.operatingCurrency = operatingCurrency
            self.offlineMaximum = offlineMaximum
            self.offlineStoredPaymentsMaximum = offlineStoredPaymentsMaximum
            self.offlineCardDeclineReason = nil
            self.collectOnlineConfirmOfflineMismatch = true
            self.forwardsWhenNetworkReturns = forwardsWhenNetworkReturns
            self.backgroundForwardingDelay = backgroundForwardingDelay
            self.forwardingFailure = forwardingFailure
            self.forwardingErrorsKeepingPayment = Self.defaultForwardingErrorsKeepingPayment
            self.clearCachedCredentialsDropsStoredPayments = clearCachedCredentialsDropsStoredPayments
            self.intermittentFailureRate = intermittentFailureRate
            self.timeoutOutcome = timeoutOutcome
            self.searchLag = searchLag
            self.captureWindow = captureWindow
            self.expiredAuthorization = expiredAuthorization
            self.refundFailureDelay = 60
            self.refundFailedCardStartsAs = .succeeded
            self.idempotencyKeyLifetime = 24 * 60 * 60
            self.declinesByTestAmount = declinesByTestAmount
        }

        /// The default ``forwardingErrorsKeepingPayment``.
        package static let defaultForwardingErrorsKeepingPayment: Set<String> = [
            "forwardingLiveModePaymentInTestMode", "accountIdMismatchWhileForwarding",
            "connectionTokenProviderCompletedWithErrorWhileForwarding",
            "connectionTokenProviderCompletedWithNothingWhileForwarding", "notConnectedToInternet", "requestTimedOut",
            "internalNetworkError", "encryptionKeyFailure", "encryptionKeyStillInitializing",
            "offlineEncryptionKeysUnavailable", "sessionExpired",
        ]

        /// † The decline code of a test amount by its final two digits (minor units): .01 `call_issuer`,
        /// .05 `generic_decline`, .55 `incorrect_pin`, .65 `withdrawal_count_limit_exceeded`, .75 `pin_try_exceeded`;
        /// nil (approved) otherwise, including .00 and the PIN-prompt endings .02 and .03.
        package static func testAmountDeclineCode(_ amount: UInt) -> String? {
            switch amount % 100 {
            case 1: "call_issuer"
            case 5: "generic_decline"
            case 55: "incorrect_pin"
            case 65: "withdrawal_count_limit_exceeded"
            case 75: "pin_try_exceeded"
            default: nil
            }
        }

        /// The simulated readers in range by default.
        package static let defaultReaders: [Reader] = [
            Reader(serialNumber: "STRM2-SIM-0001", deviceType: .stripeM2, deviceSoftwareVersion: "2.01.00.17",
                   batteryLevel: 0.9, batteryStatus: .nominal, isCharging: false, simulated: true),
            Reader(serialNumber: "CHB2X-SIM-0001", deviceType: .chipper2X, deviceSoftwareVersion: "1.00.03.34",
                   batteryLevel: 0.8, batteryStatus: .nominal, isCharging: false, simulated: true),
            Reader(serialNumber: "WP3-SIM-0001", deviceType: .wisePad3, deviceSoftwareVersion: "3.00.00.12",
                   batteryLevel: 0.7, batteryStatus: .nominal, isCharging: true, simulated: true),
            // A smart reader (found by internet discovery; registered to its location in the Dashboard: see
            // ``smartReaderLocationId``) and the iPhone's Tap to Pay reader.
            Reader(serialNumber: "WPE-SIM-0001", deviceType: .wisePosE, deviceSoftwareVersion: "2.23.0.0",
                   simulated: true),
            Reader(serialNumber: "TTP-SIM-0001", deviceType: .tapToPay, simulated: true),
        ]

        /// The location a simulated smart reader whose `locationId` is nil is registered to in the Dashboard (a
        /// smart reader's connection takes no location: it reports the one it is registered to). `nil`:
        /// ``defaultSmartReaderLocationId``.
        package var smartReaderLocationId: String?
        /// Where a smart reader is registered when nothing says otherwise.
        package static let defaultSmartReaderLocationId = "tml_smart_reader_location"
    }

    /// When the simulated customer presents the card: the core's ``SimulatedCardPresentation``.
    package typealias CardPresentation = SimulatedCardPresentation

    /// What a timed-out confirmation did on Stripe's side.
    package enum TimeoutOutcome: String, Hashable, Sendable, Codable, CaseIterable {
        /// Stripe authorized the card; the response was lost.
        case processedResponseLost
        /// The request never reached Stripe.
        case notReceived
    }

    /// What Stripe does with an uncaptured authorization when the capture window passes.
    package enum ExpiredAuthorization: String, Hashable, Sendable, Codable, CaseIterable {
        /// Seed 002: the authorization expires and the funds are released: the intent is canceled by Stripe
        /// (`cancellationReason` `automatic`, an inference from Stripe's list of internally generated reasons).
        case canceled
        /// The intent moves to `requiresReauthorization` (SDK 5.4): still authorized, not capturable until renewed.
        /// Which intents Stripe treats this way is not published.
        case requiresReauthorization
    }
}
