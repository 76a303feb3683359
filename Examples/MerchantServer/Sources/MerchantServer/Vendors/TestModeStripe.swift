import Foundation
import TenderServer

/// A test-mode Stripe in this process, for the package's tests and its benchmark (`merchant-bench`): a small stateful
/// Stripe (card-present intents, capture, refunds) behind TenderServer's ``TenderServer/HTTPTransport``, that replays
/// a request sent again with the same `Idempotency-Key` (Stripe's documented behaviour) and counts what it did, so a
/// caller can check what the vendor holds (one capture, the refunded total), not only what the device was told. It
/// refuses what Stripe refuses here (capturing an intent not awaiting capture, refunding more than was received, an
/// unknown intent). Not a Stripe simulator for devices: intents are added with ``addIntent(location:amount:status:)``.
public final class TestModeStripe: HTTPTransport, @unchecked Sendable {
    /// A PaymentIntent as Stripe's API returns it (the fields TenderServer reads).
    private struct Intent: Encodable {
        var id: String
        var object = "payment_intent"
        var amount: Int64
        var amount_capturable: Int64
        var amount_received: Int64
        var capture_method = "manual"
        var created: Int
        var currency = "usd"
        var livemode = false
        var metadata: [String: String]
        var status: String
        var payment_method_types = ["card_present"]
    }

    /// A Refund as Stripe's API returns it.
    private struct Refund: Encodable {
        var id: String
        var object = "refund"
        var amount: Int64
        var created: Int
        var currency = "usd"
        var metadata: [String: String]
        var payment_intent: String
        var status = "succeeded"
    }

    private struct List: Encodable {
        var object = "list"
        var data: [Refund]
        var has_more = false
    }

    private let lock = NSLock()
    private var intents: [String: Intent] = [:]
    private var replies: [String: TenderHTTPResponse] = [:]
    private var refundedMinor: [String: Int64] = [:]
    private var captures = 0
    /// Refunds by payment intent (Stripe lists them per intent).
    private var refunds: [String: [Refund]] = [:]
    private var counter = 0
    private let encoder = JSONEncoder()

    public init() {}

    /// A client of this Stripe (its transport), as the server's Stripe client.
    public var client: StripeServerClient {
        StripeServerClient(secretKey: Credential("sk_test_merchant_server_tests"),
                           configuration: .init(baseURL: URL(string: "http://127.0.0.1:9")!), transport: self)
    }

    /// An authorized (or captured) card-present intent taken at `location`.
    public func addIntent(location: String, amount: Int64, status: String = "succeeded") -> String {
        lock.withLock {
            counter += 1
            let id = "pi_merchant\(counter)"
            intents[id] = Intent(id: id, amount: amount,
                                 amount_capturable: status == "requires_capture" ? amount : 0,
                                 amount_received: status == "succeeded" ? amount : 0, created: 1_700_000_000 + counter,
                                 metadata: ["tender_location": location, "tender_reference": "order-\(counter)"],
                                 status: status)
            return id
        }
    }

    /// How many captures it made.
    public var captureCount: Int { lock.withLock { captures } }
    /// The refunded total of an intent, in minor units.
    public func refunded(_ id: String) -> Int64 { lock.withLock { refundedMinor[id] ?? 0 } }

    public func send(_ request: TenderHTTPRequest) async throws(HTTPTransportError) -> TenderHTTPResponse {
        lock.withLock {
            let key = request.headers.first { $0.key.lowercased() == "idempotency-key" }?.value
            if let key, let reply = replies[key] { return reply }
            let reply = answer(request)
            if let key, reply.status < 500 { replies[key] = reply }
            return reply
        }
    }

    private func answer(_ request: TenderHTTPRequest) -> TenderHTTPResponse {
        let parts = request.url.path.split(separator: "/").map(String.init)
        var form: [String: String] = [:]
        for pair in String(decoding: request.body ?? Data(), as: UTF8.self).split(separator: "&") {
            let field = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            if field.count == 2 { form[field[0]] = field[1] }
        }
        switch (request.method, parts) {
        case ("GET", let path) where path.count == 3 && path[1] == "payment_intents":
            guard let intent = intents[path[2]] else { return missing(path[2]) }
            return ok(intent)
        case ("POST", let path) where path.count == 4 && path[1] == "payment_intents" && path[3] == "capture":
            guard var intent = intents[path[2]] else { return missing(path[2]) }
            guard intent.status == "requires_capture" else {
                return failure(#"{"error":{"type":"invalid_request_error","code":"payment_intent_unexpected_state","message":"This PaymentIntent could not be captured because it has a status of \#(intent.status)."}}"#)
            }
            captures += 1
            intent.status = "succeeded"
            intent.amount_received = Int64(form["amount_to_capture"] ?? "") ?? intent.amount
            intent.amount_capturable = 0
            intents[path[2]] = intent
            return ok(intent)
        case ("GET", ["v1", "refunds"]):
            let wanted = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?
                .first { $0.name == "payment_intent" }?.value
            return ok(List(data: refunds[wanted ?? ""] ?? []))
        case ("POST", ["v1", "refunds"]):
            let id = form["payment_intent"] ?? ""
            guard let intent = intents[id] else { return missing(id) }
            let amount = Int64(form["amount"] ?? "") ?? 0
            guard amount > 0, amount + (refundedMinor[id] ?? 0) <= intent.amount_received else {
                return failure(#"{"error":{"type":"invalid_request_error","message":"Refund amount is greater than unrefunded amount on charge."}}"#)
            }
            refundedMinor[id, default: 0] += amount
            counter += 1
            let metadata = Dictionary(form.filter { $0.key.hasPrefix("metadata[") }
                .map { (String($0.key.dropFirst(9).dropLast()), $0.value) }, uniquingKeysWith: { _, last in last })
            let refund = Refund(id: "re_merchant\(counter)", amount: amount, created: 1_700_000_000 + counter,
                                metadata: metadata, payment_intent: id)
            refunds[id, default: []].append(refund)
            return ok(refund)
        default:
            return TenderHTTPResponse(status: 404, body: Data(#"{"error":{"type":"invalid_request_error","message":"Unrecognized request URL."}}"#.utf8))
        }
    }

    private func ok<T: Encodable>(_ object: T) -> TenderHTTPResponse {
        TenderHTTPResponse(status: 200, headers: ["Request-Id": "req_merchant"],
                           body: (try? encoder.encode(object)) ?? Data("{}".utf8))
    }

    private func failure(_ body: String) -> TenderHTTPResponse { TenderHTTPResponse(status: 400, body: Data(body.utf8)) }

    private func missing(_ id: String) -> TenderHTTPResponse {
        TenderHTTPResponse(status: 404, body: Data(#"{"error":{"type":"invalid_request_error","code":"resource_missing","message":"No such payment_intent: '\#(id)'"}}"#.utf8))
    }
}
