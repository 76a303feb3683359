import Foundation
import Logging
import TenderServer

/// Keeps the Square seller's access token: read from the store (sealed), refreshed with Square's `ObtainToken`
/// once it comes within ``SquareOAuthSettings/refreshMargin`` of expiring, and written back sealed so every instance
/// on the same database uses the newest one. Concurrent callers share one refresh. Devices receive the token only
/// through the sign-in route; the server's own Square client carries it through ``transport(over:)``.
public actor SquareTokenKeeper {
    let settings: SquareOAuthSettings
    let store: any MerchantStore
    let sealer: TokenSealer
    let client: SquareOAuthClient
    let now: @Sendable () -> Date
    let logger: Logger
    private var current: SquareAccessToken?
    private var refreshing: Task<SquareAccessToken, any Error>?
    /// How many refreshes this keeper made (for the logs and the tests).
    public private(set) var refreshes = 0

    /// `initial`: the token the environment gave (used until it nears its expiry; nil: refresh at once unless the
    /// store holds one).
    public init(settings: SquareOAuthSettings, initial: SquareAccessToken?, store: any MerchantStore,
                sealer: TokenSealer, transport: any HTTPTransport = URLSessionTransport(),
                logger: Logger = Logger(label: "merchant-server.square-token"),
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.settings = settings
        self.current = initial
        self.store = store
        self.sealer = sealer
        self.client = SquareOAuthClient(settings: settings, transport: transport)
        self.logger = logger
        self.now = now
    }

    /// A token with more than the margin left: the one held, the store's (another instance may have refreshed), or
    /// a new one from Square. Throws ``SquareTokenError`` when none can be had.
    public func token() async throws -> SquareAccessToken {
        if let held = current, fresh(held) { return held }
        if let refreshing { return try await refreshing.value }
        let task = Task { try await self.obtain() }
        refreshing = task
        defer { refreshing = nil }
        let token = try await task.value
        current = token
        return token
    }

    /// Drops the held token (Square answered that it expired early or was revoked): the next ``token()`` reads the
    /// store or refreshes.
    public func invalidate(_ token: String) {
        if current?.token == token { current = nil }
    }

    private func fresh(_ token: SquareAccessToken) -> Bool {
        token.expiresAt.timeIntervalSince(now()) > settings.refreshMargin
    }

    private func obtain() async throws -> SquareAccessToken {
        if let stored = try await store.sealedSquareToken(merchantID: settings.merchantID),
           let token = try? sealer.open(stored), fresh(token), token != current {
            return token
        }
        let token = try await client.refresh()
        refreshes += 1
        let sealed = try sealer.seal(token, merchantID: settings.merchantID, at: now())
        let kept = try await store.storeSquareToken(sealed)
        logger.info("Square seller token refreshed; expires \(token.expiresAt)")
        // Another instance stored a later one meanwhile: use that one when it opens.
        if kept != sealed, let newer = try? sealer.open(kept), newer.expiresAt > token.expiresAt { return newer }
        return token
    }

    /// A transport for the server's own ``TenderServer/SquareServerClient``: every request carries the keeper's
    /// current token (refreshed when due) in place of the one the client was made with; an answer of 401 drops it.
    public nonisolated func transport(over inner: any HTTPTransport = URLSessionTransport()) -> any HTTPTransport {
        KeeperTransport(keeper: self, inner: inner)
    }
}

/// See ``SquareTokenKeeper/transport(over:)``.
struct KeeperTransport: HTTPTransport {
    let keeper: SquareTokenKeeper
    let inner: any HTTPTransport

    func send(_ request: TenderHTTPRequest) async throws(HTTPTransportError) -> TenderHTTPResponse {
        let token: SquareAccessToken
        do { token = try await keeper.token() } catch {
            // Not sent: no token could be had (the route answers it as the vendor being unreachable).
            throw HTTPTransportError(kind: .cannotConnect, message: "no Square token: \(error)")
        }
        var request = request
        request.headers["Authorization"] = "Bearer \(token.token)"
        let response = try await inner.send(request)
        if response.status == 401 { await keeper.invalidate(token.token) }
        return response
    }
}
