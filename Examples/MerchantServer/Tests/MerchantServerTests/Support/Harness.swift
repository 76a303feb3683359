import Foundation
import Hummingbird
import Logging
import NIOCore
import TenderServer
import TenderWire
@testable import MerchantServer

/// A merchant server in this process over a store and the fake Stripe: requests go to its router directly.
struct Harness {
    static let adminToken = "admin-token-for-tests-0123456789abcdef"
    let server: MerchantApp
    let stripe: FakeStripe
    let responder: RouterResponder<MerchantRequestContext>
    let clock: TestClock
    /// Every request and answer, for the OpenAPI check (`OpenAPIExchangeTests`).
    let exchanges = ExchangeLog()

    init(store: any MerchantStore, stripe: FakeStripe = FakeStripe(), policy: RefundPolicy = .standard,
         rateLimit: Int = 10, clock: TestClock = TestClock(),
         configure: (inout MerchantConfiguration) -> Void = { _ in }) {
        self.stripe = stripe
        self.clock = clock
        var configuration = MerchantConfiguration(
            testMode: true, adminTokenHash: Secrets.hash(Self.adminToken), merchantID: "acct_test_merchant",
            stripe: stripe.client, stripeAccountID: "acct_test_merchant", policy: policy, rateLimit: rateLimit)
        configure(&configuration)
        server = MerchantApp(configuration: configuration, store: store, now: { clock.now })
        responder = server.router().buildResponder()
    }

    struct Answer {
        var status: Int
        var body: Data
        var headers: HTTPFields
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var errorMessage: String { (json["error"] as? [String: Any])?["message"] as? String ?? "" }
    }

    func call(_ method: HTTPRequest.Method, _ path: String, token: String? = nil, body: Data? = nil,
              client: String = "10.0.0.1") async throws -> Answer {
        var head = HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1", path: path)
        if let token { head.headerFields[.authorization] = "Bearer \(token)" }
        if body != nil { head.headerFields[.contentType] = "application/json" }
        let request = Request(head: head, body: .init(buffer: ByteBuffer(bytes: body ?? Data())))
        let address = try SocketAddress(ipAddress: client, port: 4000)
        let response = try await responder.respond(
            to: request, context: MerchantRequestContext(logger: StoreKind.logger, remoteAddress: address))
        let box = Collected()
        try await response.body.write(Collector(box: box))
        exchanges.record(method: method.rawValue, path: path, requestHeaders: head.headerFields, requestBody: body,
                         status: response.status.code, responseHeaders: response.headers, responseBody: box.data)
        return Answer(status: response.status.code, body: box.data, headers: response.headers)
    }

    /// A request with `authorization` as its `Authorization` header, as a browser sends it (Basic).
    func callWithHeader(_ method: HTTPRequest.Method, _ path: String, authorization: String) async throws -> Answer {
        var head = HTTPRequest(method: method, scheme: "http", authority: "127.0.0.1", path: path)
        head.headerFields[.authorization] = authorization
        let response = try await responder.respond(
            to: Request(head: head, body: .init(buffer: ByteBuffer())),
            context: MerchantRequestContext(logger: StoreKind.logger,
                                            remoteAddress: try SocketAddress(ipAddress: "10.0.0.1", port: 4000)))
        let box = Collected()
        try await response.body.write(Collector(box: box))
        return Answer(status: response.status.code, body: box.data, headers: response.headers)
    }

    func call<T: Encodable>(_ method: HTTPRequest.Method, _ path: String, token: String? = nil, json: T,
                            client: String = "10.0.0.1") async throws -> Answer {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return try await call(method, path, token: token, body: try encoder.encode(json), client: client)
    }

    /// A new code for `location` and `role`, from the administrator.
    func code(location: String, role: String) async throws -> String {
        let answer = try await call(.post, "/admin/enrolment-codes", token: Self.adminToken,
                                    json: MerchantBodies.NewCode(locationID: location, role: role))
        guard answer.status == 201, let code = answer.json["code"] as? String else {
            throw StoreError("no code: \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        }
        return code
    }

    /// An enrolled device: its id and token.
    func enrol(location: String, role: String, name: String = "till") async throws -> (id: String, token: String) {
        let answer = try await call(.post, "/v1/devices/enrol",
                                    json: ["code": try await code(location: location, role: role), "name": name])
        guard answer.status == 201, let id = answer.json["deviceID"] as? String,
              let token = answer.json["token"] as? String else {
            throw StoreError("not enrolled: \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        }
        return (id, token)
    }

    /// An idempotency key of Tender's form derived in the device's scope (the routes refuse any other: issue 28
    /// item 8), ending in `tag`.
    static func key(_ tag: String, location: String = "tml_A", reference: String = "order") -> String {
        "acct_test_merchant/\(location)/\(reference)/1/\(tag)"
    }

    /// A refund of `intent` with the key ``key(_:location:reference:)`` makes of `key`, for a device at `location`.
    func refund(_ intent: String, minor: Int64, key: String, token: String, location: String = "tml_A") async throws
        -> Answer {
        try await call(.post, "/v1/refunds", token: token, json: RefundRequest(
            processor: "stripe", reference: "order", processorPaymentID: intent,
            amount: Money(minorUnits: minor, currency: .usd), idempotencyKey: Self.key(key, location: location)))
    }
}

/// A clock the tests move.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var time: Date
    init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { time = start }
    var now: Date { lock.withLock { time } }
    func advance(_ seconds: TimeInterval) { lock.withLock { time += seconds } }
}

final class Collected: @unchecked Sendable { var data = Data() }

struct Collector: ResponseBodyWriter {
    let box: Collected
    mutating func write(_ buffer: ByteBuffer) async throws { box.data.append(contentsOf: buffer.readableBytesView) }
    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// Waits (up to 10 s of wall time) until `condition` holds.
func eventually(_ condition: () async -> Bool) async -> Bool {
    for _ in 0..<200 {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return await condition()
}
