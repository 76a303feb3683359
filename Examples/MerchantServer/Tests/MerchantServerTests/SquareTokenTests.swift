import Foundation
import Testing
import TenderBackend
import TenderServer
import TenderWire
@testable import MerchantServer

@Suite("The Square seller's token: refreshed against the Square peer before it expires, sealed in the store",
       .enabled(if: SquarePeer.runs))
struct SquareTokenTests {
    @Test("a token near its expiry is refreshed once for ten callers; the store holds it sealed; a second instance uses it without refreshing",
          arguments: StoreKind.available)
    func refreshOnce(kind: StoreKind) async throws {
        let peer = try SquarePeer.fromEnvironment()
        let stores = try await kind.makeStores(2)
        for store in stores { try await store.migrate() }
        let sealer = TokenSealer()
        let soon = try await peer.issueToken(expiresIn: 120)
        let grantsBefore = try await peer.grants()
        let keeper = SquareTokenKeeper(settings: peer.settings(), initial: soon, store: stores[0], sealer: sealer)
        let tokens = try await withThrowingTaskGroup(of: SquareAccessToken.self) { group in
            for _ in 0..<10 { group.addTask { try await keeper.token() } }
            return try await group.reduce(into: [SquareAccessToken]()) { $0.append($1) }
        }
        let fresh = try #require(tokens.first)
        #expect(Set(tokens.map(\.token)).count == 1 && fresh.token != soon.token)
        #expect(fresh.expiresAt.timeIntervalSinceNow > 29 * 24 * 3600)
        // One refresh for ten callers (other tests may refresh at the same peer meanwhile: the peer's count is a
        // lower bound; the keeper's own count is exact).
        #expect(await keeper.refreshes == 1)
        #expect(try await peer.grants() >= grantsBefore + 1)
        #expect(try await peer.status(with: fresh.token).0 == 200)
        #expect(!String(describing: fresh).contains(fresh.token))

        // At rest: sealed, not the token's text; the merchant id is bound to the box.
        let sealed = try #require(try await stores[1].sealedSquareToken(merchantID: ""))
        let raw = try #require(Data(base64Encoded: sealed.sealed))
        #expect(!sealed.sealed.contains(fresh.token) && raw.range(of: Data(fresh.token.utf8)) == nil)
        #expect(try sealer.open(sealed) == fresh)
        var moved = sealed
        moved.merchantID = "another-seller"
        #expect(throws: SquareTokenError.self) { try sealer.open(moved) }

        // Another instance on the same database and key: the stored token, no refresh.
        let other = SquareTokenKeeper(settings: peer.settings(), initial: soon, store: stores[1], sealer: sealer)
        #expect(try await other.token() == fresh)
        #expect(await other.refreshes == 0)
        // An older token never replaces a later one in the store.
        let older = try sealer.seal(soon, merchantID: "", at: Date())
        #expect(try await stores[1].storeSquareToken(older) == sealed)
    }

    @Test("a refused refresh says so without the secret; the held token is kept until it expires")
    func refused() async throws {
        let peer = try SquarePeer.fromEnvironment()
        let store = try await StoreKind.sqlite.makeStore()
        let secret = "wrong-secret-\(UUID().uuidString)"
        let keeper = SquareTokenKeeper(settings: peer.settings(secret: secret), initial: nil, store: store,
                                       sealer: TokenSealer())
        do {
            _ = try await keeper.token()
            Issue.record("a refresh with a wrong secret succeeded")
        } catch let error as SquareTokenError {
            #expect(error.description.contains("HTTP 401") && !error.description.contains(secret))
        }
        #expect(try await store.sealedSquareToken(merchantID: "") == nil)
    }

    @Test("through the server: an expired token is replaced before the sign-in hand-off and the capture")
    func throughTheServer() async throws {
        let peer = try SquarePeer.fromEnvironment()
        let expired = try await peer.issueToken(expiresIn: -1)
        let refused = try await peer.status(with: expired.token)
        #expect(refused.0 == 401 && refused.1 == "ACCESS_TOKEN_EXPIRED")
        let store = try await StoreKind.sqlite.makeStore()
        // The server's clock is the wall clock here: Square's expiry times are.
        let harness = Harness(store: store, clock: TestClock(start: Date())) { configuration in
            configuration.square = SquareServerClient(accessToken: Credential(expired.token),
                                                      configuration: .init(baseURL: peer.url))
            configuration.squareOAuth = peer.settings()
            configuration.squareInitialToken = expired
        }
        let device = try await harness.enrol(location: "L_TOKENS", role: "cashier")
        let signIn = try await harness.call(.post, "/v1/square/authorization", token: device.token)
        #expect(signIn.status == 200)
        let handedOut = try #require(signIn.json["accessToken"] as? String)
        #expect(handedOut != expired.token)
        let accepted = try await peer.status(with: handedOut)
        #expect(accepted.0 == 200)

        let payment = try await peer.seedPayment(location: "L_TOKENS", amount: 1_500)
        let capture = try await harness.call(.post, "/v1/payments/capture", token: device.token, json: CaptureRequest(
            processor: "square", reference: "order", processorPaymentID: payment,
            amount: Money(minorUnits: 1_500, currency: .usd),
            idempotencyKey: Harness.key("cap-token", location: "L_TOKENS")))
        #expect(capture.status == 204, "\(String(decoding: capture.body, as: UTF8.self))")
        #expect(await harness.server.squareTokens?.refreshes == 1)
        let audit = try await store.audit(locationID: "L_TOKENS", from: .distantPast, to: .distantFuture)
        #expect(audit.map(\.operation).sorted() == ["capture", "signIn"])
    }
}
