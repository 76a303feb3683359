import Foundation
import Testing
@testable import MerchantServer

@Suite("Command line and launch")
struct OptionsTests {
    @Test("options parse; keys on the command line are refused; --help documents every option")
    func options() throws {
        let options = try Options(arguments: ["--port", "0", "--postgres", "postgres://u@127.0.0.1:5/db",
                                              "--production", "--host", "127.0.0.1"])
        #expect(options.port == 0 && options.postgres == "postgres://u@127.0.0.1:5/db" && options.production)
        #expect(throws: OptionsError.self) { try Options(arguments: ["--stripe-secret-key", "sk_live_x"]) }
        #expect(throws: OptionsError.self) { try Options(arguments: ["--port", "http"]) }
        for option in ["--host", "--port", "--database", "--postgres", "--merchant", "--policy", "--rate-limit",
                       "--production", "--help", "SQUARE_REFRESH_TOKEN", "MERCHANT_TOKEN_KEY"] {
            #expect(Options.usage.contains(option))
        }
        #expect(try Options(arguments: ["--rate-limit", "250"]).rateLimit == 250)
        #expect(throws: OptionsError.self) { try Options(arguments: ["--rate-limit", "0"]) }
        #expect(try Launch.configuration(Options(arguments: ["--rate-limit", "7"]), environment: [:]).0.rateLimit == 7)
    }

    @Test("a token's hash is SHA-256 in lowercase hex (a known answer)")
    func hashKnownAnswer() {
        #expect(Secrets.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Secrets.hash("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("the Square token refresh: all three settings or none, a sealing key in production, never the secret in a description")
    func squareRefreshSettings() throws {
        var production = Options()
        production.production = true
        let base = ["MERCHANT_ADMIN_TOKEN": String(repeating: "a", count: 40), "SQUARE_ACCESS_TOKEN": "EAAA-given",
                    "SQUARE_MERCHANT_ID": "MLSELLER1"]
        let refresh = ["SQUARE_APPLICATION_ID": "sq0idp-app", "SQUARE_APPLICATION_SECRET": "sq0csp-secret-value",
                       "SQUARE_REFRESH_TOKEN": "EQAA-refresh"]
        let key = Data((0..<32).map { UInt8($0) }).base64EncodedString()
        #expect(try Launch.configuration(production, environment: base).0.squareOAuth == nil)
        #expect(throws: OptionsError.self) {   // two of three
            try Launch.configuration(production, environment: base.merging(
                refresh.filter { $0.key != "SQUARE_REFRESH_TOKEN" }) { $1 })
        }
        #expect(throws: OptionsError.self) {   // no key to seal the refreshed token
            try Launch.configuration(production, environment: base.merging(refresh) { $1 })
        }
        #expect(throws: OptionsError.self) {   // a key that is not 32 bytes
            try Launch.configuration(production, environment: base.merging(refresh) { $1 }
                .merging(["MERCHANT_TOKEN_KEY": "c2hvcnQ="]) { $1 })
        }
        let launched = try Launch.configuration(production, environment: base.merging(refresh) { $1 }
            .merging(["MERCHANT_TOKEN_KEY": key, "SQUARE_ACCESS_TOKEN_EXPIRES_AT": "2027-01-01T00:00:00Z"]) { $1 })
        let oauth = try #require(launched.0.squareOAuth)
        #expect(oauth.merchantID == "MLSELLER1" && oauth.applicationID == "sq0idp-app")
        #expect(launched.0.squareInitialToken?.expiresAt == ISO8601DateFormatter().date(from: "2027-01-01T00:00:00Z"))
        for text in [String(describing: oauth), String(describing: launched.0.squareInitialToken!), launched.banner] {
            #expect(!text.contains("sq0csp-secret-value") && !text.contains("EQAA-refresh") && !text.contains("EAAA-given"))
        }
    }

    @Test("test mode is said in the first line; production needs the administrator token and a vendor key")
    func launch() throws {
        let test = try Launch.configuration(Options(), environment: ["TENDER_LOCALSTRIPE_URL": "http://127.0.0.1:1"])
        #expect(test.banner.hasPrefix("merchant-server: TEST MODE") && test.0.testMode && test.0.stripe != nil)
        #expect(test.adminTokenShownOnce?.count == 43)
        var production = Options()
        production.production = true
        #expect(throws: OptionsError.self) { try Launch.configuration(production, environment: [:]) }
        let admin = String(repeating: "a", count: 40)
        #expect(throws: OptionsError.self) {
            try Launch.configuration(production, environment: ["MERCHANT_ADMIN_TOKEN": admin])
        }
        let live = try Launch.configuration(production, environment: [
            "MERCHANT_ADMIN_TOKEN": admin, "STRIPE_SECRET_KEY": "sk_live_x", "STRIPE_ACCOUNT_ID": "acct_1"])
        #expect(!live.0.testMode && live.banner.contains("PRODUCTION") && live.adminTokenShownOnce == nil)
        #expect(live.0.merchantID == "acct_1" && !live.banner.contains("sk_live_x"))
    }
}

@Suite("The policy file")
struct PolicyFileTests {
    @Test("--policy reads a refund policy; an unreadable one stops the launch")
    func policyFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("policy-\(UUID().uuidString).json")
        try Data(#"{"roleRefundMaximum": {"cashier": {"EUR": 2000}}, "deviceDailyRefundTotal": {"EUR": 9000}, "managerRole": "boss"}"#.utf8)
            .write(to: path)
        let options = try Options(arguments: ["--policy", path.path])
        let launched = try Launch.configuration(options, environment: [:])
        #expect(launched.0.policy == RefundPolicy(roleRefundMaximum: ["cashier": ["EUR": 2_000]],
                                                  deviceDailyRefundTotal: ["EUR": 9_000], managerRole: "boss"))
        #expect(throws: OptionsError.self) {
            try Launch.configuration(Options(arguments: ["--policy", "/nonexistent/policy.json"]), environment: [:])
        }
        #expect(Options.usage.contains("--policy <file>"))
    }
}
