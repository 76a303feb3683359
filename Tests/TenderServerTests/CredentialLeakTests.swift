import Foundation
import Testing
import Tender
import TenderSquare
import TenderStripe
@testable import TenderServer

/// No credential in any string TenderServer produces: every kind of failure is forced on both clients (transport
/// failures, HTTP errors with and without the vendor's error object, a server echoing the secret back, undecodable
/// answers, refused wiring), and every string that can be made of the errors and the clients is searched for the
/// secret.
@Suite("Credentials never leak")
struct CredentialLeakTests {
    static let stripeSecret = "sk_live_SECRET_\(UUID().uuidString)"
    static let squareSecret = "EAAA_SECRET_\(UUID().uuidString)"

    static let answers: [ScriptedTransport.Answer] = [
        ScriptedTransport.failure(.cannotConnect), ScriptedTransport.failure(.timedOut),
        ScriptedTransport.failure(.connectionLost), ScriptedTransport.failure(.other),
        ScriptedTransport.json(401, #"{"error":{"type":"invalid_request_error","message":"Invalid API Key provided: \#(stripeSecret)"}}"#),
        ScriptedTransport.json(401, #"{"errors":[{"category":"AUTHENTICATION_ERROR","code":"UNAUTHORIZED","detail":"token \#(squareSecret) is revoked","field":"\#(squareSecret)"}]}"#),
        ScriptedTransport.json(402, #"{"error":{"type":"card_error","code":"card_declined","param":"\#(stripeSecret)"}}"#),
        ScriptedTransport.json(429, "rate limited"), ScriptedTransport.json(500, "<html>\(stripeSecret)</html>"),
        ScriptedTransport.json(200, "not json"), ScriptedTransport.json(200, #"{"unexpected":true}"#),
    ]

    /// Every string a value can be turned into.
    static func strings(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        var result = [String(describing: value), String(reflecting: value), dumped]
        if let encodable = value as? any Encodable, let data = try? JSONEncoder().encode(encodable) {
            result.append(String(decoding: data, as: UTF8.self))
        }
        return result
    }

    @Test("every failure of both clients, and the clients themselves")
    func noLeak() async throws {
        var produced: [String] = []
        for answer in Self.answers {
            let transport = ScriptedTransport(otherwise: answer)
            let stripe = StripeServerClient(secretKey: Credential(Self.stripeSecret), transport: transport)
            let square = SquareServerClient(accessToken: Credential(Self.squareSecret), transport: transport)
            let server = TenderServer(stripe: stripe, square: square)
            let money = Money(minorUnits: 100, currency: .usd)
            let refund = RefundRequest(processor: "stripe", reference: "o", processorPaymentID: "pi_1", amount: money,
                                       idempotencyKey: "o/refund-1")
            let squareRefund = RefundRequest(processor: "square", reference: "o", processorPaymentID: "p", amount: money,
                                             idempotencyKey: "o/refund-1")
            let operations: [@Sendable () async throws -> Void] = [
                { try await server.capture(processor: "stripe", reference: "o", processorPaymentID: "pi_1", amount: money) },
                { try await server.void(processor: "stripe", reference: "o", processorPaymentID: "pi_1") },
                { _ = try await server.refund(refund) },
                { _ = try await server.lookUpRefund(processor: "stripe", processorPaymentID: "pi_1", idempotencyKey: "k", processorRefundID: "re_1") },
                { _ = try await stripe.createConnectionToken(location: "tml_1") },
                { _ = try await stripe.findPaymentIntents(reference: "o") },
                { _ = try await StripeRESTServerLookup(stripe).paymentIntents(metadataKey: "k", value: "v") },
                { try await server.capture(processor: "square", reference: "o", processorPaymentID: "p", amount: money) },
                { try await server.void(processor: "square", reference: "o", processorPaymentID: "p") },
                { _ = try await server.refund(squareRefund) },
                { _ = try await server.lookUpRefund(processor: "square", processorPaymentID: "p", idempotencyKey: "k", processorRefundID: nil) },
                { _ = try await square.payments(referenceID: "o", locationID: "L") as [SquareAPI.Payment] },
                { try await SquareRESTServerLookup(square).cancelPayment(byIdempotencyKey: "k") },
                { try await server.capture(processor: "adyen", reference: "o", processorPaymentID: "x", amount: money) },
            ]
            for operation in operations {
                do {
                    try await operation()
                } catch {
                    produced += Self.strings(error)
                    produced.append(error.localizedDescription)
                }
            }
            produced += Self.strings(stripe) + Self.strings(square) + Self.strings(server)
            produced += transport.requests.flatMap { Self.strings($0) }
        }
        produced += Self.strings(Credential(Self.stripeSecret))
        #expect(produced.count > 300)
        for text in produced {
            #expect(!text.contains(Self.stripeSecret) && !text.contains(Self.squareSecret), "leaked in: \(text.prefix(300))")
            #expect(!text.contains("SECRET_"), "part of a secret leaked in: \(text.prefix(300))")
        }
        #expect(produced.contains { $0.contains("[redacted]") }, "the echoed secret was scrubbed, not dropped silently")
    }
}
