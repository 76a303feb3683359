import Foundation
import Testing
import Tender
import TenderBackend
@testable import TenderServer

/// Collects every record it is handed (either half of the hop).
final class RecordedLog: TenderLogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [TenderLogRecord] = []
    func log(_ record: TenderLogRecord) { lock.withLock { stored.append(record) } }
    var records: [TenderLogRecord] { lock.withLock { stored } }
    /// Every record as one line: message and metadata.
    var lines: [String] {
        records.map { ([$0.message] + $0.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
            .joined(separator: " ") }
    }
}

/// The hop's two halves log every request they make or answer, with the outcome, and never a credential.
@Suite("Routes and the device client: logging")
struct RoutesLoggingTests {
    static let storeA = LedgerScope(merchantID: "acct_tender", locationID: "tml_A")
    static let storeB = LedgerScope(merchantID: "acct_tender", locationID: "tml_B")

    @Test("every request is logged on both sides with its outcome; a refusal with its code; no token in any line")
    func bothSidesLogged() async throws {
        let stripe = FakeStripe()
        let serverLog = RecordedLog(), deviceLog = RecordedLog()
        let server = InProcessServer(routes: TenderRoutes(stripe: stripe.client, stripeAccountID: "acct_tender",
                                                          logHandler: serverLog),
                                     devices: ["device-token-a": Self.storeA, "device-token-b": Self.storeB])
        let deviceA = server.client(token: "device-token-a", logHandler: deviceLog)
        let deviceB = server.client(token: "device-token-b", logHandler: deviceLog)

        #expect(try await deviceA.connectionToken() == FakeStripe.tokenSecret)
        let sale = stripe.addIntent(reference: "order-1", location: "tml_A", amount: 1_250)
        let key = IdempotencyKey.capture(scope: Self.storeA, reference: "order-1", paymentAttempt: 1).rawValue
        let capture = CaptureRequest(processor: "stripe", reference: "order-1", processorPaymentID: sale,
                                     amount: Money(minorUnits: 1_250, currency: .usd), idempotencyKey: key)
        // Location B may not capture location A's payment.
        let refused = await #expect(throws: PaymentError.self) { try await deviceB.capture(capture) }
        #expect(refused?.code == .notAuthorized)
        try await deviceA.capture(capture)
        #expect(try await deviceA.retrievePaymentIntent(id: "pi_nothing") == nil)

        // The server: one record per answered request, with route, caller and status.
        let answered = serverLog.records
        #expect(answered.count == 4, "\(serverLog.lines)")
        let token = try #require(answered.first { $0.metadata["route"] == "POST /v1/stripe/connection-token" })
        #expect(token.level == .info && token.metadata["status"] == "200" && token.metadata["location"] == "tml_A")
        let refusal = try #require(answered.first { $0.metadata["status"] == "403" })
        #expect(refusal.level == .warning && refusal.metadata["code"] == PaymentError.Code.notAuthorized.rawValue
                && refusal.metadata["location"] == "tml_B" && refusal.metadata["route"] == "POST /v1/payments/capture")
        #expect(answered.contains { $0.metadata["route"] == "POST /v1/payments/capture" && $0.metadata["status"] == "204" })
        #expect(answered.contains { $0.metadata["status"] == "404" && $0.metadata["code"] == "unknown_reference" })

        // The device: one record per request, the refusal as a warning with the server's code.
        let sent = deviceLog.records
        #expect(sent.count == 4, "\(deviceLog.lines)")
        #expect(sent.filter { $0.metadata["call"] == "POST /v1/payments/capture" }.map(\.level) == [.warning, .debug])
        #expect(sent.contains { $0.metadata["call"] == "GET /v1/stripe/payment-intents/pi_nothing"
                && $0.message.hasSuffix("absent") })

        // Never a credential: not the connection token, not the devices' own tokens, not the vendor's key.
        for line in serverLog.lines + deviceLog.lines {
            for secret in [FakeStripe.tokenSecret, "device-token-a", "device-token-b", "sk_test", "Bearer"] {
                #expect(!line.contains(secret), "\(secret) in \(line)")
            }
        }
    }

    @Test("Square's sign-in hand-off is logged without the seller's access token")
    func squareSignInLoggedWithoutToken() async throws {
        let square = FakeSquare()
        let serverLog = RecordedLog(), deviceLog = RecordedLog()
        let storeL = LedgerScope(merchantID: "MERCHANT_1", locationID: "LOC_1")
        let server = InProcessServer(
            routes: TenderRoutes(square: square.client, squareMerchantID: "MERCHANT_1",
                                 squareSignIn: { _ in Credential(FakeSquare.sellerToken) }, logHandler: serverLog),
            devices: ["device-l": storeL])
        let authorization = try await server.client(token: "device-l", logHandler: deviceLog).squareAuthorization()
        #expect(authorization.accessToken == FakeSquare.sellerToken)
        #expect(serverLog.records.map { $0.metadata["route"] } == ["POST /v1/square/authorization"])
        #expect(deviceLog.records.map { $0.metadata["call"] } == ["POST /v1/square/authorization"])
        for line in serverLog.lines + deviceLog.lines {
            #expect(!line.contains(FakeSquare.sellerToken) && !line.contains("EAAA"), "\(line)")
        }
    }
}
