import Foundation
import Testing
import Tender
import TenderStripe
@testable import TenderServer

/// What localstripe lacks (Search, connection tokens, refund reasons, error objects of every kind), through an
/// in-process scripted transport: the exact requests sent, and how answers are read.
@Suite("Stripe client, in process")
struct StripeInProcessTests {
    static let intentJSON = #"{"id":"pi_1","amount":500,"capture_method":"manual","created":1700000000,"currency":"usd","livemode":false,"metadata":{"tender_reference":"order-1"},"status":"requires_capture"}"#

    func client(_ transport: ScriptedTransport, mode: StripeServerClient.SearchMode = .searchThenList) -> StripeServerClient {
        StripeServerClient(secretKey: Credential("sk_test_inprocess_secret"),
                           configuration: .init(baseURL: URL(string: "http://127.0.0.1:9")!, searchMode: mode),
                           transport: transport)
    }

    @Test("requests carry the pinned version, bearer auth, bracketed forms and derived idempotency keys")
    func requestShape() async throws {
        let transport = ScriptedTransport(otherwise: ScriptedTransport.json(200, Self.intentJSON))
        let scope = LedgerScope(merchantID: "acct_1", locationID: "tml/2")
        _ = try await client(transport).createPaymentIntent(amount: Money(minorUnits: 500, currency: .usd),
                                                            reference: "order-1", scope: scope, attempt: 2,
                                                            metadata: ["till": "3 & 4"])
        let key = IdempotencyKey.capture(scope: scope, reference: "order-1", paymentAttempt: 2).rawValue
        _ = try await client(transport).capturePaymentIntent(id: "pi_1", amount: Money(minorUnits: 400, currency: .usd),
                                                             idempotencyKey: key)
        let (create, capture) = (transport.requests[0], transport.requests[1])
        #expect(create.headers["Stripe-Version"] == "2023-08-16"
                && create.headers["Idempotency-Key"] == "acct_1/tml%2F2/order-1/2/create")
        #expect(create.headers["Authorization"] == "Bearer sk_test_inprocess_secret")
        #expect(create.form["metadata[tender_reference]"] == "order-1" && create.form["metadata[till]"] == "3 & 4")
        #expect(create.form["payment_method_types[0]"] == "card_present" && create.form["amount"] == "500")
        #expect(capture.url.path == "/v1/payment_intents/pi_1/capture" && capture.form["amount_to_capture"] == "400")
        #expect(capture.headers["Idempotency-Key"] == "acct_1/tml%2F2/order-1/2/capture", "the device's key, unchanged")
    }

    @Test("an empty search is unknown, never absent; hits are found, incomplete")
    func searchIsEventuallyConsistent() async throws {
        let empty = ScriptedTransport([ScriptedTransport.json(200, #"{"object":"search_result","data":[],"has_more":false}"#)])
        #expect(try await client(empty).findPaymentIntents(reference: "order-1") == .unknown)
        let query = try #require(URLComponents(url: empty.requests[0].url, resolvingAgainstBaseURL: false)?.queryItems)
        #expect(query.first { $0.name == "query" }?.value == "metadata['tender_reference']:'order-1'")
        let hit = ScriptedTransport([ScriptedTransport.json(200, #"{"data":[\#(Self.intentJSON)],"has_more":false}"#)])
        let found = try await client(hit).findPaymentIntents(reference: "order-1")
        guard case .found(let intents, let complete) = found else { Issue.record("not found: \(found)"); return }
        #expect(intents.map(\.id) == ["pi_1"] && !complete)
        let again = ScriptedTransport([ScriptedTransport.json(200, #"{"data":[],"has_more":false}"#)])
        #expect(try await StripeRESTServerLookup(client(again)).paymentIntents(metadataKey: "k", value: "v").isEmpty)
    }

    @Test("search unavailable (404) falls back to a consistent list; searchOnly does not")
    func searchFallback() async throws {
        let missing = ScriptedTransport.json(404, #"{"error":{"type":"invalid_request_error","message":"Not Found"}}"#)
        let listed = ScriptedTransport([missing, ScriptedTransport.json(200, #"{"object":"list","data":[],"has_more":false}"#)])
        #expect(try await client(listed).findPaymentIntents(reference: "order-1") == .absent)
        #expect(listed.requests[1].url.path == "/v1/payment_intents")
        await #expect(throws: PaymentError.self) {
            _ = try await client(ScriptedTransport([missing]), mode: .searchOnly).findPaymentIntents(reference: "order-1")
        }
    }

    @Test("connection tokens: scoped by location; the secret never shows in a description")
    func connectionToken() async throws {
        let transport = ScriptedTransport([ScriptedTransport.json(200, #"{"object":"terminal.connection_token","secret":"pst_test_abc123","location":"tml_1"}"#)])
        let token = try await client(transport).createConnectionToken(location: "tml_1")
        #expect(token.secret == "pst_test_abc123" && token.location == "tml_1")
        #expect(transport.requests[0].form == ["location": "tml_1"] && transport.requests[0].url.path == "/v1/terminal/connection_tokens")
        #expect(transport.requests[0].headers["Idempotency-Key"] != nil)
        #expect(!"\(token)".contains("pst_test") && !String(reflecting: token).contains("pst_test"))
    }

    @Test("refund reasons: Stripe's own values go to `reason`, free text to metadata")
    func refundReason() async throws {
        let refund = #"{"id":"re_1","amount":100,"created":1,"currency":"usd","metadata":{},"status":"pending"}"#
        let empty = #"{"object":"list","data":[],"has_more":false}"#
        let transport = ScriptedTransport([ScriptedTransport.json(200, empty), ScriptedTransport.json(200, refund),
                                           ScriptedTransport.json(200, empty), ScriptedTransport.json(200, refund)])
        let c = client(transport)
        _ = try await c.createRefund(paymentIntent: "pi_1", amount: Money(minorUnits: 100, currency: .usd), reference: "o",
                                     idempotencyKey: "o/refund-1", reason: .duplicate)
        let result = try await c.refund(RefundRequest(processor: "stripe", reference: "o", processorPaymentID: "pi_1",
                                                      amount: Money(minorUnits: 100, currency: .usd),
                                                      reason: RefundReason(rawValue: "damaged item"), idempotencyKey: "o/refund-2"))
        #expect(result.status == .pending)
        #expect(transport.requests[1].form["reason"] == "duplicate")
        #expect(transport.requests[3].form["reason"] == nil && transport.requests[3].form["metadata[tender_refund_reason]"] == "damaged item")
        #expect(transport.requests[3].form["metadata[tender_idempotency_key]"] == "o/refund-2")
    }

    @Test("errors keep type, code, decline_code, param and request id; codes are open; status decides the rest",
          arguments: [
            (402, #"{"error":{"type":"card_error","code":"card_declined","decline_code":"insufficient_funds","message":"Declined","param":"payment_method"}}"#, PaymentError.Code.cardDeclined, PaymentError.Recovery.collectAnotherCard),
            (429, #"{"error":{"type":"invalid_request_error","code":"rate_limit","message":"Too many"}}"#, .rateLimited, .waitAndRetry),
            (401, #"{"error":{"type":"invalid_request_error","message":"Invalid API Key"}}"#, .notAuthorized, .fixIntegration),
            (400, #"{"error":{"type":"idempotency_error","message":"Keys for idempotent requests..."}}"#, .duplicateReference, .fixRequest),
            (409, #"{"error":{"type":"invalid_request_error","code":"idempotency_key_in_use"}}"#, .paymentInProgress, .waitAndRetry),
            (400, #"{"error":{"type":"invalid_request_error","code":"brand_new_code_2031","message":"New"}}"#, .unrecognizedVendorError, .retrySamePayment),
            (500, #"{"error":{"type":"api_error","message":"Oops"}}"#, .outcomeUnknown, .retrySamePayment),
          ])
    func errors(status: Int, body: String, code: PaymentError.Code, recovery: PaymentError.Recovery) async throws {
        let transport = ScriptedTransport([ScriptedTransport.json(status, body, headers: ["Request-Id": "req_42"])])
        let error = await #expect(throws: PaymentError.self) {
            _ = try await client(transport).createConnectionToken()
        }
        #expect(error?.code == code && error?.recovery == recovery)
        #expect(error?.vendor?.requestID == "req_42" && error?.vendor?.processor == "stripe")
        if status == 402 {
            #expect(error?.vendor?.name == "card_declined" && error?.vendor?.declineCode == "insufficient_funds")
            #expect(error?.vendor?.category == "card_error" && error?.vendor?.field == "payment_method")
        }
        if code == .unrecognizedVendorError { #expect(error?.vendor?.name == "brand_new_code_2031") }
    }

    @Test("transport failures: never sent → network unavailable; no answer → timed out, retry the same request")
    func transport() async throws {
        let refused = await #expect(throws: PaymentError.self) {
            _ = try await client(ScriptedTransport([ScriptedTransport.failure(.cannotConnect)])).retrievePaymentIntent(id: "pi_1")
        }
        #expect(refused?.code == .networkUnavailable)
        let lost = await #expect(throws: PaymentError.self) {
            _ = try await client(ScriptedTransport([ScriptedTransport.failure(.timedOut)])).retrievePaymentIntent(id: "pi_1")
        }
        #expect(lost?.code == .timedOut && lost?.recovery == .retrySamePayment)
    }

    @Test("conversion: statuses by name; an unknown status is an error, never a guess")
    func conversion() throws {
        var intent = try JSONDecoder().decode(StripeAPI.PaymentIntent.self, from: Data(Self.intentJSON.utf8))
        #expect(try StripeRESTServerLookup.paymentIntent(intent).status == .requiresCapture)
        intent.status = "requires_teleportation"
        #expect(throws: PaymentError.self) { _ = try StripeRESTServerLookup.paymentIntent(intent) }
    }

    @Test("form encoding and fitted idempotency keys")
    func encoding() {
        #expect(FormEncoding.encode(["metadata": .map(["a b": "é&="]), "expand": .array(["x"])])
                == "expand%5B0%5D=x&metadata%5Ba%20b%5D=%C3%A9%26%3D")
        let long = String(repeating: "r", count: 40) + "/refund-12"
        let fitted = IdempotencyKey.fitted(long, maximumLength: 45)
        #expect(fitted.utf8.count == 45 && fitted == IdempotencyKey.fitted(long, maximumLength: 45))
        #expect(fitted != IdempotencyKey.fitted(String(repeating: "r", count: 40) + "/refund-13", maximumLength: 45))
        #expect(IdempotencyKey.fitted("short", maximumLength: 45) == "short")
        // Pinned: the string TenderServer sent before the derivation moved to the core, so a refund recorded then
        // is still sent under the same key.
        #expect(fitted == "rrrrrrrrrrrr~587b39dd2330f53c476e2724d79ec6b3")
    }

    @Test("a refund under a key Stripe holds for another amount is idempotency_error, never that refund; nothing is posted")
    func refundKeyReusedForAnotherAmount() async throws {
        let earlier = #"{"object":"list","data":[{"id":"re_old","amount":300,"created":1,"currency":"usd","metadata":{"tender_idempotency_key":"acct_1/tml_1/o/1/refund-1"},"status":"succeeded"}],"has_more":false}"#
        let transport = ScriptedTransport([ScriptedTransport.json(200, earlier), ScriptedTransport.json(200, earlier)])
        let error = await #expect(throws: PaymentError.self) {
            _ = try await client(transport).refund(RefundRequest(
                processor: "stripe", reference: "o", processorPaymentID: "pi_1", amount: Money(minorUnits: 500, currency: .usd),
                idempotencyKey: "acct_1/tml_1/o/1/refund-1"))
        }
        #expect(error?.code == .duplicateReference && error?.vendor?.name == "idempotency_error")
        #expect(transport.requests.allSatisfy { $0.method == "GET" }, "no refund was created under the reused key")
        // The same amount is the same refund (a retry).
        let same = try await client(transport).refund(RefundRequest(
            processor: "stripe", reference: "o", processorPaymentID: "pi_1", amount: Money(minorUnits: 300, currency: .usd),
            idempotencyKey: "acct_1/tml_1/o/1/refund-1"))
        #expect(same.processorRefundID == "re_old" && same.status == .succeeded)
    }

    @Test("a refund taken on the reader (Interac) is found by the server under the key the device put in its metadata")
    func readerRefundFoundByKey() async throws {
        let key = "acct_1/tml_1/o/1/refund-1"
        let list = #"{"object":"list","data":[{"id":"re_reader","amount":300,"created":1,"currency":"cad","metadata":{"\#(StripeMapping.refundMetadataKey)":"\#(key)"},"status":"succeeded"}],"has_more":false}"#
        let transport = ScriptedTransport(otherwise: ScriptedTransport.json(200, list))
        let found = try await client(transport).lookUpRefund(processor: "stripe", processorPaymentID: "pi_1",
                                                             idempotencyKey: key, processorRefundID: nil)
        #expect(found?.processorRefundID == "re_reader", "the server did not find the reader's refund by its key")
    }
}
