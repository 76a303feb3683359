import Foundation
import Hummingbird
import Logging
import NIOCore
import TenderServer
import TenderWire

/// The request context: Hummingbird's, with the client's address (for the failure rate limit).
public struct MerchantRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// A context for a request handed to the router in process (tests), from `remoteAddress`.
    init(logger: Logger, remoteAddress: SocketAddress? = nil) {
        struct InProcessSource: RequestContextSource { let logger: Logger }
        coreContext = .init(source: InProcessSource(logger: logger))
        self.remoteAddress = remoteAddress
    }

    /// The address failures are counted against.
    var client: String { remoteAddress?.ipAddress ?? "local" }
}

/// The merchant's server: device enrolment and authentication, the administrator's routes, and Tender's routes
/// (``TenderServer/TenderRoutes``) behind them with the ``MerchantAuthorizer`` and the audit trail.
///
/// | route | who | what |
/// |---|---|---|
/// | `GET /health` | anyone | `ok`, and whether this is test mode |
/// | `POST /admin/enrolment-codes` | administrator | a one-time code for a location and a role |
/// | `GET /admin/devices`, `POST /admin/devices/{id}/revoke` | administrator | the registry |
/// | `GET /admin/audit?location=…&day=YYYY-MM-DD` | administrator | the audit trail of a location's day (UTC) |
/// | `POST /v1/devices/enrol` | a device with a code | the device token (shown once) |
/// | `POST /v1/fleet/reports` | an enrolled device | its fleet report (money not yet safe on it) |
/// | `GET /fleet`, `GET /v1/fleet` | administrator | the fleet page (HTML, Basic or bearer) and its JSON twin |
/// | `POST /webhooks/stripe`, `POST /webhooks/square` | the vendor (its signature) | the vendors' events |
/// | every other `/v1/…` | an enrolled device | Tender's routes |
public struct MerchantApp: Sendable {
    public let configuration: MerchantConfiguration
    public let store: any MerchantStore
    let routes: TenderRoutes
    let failures: RateLimiter
    let refunds = KeyedLock()
    let fleetReports = FleetReportCache()
    let now: @Sendable () -> Date
    /// The Square seller's token, refreshed when due (``MerchantConfiguration/squareOAuth``); nil without it.
    public let squareTokens: SquareTokenKeeper?

    public init(configuration: MerchantConfiguration, store: any MerchantStore,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.configuration = configuration
        self.store = store
        self.now = now
        failures = RateLimiter(limit: configuration.rateLimit, window: configuration.rateLimitWindow, now: now)
        var signIn: (@Sendable (LedgerScope) async throws -> Credential)?
        var square = configuration.square
        if let oauth = configuration.squareOAuth {
            let keeper = SquareTokenKeeper(settings: oauth, initial: configuration.squareInitialToken, store: store,
                                           sealer: configuration.tokenSealer, now: now)
            squareTokens = keeper
            signIn = { _ in try await keeper.token().credential }
            // The server's own Square client carries the keeper's current token on every request.
            square = square.map {
                SquareServerClient(accessToken: Credential("replaced-by-the-keeper"), configuration: $0.configuration,
                                   transport: keeper.transport())
            }
        } else {
            squareTokens = nil
            if let token = configuration.squareAccessToken { signIn = { _ in token } }
        }
        routes = TenderRoutes(
            stripe: configuration.stripe, stripeAccountID: configuration.stripeAccountID,
            square: square, squareMerchantID: configuration.squareMerchantID,
            squareSignIn: signIn,
            authorizer: MerchantAuthorizer(policy: configuration.policy, store: store, now: now))
    }

    /// The router with every route.
    public func router() -> Router<MerchantRequestContext> {
        let router = Router(context: MerchantRequestContext.self)
        let testMode = configuration.testMode
        router.get("/health") { _, _ in
            Self.json(200, ["status": "ok", "mode": testMode ? "TEST MODE" : "production"], testMode: testMode)
        }
        addAdminRoutes(to: router)
        router.post("/v1/devices/enrol") { request, context in await enrol(request, context: context) }
        addFleetRoutes(to: router)
        addWebhookRoutes(to: router)
        for method in [HTTPRequest.Method.get, .post] {
            router.on("/v1/**", method: method) { request, context in await tender(request, context: context) }
        }
        return router
    }

    /// The Hummingbird application on the configured host and port; `onRunning` receives the bound port (which
    /// port 0 picks).
    public func application(logger: Logger, onRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol {
        Application(router: router(),
                    configuration: .init(address: .hostname(configuration.host, port: configuration.port),
                                         serverName: "merchant-server"),
                    onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
                    logger: logger)
    }

    // MARK: - Answers

    /// A JSON answer; in test mode every answer carries `X-Tender-Mode: test`.
    static func json<T: Encodable>(_ status: Int, _ value: T, testMode: Bool, noStore: Bool = false) -> Response {
        let body = (try? MerchantJSON.encoder.encode(value)) ?? Data("{}".utf8)
        var headers: HTTPFields = [.contentType: "application/json"]
        if testMode { headers[Self.modeHeader] = "test" }
        if noStore { headers[.cacheControl] = "no-store" }
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// An error answer, shaped like TenderRoutes' (`{"error": PaymentError}`).
    func failure(_ status: Int, _ code: PaymentError.Code, _ message: String,
                 recovery: PaymentError.Recovery = .fixIntegration) -> Response {
        Self.json(status, MerchantBodies.ErrorBody(error: PaymentError(code, recovery: recovery, phase: .authorization,
                                                                       message: message)),
                  testMode: configuration.testMode)
    }

    static let modeHeader = HTTPFields.Element.Name("X-Tender-Mode")!

    /// The bearer token of the request, if any.
    static func bearer(_ request: Request) -> String? {
        guard let value = request.headers[.authorization], value.lowercased().hasPrefix("bearer ") else { return nil }
        let token = value.dropFirst("bearer ".count).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// The request's body, at most `limit` bytes (nil when larger).
    static func body(_ request: Request, limit: Int = 1 << 20) async -> Data? {
        var request = request
        guard let buffer = try? await request.collectBody(upTo: limit) else { return nil }
        return Data(buffer.readableBytesView)
    }
}

/// One lock per key (a device's refunds run one at a time, so its daily total is read after its previous refund is
/// recorded).
actor KeyedLock {
    private var held: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    func run<T: Sendable>(_ key: String, _ body: @Sendable () async -> T) async -> T {
        await acquire(key)
        let result = await body()
        release(key)
        return result
    }

    private func acquire(_ key: String) async {
        if held.insert(key).inserted { return }
        await withCheckedContinuation { waiting[key, default: []].append($0) }
    }

    private func release(_ key: String) {
        if var queue = waiting[key], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[key] = queue.isEmpty ? nil : queue
            next.resume()
        } else {
            held.remove(key)
        }
    }
}
