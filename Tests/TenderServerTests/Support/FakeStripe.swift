import Foundation
@testable import TenderServer

/// A small stateful Stripe in this process (intents, capture, cancel, refunds, Search, connection tokens), for the
/// routes' test day and refusals: the vendor end of the in-process hop. It records every request it was sent.
final class FakeStripe: HTTPTransport, @unchecked Sendable {
    static let secretKey = "sk_test_routes_secret_key_0123456789"
    static let tokenSecret = "pst_test_connection_token_secret_42"
    private let lock = NSLock()
    private var intents: [String: [String: Any]] = [:]
    private var refunds: [[String: Any]] = []
    private var received: [HTTPRequest] = []
    private var counter = 0

    var client: StripeServerClient {
        StripeServerClient(secretKey: Credential(Self.secretKey),
                           configuration: .init(baseURL: URL(string: "http://127.0.0.1:9")!), transport: self)
    }

    var requests: [HTTPRequest] { lock.withLock { received } }

    /// Adds an authorized card-present intent taken at `location` (`metadata.tender_location`).
    @discardableResult
    func addIntent(reference: String, location: String?, amount: Int64 = 1_000, status: String = "requires_capture")
        -> String {
        lock.withLock {
            counter += 1
            let id = "pi_fake\(counter)"
            var metadata = ["tender_reference": reference]
            metadata["tender_location"] = location
            intents[id] = ["id": id, "object": "payment_intent", "amount": amount, "amount_capturable": amount,
                           "capture_method": "manual", "created": 1_700_000_000 + counter, "currency": "usd",
                           "livemode": false, "metadata": metadata, "status": status,
                           "payment_method_types": ["card_present"]]
            return id
        }
    }

    func status(_ id: String) -> String? { lock.withLock { intents[id]?["status"] as? String } }

    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        lock.withLock {
            received.append(request)
            return answer(request)
        }
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let parts = request.url.path.split(separator: "/").map(String.init)
        let form = request.form
        let query = Dictionary((URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? [])
            .map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        switch (request.method, parts) {
        case ("POST", ["v1", "terminal", "connection_tokens"]):
            var token: [String: Any] = ["object": "terminal.connection_token", "secret": Self.tokenSecret]
            token["location"] = form["location"]
            return ok(token)
        case ("GET", ["v1", "payment_intents", "search"]):
            let wanted = query["query"] ?? ""
            let data = intents.values.filter { intent in
                let metadata = intent["metadata"] as? [String: String] ?? [:]
                return metadata.contains { wanted == "metadata['\($0.key)']:'\($0.value)'" }
            }.sorted { ($0["created"] as? Int ?? 0) < ($1["created"] as? Int ?? 0) }
            return ok(["object": "search_result", "data": data, "has_more": false])
        case ("GET", let path) where path.count == 3 && path[1] == "payment_intents":
            guard let intent = intents[path[2]] else { return missing(path[2]) }
            return ok(intent)
        case ("POST", let path) where path.count == 4 && path[1] == "payment_intents":
            guard var intent = intents[path[2]] else { return missing(path[2]) }
            let status = intent["status"] as? String
            if path[3] == "capture" {
                guard status == "requires_capture" else { return invalidState(path[2], status) }
                intent["status"] = "succeeded"
                intent["amount_received"] = Int64(form["amount_to_capture"] ?? "") ?? intent["amount"]
                intent["amount_capturable"] = 0
            } else if status != "canceled" {
                guard status == "requires_capture" || status == "requires_payment_method" else {
                    return invalidState(path[2], status)
                }
                intent["status"] = "canceled"
            }
            intents[path[2]] = intent
            return ok(intent)
        case ("GET", ["v1", "refunds"]):
            let mine = refunds.filter { $0["payment_intent"] as? String == query["payment_intent"] }
            return ok(["object": "list", "data": mine, "has_more": false])
        case ("GET", let path) where path.count == 3 && path[1] == "refunds":
            guard let refund = refunds.first(where: { $0["id"] as? String == path[2] }) else { return missing(path[2]) }
            return ok(refund)
        case ("POST", ["v1", "refunds"]):
            let metadata = Dictionary(form.filter { $0.key.hasPrefix("metadata[") }
                .map { (String($0.key.dropFirst(9).dropLast()), $0.value) }, uniquingKeysWith: { _, last in last })
            counter += 1
            let refund: [String: Any] = ["id": "re_fake\(counter)", "object": "refund",
                                         "amount": Int64(form["amount"] ?? "") ?? 0, "created": 1_700_000_000 + counter,
                                         "currency": "usd", "metadata": metadata,
                                         "payment_intent": form["payment_intent"] ?? "", "status": "succeeded"]
            refunds.append(refund)
            return ok(refund)
        default:
            return HTTPResponse(status: 404, body: Data(#"{"error":{"type":"invalid_request_error","message":"Unrecognized request URL."}}"#.utf8))
        }
    }

    private func ok(_ object: [String: Any]) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["Request-Id": "req_fake"],
                     body: try! JSONSerialization.data(withJSONObject: object))
    }

    private func missing(_ id: String) -> HTTPResponse {
        HTTPResponse(status: 404, body: Data(#"{"error":{"type":"invalid_request_error","code":"resource_missing","message":"No such object: '\#(id)'"}}"#.utf8))
    }

    private func invalidState(_ id: String, _ status: String?) -> HTTPResponse {
        HTTPResponse(status: 400, body: Data(#"{"error":{"type":"invalid_request_error","code":"payment_intent_unexpected_state","message":"This PaymentIntent (\#(id)) is \#(status ?? "unknown")."}}"#.utf8))
    }
}
