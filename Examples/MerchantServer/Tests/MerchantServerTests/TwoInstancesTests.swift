import Foundation
import Testing
import TenderServer
import TenderWire
@testable import MerchantServer

/// Two `merchant-server` processes on one PostgreSQL database, with the Square peer as the vendor: devices enrolled
/// on either, driven against both at once.
@Suite("Two merchant-server processes behind one PostgreSQL", .enabled(if: TwoInstances.runs),
       .timeLimit(.minutes(2)))
struct TwoInstancesTests {
    @Test("every audit row once, a retry on the other instance is the same row, a revocation on one is seen by both, the token refreshed by one is used by the other")
    func twoInstances() async throws {
        try await TwoInstances.run()
    }
}

/// What the two-instance test needs, and the test itself.
enum TwoInstances {
    static var runs: Bool {
        let environment = ProcessInfo.processInfo.environment
        if environment["CI"] == "true" { return true }
        guard environment["MERCHANT_TEST_POSTGRES_URL"] != nil, environment["TENDER_SQUARE_PEER_URL"] != nil else {
            print("merchant-server two-instance test skipped: needs PostgreSQL (Scripts/postgres.sh start) and the "
                + "Square peer (Scripts/peers/peers.sh start)")
            return false
        }
        return true
    }

    static func run() async throws {
        let peer = try SquarePeer.fromEnvironment()
        let database = try await StoreKind.newPostgresDatabase()
        let admin = Secrets.token()
        let environment = ["MERCHANT_ADMIN_TOKEN": admin,
                           "MERCHANT_TOKEN_KEY": Data(Secrets.randomBytes(32)).base64EncodedString(),
                           "TENDER_LOCALSTRIPE_URL": ""]
        let grantsBefore = try await peer.grants()
        // Both start at once: the migrations are applied once (the advisory lock).
        async let first = ServerProcess(arguments: ["--postgres", database], environment: environment)
        async let second = ServerProcess(arguments: ["--postgres", database], environment: environment)
        let servers = try await [first, second]
        defer { servers.forEach { $0.stop() } }
        let location = "L_TWO_\(UUID().uuidString.prefix(6))"

        // Four devices: codes made on one instance, enrolled on the other.
        var devices: [(id: String, token: String)] = []
        for index in 0..<4 {
            let maker = servers[index % 2], taker = servers[(index + 1) % 2]
            let code = try await maker.call("POST", "/admin/enrolment-codes", token: admin,
                                            json: ["locationID": location, "role": "cashier"])
            #expect(code.status == 201)
            let enrolled = try await taker.call("POST", "/v1/devices/enrol", token: nil,
                                                json: ["code": try #require(code.json["code"] as? String)])
            #expect(enrolled.status == 201)
            devices.append((try #require(enrolled.json["deviceID"] as? String),
                            try #require(enrolled.json["token"] as? String)))
        }
        // The first sign-in refreshes the seller's token (the environment gave none); the other instance reads it
        // from the database, sealed under the shared key.
        let signIn = try await servers[0].call("POST", "/v1/square/authorization", token: devices[0].token)
        #expect(signIn.status == 200)
        #expect(try await servers[1].call("POST", "/v1/square/authorization", token: devices[1].token).status == 200)
        // Each process logs its refreshes: one in all (other tests may refresh at the same peer meanwhile).
        let refreshed = "Square seller token refreshed"
        #expect(servers[0].lines(containing: refreshed) == 1 && servers[1].lines(containing: refreshed) == 0)
        #expect(try await peer.grants() >= grantsBefore + 1)

        // Every device captures three payments at once, each on one instance and retried on the other.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (number, device) in devices.enumerated() {
                group.addTask {
                    for sale in 0..<3 {
                        let payment = try await peer.seedPayment(location: location, amount: 1_000 + sale)
                        let reference = "order-\(number)-\(sale)"
                        let body = try JSONEncoder().encode(CaptureRequest(
                            processor: "square", reference: reference, processorPaymentID: payment,
                            amount: Money(minorUnits: Int64(1_000 + sale), currency: .usd),
                            idempotencyKey: "acct_test_merchant/\(location)/\(reference)/1/capture"))
                        let once = try await servers[sale % 2].call("POST", "/v1/payments/capture",
                                                                    token: device.token, body: body)
                        let again = try await servers[(sale + 1) % 2].call("POST", "/v1/payments/capture",
                                                                           token: device.token, body: body)
                        #expect(once.status == 204 && again.status == 204, "\(once.json) \(again.json)")
                    }
                }
            }
            try await group.waitForAll()
        }

        // A device revoked on one instance is refused at once by the other.
        #expect(try await servers[1].call("POST", "/admin/devices/\(devices[3].id)/revoke", token: admin).status == 204)
        #expect(try await servers[0].call("POST", "/v1/square/authorization", token: devices[3].token).status == 401)

        // The audit, read from either instance: each capture once (attempts 2), each sign-in once; nothing else.
        let day = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!,
                                              formatOptions: [.withFullDate])
        for server in servers {
            let audit = try await server.call("GET", "/admin/audit?location=\(location)&day=\(day)", token: admin)
            let entries = try #require(audit.json["entries"] as? [[String: Any]])
            let captures = entries.filter { $0["operation"] as? String == "capture" }
            #expect(captures.count == 12)
            #expect(Set(captures.compactMap { $0["idempotencyKey"] as? String }).count == 12)
            #expect(captures.allSatisfy { $0["attempts"] as? Int == 2 && $0["result"] as? String == "ok" })
            #expect(entries.filter { $0["operation"] as? String == "signIn" }.count == 2)
            #expect(entries.count == 14)
        }
    }
}
