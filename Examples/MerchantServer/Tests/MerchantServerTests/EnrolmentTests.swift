import Foundation
import Testing
import TenderWire
@testable import MerchantServer

@Suite("Enrolment and device authentication")
struct EnrolmentTests {
    @Test("a code enrols one device, whose token then reaches Tender's routes as its location", arguments: StoreKind.available)
    func enrolOnce(kind: StoreKind) async throws {
        let harness = Harness(store: try await kind.makeStore())
        let code = try await harness.code(location: "tml_A", role: "cashier")
        let first = try await harness.call(.post, "/v1/devices/enrol", json: ["code": code.lowercased()])
        #expect(first.status == 201)
        #expect(first.json["locationID"] as? String == "tml_A" && first.json["role"] as? String == "cashier")
        #expect(first.headers[.cacheControl] == "no-store")
        let again = try await harness.call(.post, "/v1/devices/enrol", json: ["code": code])
        #expect(again.status == 401 && again.errorCode == "not_authorized")
        // The token authenticates: a lookup of the device's own location's payment goes through.
        let token = try #require(first.json["token"] as? String)
        let intent = harness.stripe.addIntent(location: "tml_A", amount: 1_000)
        #expect(try await harness.call(.get, "/v1/stripe/payment-intents/\(intent)", token: token).status == 200)
        // The store holds the token's hash, never the token.
        let devices = try await harness.server.store.devices(locationID: "tml_A")
        #expect(devices.count == 1 && devices[0].tokenHash == Secrets.hash(token) && devices[0].tokenHash != token)
    }

    @Test("ten devices racing for one code: exactly one is enrolled", arguments: StoreKind.available)
    func racingCode(kind: StoreKind) async throws {
        let harness = Harness(store: try await kind.makeStore(), rateLimit: 100)
        let code = try await harness.code(location: "tml_A", role: "cashier")
        let statuses = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do { return try await harness.call(.post, "/v1/devices/enrol", json: ["code": code]).status } catch {
                        print("enrol request threw:", String(reflecting: error))
                        return -1
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 201 }.count == 1 && statuses.filter { $0 == 401 }.count == 9)
        #expect(try await harness.server.store.devices(locationID: nil).count == 1)
    }

    @Test("an expired code is refused", arguments: StoreKind.available)
    func expiredCode(kind: StoreKind) async throws {
        let harness = Harness(store: try await kind.makeStore())
        let code = try await harness.code(location: "tml_A", role: "cashier")
        harness.clock.advance(3_601)
        let answer = try await harness.call(.post, "/v1/devices/enrol", json: ["code": code])
        #expect(answer.status == 401 && answer.errorMessage.contains("expired"))
    }

    @Test("authentication failures: no token, an unknown token, a wrong administrator token")
    func authenticationFailures() async throws {
        let harness = Harness(store: try await StoreKind.sqlite.makeStore())
        let none = try await harness.call(.post, "/v1/stripe/connection-token")
        #expect(none.status == 401 && none.errorCode == "not_authorized")
        let unknown = try await harness.call(.post, "/v1/stripe/connection-token", token: Secrets.token())
        #expect(unknown.status == 401 && unknown.errorMessage == "The device token is not known.")
        let admin = try await harness.call(.get, "/admin/devices", token: "not-the-admin-token")
        #expect(admin.status == 401)
        // A device token is not an administrator's.
        let device = try await harness.enrol(location: "tml_A", role: "manager")
        #expect(try await harness.call(.get, "/admin/devices", token: device.token).status == 401)
        #expect(try await harness.call(.get, "/admin/devices", token: Harness.adminToken).status == 200)
    }

    @Test("guessing is rate-limited: past the limit even the right code is refused (429) until the window ends")
    func rateLimited() async throws {
        let harness = Harness(store: try await StoreKind.sqlite.makeStore(), rateLimit: 5)
        let code = try await harness.code(location: "tml_A", role: "cashier")
        for guess in 0..<5 {
            let answer = try await harness.call(.post, "/v1/devices/enrol", json: ["code": "WRONG-CODE-\(guess)"],
                                                client: "192.0.2.7")
            #expect(answer.status == 401)
        }
        let limited = try await harness.call(.post, "/v1/devices/enrol", json: ["code": code], client: "192.0.2.7")
        #expect(limited.status == 429 && limited.errorCode == "rate_limited")
        #expect(limited.headers[.retryAfter] == "60")
        // Token guessing counts the same way.
        #expect(try await harness.call(.post, "/v1/stripe/connection-token", token: Secrets.token(),
                                       client: "192.0.2.7").status == 429)
        // Another address is not limited; after the window the first may try again, and its code still works.
        #expect(try await harness.call(.post, "/v1/devices/enrol", json: ["code": "WRONG"],
                                       client: "192.0.2.8").status == 401)
        harness.clock.advance(61)
        #expect(try await harness.call(.post, "/v1/devices/enrol", json: ["code": code],
                                       client: "192.0.2.7").status == 201)
    }

    @Test("a revoked device is refused at once, by every instance on the same database", arguments: StoreKind.available)
    func revocation(kind: StoreKind) async throws {
        let stores = try await kind.makeStores(2)
        try await stores[0].migrate()
        let stripe = FakeStripe()
        let one = Harness(store: stores[0], stripe: stripe), two = Harness(store: stores[1], stripe: stripe)
        let device = try await one.enrol(location: "tml_A", role: "cashier")
        let intent = stripe.addIntent(location: "tml_A", amount: 500)
        let path = "/v1/stripe/payment-intents/\(intent)"
        #expect(try await one.call(.get, path, token: device.token).status == 200)
        #expect(try await two.call(.get, path, token: device.token).status == 200)
        let revoked = try await two.call(.post, "/admin/devices/\(device.id)/revoke", token: Harness.adminToken)
        #expect(revoked.status == 204)
        for instance in [one, two] {
            let answer = try await instance.call(.get, path, token: device.token)
            #expect(answer.status == 401 && answer.errorMessage == "This device was revoked.")
        }
        let list = try await one.call(.get, "/admin/devices", token: Harness.adminToken)
        let listed = try #require((list.json["devices"] as? [[String: Any]])?.first)
        #expect(listed["revokedAt"] != nil && listed["token"] == nil && listed["tokenHash"] == nil)
        #expect(try await one.call(.post, "/admin/devices/\(device.id)/revoke", token: Harness.adminToken).status == 404)
    }
}
