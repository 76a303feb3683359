package import Foundation
import Tender
package import TenderSquare
package import TenderTesting

extension SquareSimulator {
    /// A Square seller account the simulated servers know.
    package struct Seller: Hashable, Sendable, Codable {
        /// The merchant id.
        package var merchantID: String
        /// The access token that authorizes it.
        package var accessToken: String
        /// Its locations.
        package var locations: [Square.Location]
        /// Locations that are not activated for card processing.
        package var inactiveLocationIDs: Set<String>
        /// Its offline settings.
        package var paymentSettings: Square.PaymentSettings
        /// Production or Sandbox.
        package var environment: Square.Environment
        /// The card surcharge the seller charges, in basis points of the amount, when a payment allows it
        /// (`allowCardSurcharge`, the SDK's default). 0: none. How Square computes a surcharge is not in the
        /// reference (unverified): the simulator adds `amount × basis points / 10,000`, rounded half up, to
        /// `amountMoney`, online card payments only ("a surcharge is never applied offline").
        package var cardSurchargeBasisPoints: UInt

        /// Creates a seller.
        package init(merchantID: String, accessToken: String, locations: [Square.Location],
                    inactiveLocationIDs: Set<String> = [], paymentSettings: Square.PaymentSettings = .notOptedIn,
                    environment: Square.Environment = .production, cardSurchargeBasisPoints: UInt = 0) {
            self.merchantID = merchantID
            self.accessToken = accessToken
            self.locations = locations
            self.inactiveLocationIDs = inactiveLocationIDs
            self.paymentSettings = paymentSettings
            self.environment = environment
            self.cardSurchargeBasisPoints = cardSurchargeBasisPoints
        }
    }

    /// How the simulated reader gets a card: the core's ``SimulatedCardPresentation``.
    package typealias CardPresentation = SimulatedCardPresentation

    /// What happens to an Interac card offline. The reference says only "Interac debit always fails offline";
    /// how it fails is unverified, so both readings are offered.
    package enum InteracOfflineBehavior: String, Hashable, Sendable, Codable {
        /// The reader will not take it offline: the SDK ends the payment with `didCancel`, whose payment carries
        /// the refused card (brand and entry method), and nothing is stored. The default.
        case refusedAtReader
        /// It is stored, then fails to process at upload (`failedToProcess`).
        case failsToProcess
    }

    /// What "the device was online" means for Square's 24-hour offline window (Square: "up to 24 hours before
    /// reconnecting to the network"; the POS doc: "connected to a device that was online … within the last 24
    /// hours"; help 8106: 24 hours "from going offline to accept and upload"). Whether a reconnection that never
    /// reaches Square's servers (or uploads nothing) restarts the window is unverified.
    package enum OfflineWindowRestart: String, Hashable, Sendable, Codable {
        /// Only a request that reaches Square's servers restarts it: the SDK's own check "for network connectivity
        /// and a connection to Square servers" on reconnection, a sync step, an online payment. The default.
        case squareReached
        /// Any reconnection to a network restarts it, even one on which Square cannot be reached.
        case networkReconnection
    }

    /// The simulator's settings, including the facts the reference marks unverified.
    package struct Configuration: Hashable, Sendable, Codable {
        /// How long the device may stay offline before its readers stop taking payments, counted from when it was
        /// last online (``offlineWindowRestart``), and how long a queued payment may wait for its upload before it
        /// expires (`failedToUpload`, counted from when it was taken). 24 hours: the MPSDK page's sentence was cut
        /// off in the corpus; the seed, the POS API and Square help 8106 say 24 h.
        package var offlineWindow: TimeInterval = 24 * 60 * 60
        /// What restarts the offline window (unverified; see ``OfflineWindowRestart``).
        package var offlineWindowRestart: OfflineWindowRestart = .squareReached
        /// The most payments the device may hold queued, every account and location together, before its readers
        /// fail to connect. Tender assumes 1,000 per device; the reference marks the figure unverified.
        package var deviceOfflinePaymentCap: Int = 1000
        /// How long a `processed` payment stays on the device before the SDK deletes it "to conserve storage
        /// space". The SDK deletes it on its own schedule, read or not; the figure is unverified.
        package var processedRetention: TimeInterval = 60
        /// How long a change on Square's servers takes to appear in `ListPayments` (the search by reference):
        /// Square says "several seconds" (unverified figure). Reads by id (`GetPayment`) are not delayed.
        package var searchLag: TimeInterval = 5
        /// How long a refund stays `PENDING` before Square settles it (unverified figure).
        package var refundSettlement: TimeInterval = 10
        /// Whether `deauthorize()` drops the signed-out seller's queued payments. Seed 001: "Queued payments remain
        /// on the device when … a seller logs out of your application", so the default is `false`; the reference
        /// marks the MPSDK behaviour unverified (Square help 7775, for the POS app, says they are lost).
        package var deauthorizeDropsQueue: Bool = false
        /// Whether payments of an account or location that is not authorized now still upload. Unverified; default
        /// `false` (only the authorized account and location sync).
        package var uploadsOtherAccounts: Bool = false
        /// What happens to Interac offline (unverified).
        package var interacOffline: InteracOfflineBehavior = .refusedAtReader
        /// When the card is presented.
        package var cardPresentation: CardPresentation = .immediate
        /// The largest total (amount plus tip, in the currency's smallest unit) Square takes in one payment, refused
        /// with `invalidPaymentParameters`; `nil` for none. Unverified: Square's Mobile Payments SDK documentation in
        /// this project's reference states no maximum (a seller's account may carry one: Square's payment limits), so
        /// the default is none and tests set one to model an account's limit.
        package var maximumPaymentAmount: UInt?

        /// The defaults.
        package init() {}
    }
}
