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
        for option in ["--host", "--port", "--database", "--postgres", "--merchant", "--policy", "--production",
                       "--help"] {
            #expect(Options.usage.contains(option))
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
