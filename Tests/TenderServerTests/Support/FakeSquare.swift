import Foundation
@testable import TenderServer

/// A small stateful Square Payments API in this process (get, complete, cancel, cancel by key, list, refunds), the
/// vendor end of the routes' in-process Square day and refusals. It records every request it was sent.
final class FakeSquare: HTTPTransport, @unchecked Sendable {
    static let accessToken = "EAAA_server_access_token_0123456789"
    static let sellerToken = "EAAA_seller_oauth_token_for_the_sdk_9876"
    private let lock = NSLock()
    private var payments: [String: [String: Any]] = [:]
    private var refunds: [String: [String: Any]] = [:]
    private var received: [HTTPRequest] = []
    private var counter = 0

    var client: SquareServerClient {
        SquareServerClient(accessToken: Credential(Self.accessToken),
                           configuration: .init(baseURL: URL(string: "http://127.0.0.1:9")!), transport: self)
    }

    var requests: [HTTPRequest] { lock.withLock { received } }

    /// The JSON body of the last request to `path`.
    func lastBody(path: String) -> [String: Any]? {
        requests.last { $0.url.path == path }.flatMap { $0.body }
            .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    @discardableResult
    func addPayment(reference: String, location: String, amount: Int64 = 1_000) -> String {
        lock.withLock {
            counter += 1
            let id = "SQPAY\(counter)"
            payments[id] = ["id": id, "status": "APPROVED", "location_id": location, "reference_id": reference,
                            "amount_money": ["amount": amount, "currency": "USD"],
                            "total_money": ["amount": amount, "currency": "USD"], "source_type": "CARD",
                            "created_at": "2026-11-27T08:00:0\(counter % 10).000Z", "version_token": "v\(counter)"]
            return id
        }
    }

    func status(_ id: String) -> String? { lock.withLock { payments[id]?["status"] as? String } }

    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        lock.withLock {
            received.append(request)
            return answer(request)
        }
    }

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        let parts = request.url.path.split(separator: "/").map(String.init)
        let body = request.body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? [:]
        let query = Dictionary((URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? [])
            .map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        switch (request.method, parts) {
        case ("GET", ["v2", "payments"]):
            let offline = query["is_offline_payment"] == "true"
            let page = payments.values.filter {
                $0["location_id"] as? String == query["location_id"] && !offline
            }.sorted { ($0["id"] as? String ?? "") < ($1["id"] as? String ?? "") }
            return ok(page.isEmpty ? [:] : ["payments": page])
        case ("POST", ["v2", "payments", "cancel"]):
            return ok([:])
        case ("GET", let path) where path.count == 3 && path[1] == "payments":
            guard let payment = payments[path[2]] else { return notFound() }
            return ok(["payment": payment])
        case ("POST", let path) where path.count == 4 && path[1] == "payments":
            guard var payment = payments[path[2]] else { return notFound() }
            payment["status"] = path[3] == "complete" ? "COMPLETED" : "CANCELED"
            payments[path[2]] = payment
            return ok(["payment": payment])
        case ("POST", ["v2", "refunds"]):
            counter += 1
            let id = "SQREF\(counter)"
            let paymentID = body["payment_id"] as? String ?? ""
            let refund: [String: Any] = ["id": id, "status": "PENDING", "payment_id": paymentID,
                                         "location_id": payments[paymentID]?["location_id"] ?? "",
                                         "amount_money": body["amount_money"] ?? [:]]
            refunds[id] = refund
            payments[paymentID]?["refund_ids"] = [id]
            return ok(["refund": refund])
        case ("GET", let path) where path.count == 3 && path[1] == "refunds":
            guard let refund = refunds[path[2]] else { return notFound() }
            return ok(["refund": refund])
        default:
            return notFound()
        }
    }

    private func ok(_ object: [String: Any]) -> HTTPResponse {
        HTTPResponse(status: 200, body: try! JSONSerialization.data(withJSONObject: object))
    }

    private func notFound() -> HTTPResponse {
        HTTPResponse(status: 404, body: Data(#"{"errors":[{"category":"INVALID_REQUEST_ERROR","code":"NOT_FOUND","detail":"Not found."}]}"#.utf8))
    }
}
