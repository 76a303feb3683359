import Foundation
import TenderServer

/// A test-mode Stripe in this process, for the package's tests and its benchmark (`merchant-bench`): a small stateful
/// Stripe (card-present intents, capture, refunds) behind TenderServer's ``TenderServer/HTTPTransport``, that replays
/// a request sent again with the same `Idempotency-Key` (Stripe's documented behaviour) and counts what it did, so a
/// caller can check what the vendor holds (one capture, the refunded total), not only what the device was told. It
/// refuses what Stripe refuses here (capturing an intent not awaiting capture, refunding more than was received, an
/// unknown intent). Not a Stripe simulator for devices: intents are added with ``addIntent(location:amount:status:)``.
public final class TestModeStripe: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var intents: [String: [String: Any]] = [:]
    private var replies: [String: TenderHTTPResponse] = [:]
    private(set) var refundedMinor: [String: Int64] = [:]
    private(set) var captures = 0
    private var refunds: [[String: Any]] = []
    private var counter = 0

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
            intents[id] = ["id": id, "object": "payment_intent", "amount": amount,
                           "amount_capturable": status == "requires_capture" ? amount : 0,
                           "amount_received": status == "succeeded" ? amount : 0, "capture_method": "manual",
                           "created": 1_700_000_000 + counter, "currency": "usd", "livemode": false,
                           "metadata": ["tender_location": location, "tender_reference": "order-\(counter)"],
                           "status": status, "payment_method_types": ["card_present"]]
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
            guard intent["status"] as? String == "requires_capture" else {
                return TenderHTTPResponse(status: 400, body: Data(#"{"error":{"type":"invalid_request_error","code":"payment_intent_unexpected_state","message":"This PaymentIntent could not be captured because it has a status of \#(intent["status"] ?? "")."}}"#.utf8))
            }
            captures += 1
            let amount = Int64(form["amount_to_capture"] ?? "") ?? intent["amount"] as? Int64 ?? 0
            intent["status"] = "succeeded"
            intent["amount_received"] = amount
            intent["amount_capturable"] = 0
            intents[path[2]] = intent
            return ok(intent)
        case ("GET", ["v1", "refunds"]):
            let wanted = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?
                .first { $0.name == "payment_intent" }?.value
            return ok(["object": "list", "data": refunds.filter { $0["payment_intent"] as? String == wanted },
                       "has_more": false])
        case ("POST", ["v1", "refunds"]):
            let id = form["payment_intent"] ?? ""
            guard let intent = intents[id] else { return missing(id) }
            let amount = Int64(form["amount"] ?? "") ?? 0
            let received = intent["amount_received"] as? Int64 ?? 0
            guard amount > 0, amount + (refundedMinor[id] ?? 0) <= received else {
                return TenderHTTPResponse(status: 400, body: Data(#"{"error":{"type":"invalid_request_error","message":"Refund amount is greater than unrefunded amount on charge."}}"#.utf8))
            }
            refundedMinor[id, default: 0] += amount
            counter += 1
            let metadata = Dictionary(form.filter { $0.key.hasPrefix("metadata[") }
                .map { (String($0.key.dropFirst(9).dropLast()), $0.value) }, uniquingKeysWith: { _, last in last })
            let refund: [String: Any] = ["id": "re_merchant\(counter)", "object": "refund", "amount": amount,
                                         "created": 1_700_000_000 + counter, "currency": "usd",
                                         "metadata": metadata, "payment_intent": id, "status": "succeeded"]
            refunds.append(refund)
            return ok(refund)
        default:
            return TenderHTTPResponse(status: 404, body: Data(#"{"error":{"type":"invalid_request_error","message":"Unrecognized request URL."}}"#.utf8))
        }
    }

    private func ok(_ object: [String: Any]) -> TenderHTTPResponse {
        TenderHTTPResponse(status: 200, headers: ["Request-Id": "req_merchant"],
                           body: try! JSONSerialization.data(withJSONObject: object))
    }

    private func missing(_ id: String) -> TenderHTTPResponse {
        TenderHTTPResponse(status: 404, body: Data(#"{"error":{"type":"invalid_request_error","code":"resource_missing","message":"No such payment_intent: '\#(id)'"}}"#.utf8))
    }
}
