import Foundation

/// The command line (hand-parsed: no dependency for eight options). Vendor keys and the administrator token come from
/// the environment only: a command line is visible to every user of the machine (`ps`).
public struct Options: Sendable, Equatable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var database = ".build/merchant-server/merchant.sqlite"
    public var postgres: String?
    public var production = false
    public var merchantID = "acct_test_merchant"
    public var policyFile: String?
    /// Failed attempts (bad codes, bad tokens) a client address may make a minute before it is answered 429.
    public var rateLimit = 10
    public var help = false

    public static let usage = """
        USAGE: merchant-server [options]

        Runs the merchant's server: device enrolment, Tender's routes, the audit trail.
        Starts in TEST MODE unless --production is given.

        OPTIONS:
          --host <address>      Address to listen on (default 127.0.0.1).
          --port <port>         Port to listen on (default 8080; 0 picks a free one).
          --database <path>     The embedded SQLite store's file (default .build/merchant-server/merchant.sqlite).
          --postgres <url>      Use PostgreSQL instead (postgres://user:password@host:port/database); a password in
                                the URL is visible to `ps`: prefer MERCHANT_POSTGRES_PASSWORD.
          --merchant <id>       The merchant enrolment codes are for by default (test mode: acct_test_merchant;
                                production: STRIPE_ACCOUNT_ID or SQUARE_MERCHANT_ID).
          --policy <file>       The refund policy as JSON (default: cashiers 50.00 a refund, 500.00 a device a day):
                                {"roleRefundMaximum": {"cashier": {"USD": 5000}},
                                 "deviceDailyRefundTotal": {"USD": 50000}, "managerRole": "manager"}
                                (amounts in minor units; a manager's device is above both limits).
          --rate-limit <n>      Failed attempts (wrong codes, unknown or revoked tokens) a client address may make
                                per minute before it is answered 429 (default 10; per instance).
          --production          Production: the vendors' real keys from the environment, MERCHANT_ADMIN_TOKEN required.
          -h, --help            Show this help.

        ENVIRONMENT (never the command line):
          MERCHANT_ADMIN_TOKEN        The administrator's token (test mode: made and printed once when unset).
          MERCHANT_POSTGRES_PASSWORD  PostgreSQL password, when not in the URL.
          STRIPE_SECRET_KEY, STRIPE_ACCOUNT_ID
                                      Production Stripe key and the account it belongs to.
          SQUARE_ACCESS_TOKEN, SQUARE_MERCHANT_ID
                                      Production Square seller token and the seller it belongs to.
          SQUARE_APPLICATION_ID, SQUARE_APPLICATION_SECRET, SQUARE_REFRESH_TOKEN
                                      Refresh the seller's token with Square's ObtainToken before it expires (all
                                      three or none); SQUARE_ACCESS_TOKEN_EXPIRES_AT (ISO 8601) says when the given
                                      one expires (unknown: refreshed at first use).
          MERCHANT_TOKEN_KEY          32 bytes in base64 (openssl rand -base64 32): seals the refreshed token in the
                                      store (AES-GCM); required in production with refresh.
          STRIPE_WEBHOOK_SECRET       The signing secret (whsec_…) of the Stripe endpoint POST /webhooks/stripe
                                      (several, comma-separated, while one is rolled); unset: that route answers 501.
                                      STRIPE_WEBHOOK_TOLERANCE: seconds its timestamp may be off (default 300).
          SQUARE_WEBHOOK_SIGNATURE_KEY, SQUARE_WEBHOOK_URL
                                      The Square subscription's signature key and its notification URL exactly as
                                      registered (https://…/webhooks/square: Square signs it); both or neither.
          TENDER_LOCALSTRIPE_URL, TENDER_SQUARE_PEER_URL, TENDER_SQUARE_PEER_TOKEN
                                      Test mode: the loopback peers (Scripts/peers/peers.sh start; . .build/peers/env);
                                      with TENDER_SQUARE_PEER_CLIENT_ID, …_CLIENT_SECRET, …_REFRESH_TOKEN the token is
                                      refreshed against the Square peer.
        """

    public init() {}

    /// Parses the arguments (without the program name).
    public init(arguments: [String]) throws(OptionsError) {
        var rest = arguments[...]
        func value(_ name: String) throws(OptionsError) -> String {
            guard let next = rest.popFirst(), !next.hasPrefix("--") else { throw OptionsError("\(name) needs a value") }
            return next
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--host": host = try value(argument)
            case "--port":
                let text = try value(argument)
                guard let number = Int(text), (0...65_535).contains(number) else {
                    throw OptionsError("--port takes a number from 0 to 65535, not \(text)")
                }
                port = number
            case "--database": database = try value(argument)
            case "--postgres": postgres = try value(argument)
            case "--merchant": merchantID = try value(argument)
            case "--policy": policyFile = try value(argument)
            case "--rate-limit":
                let text = try value(argument)
                guard let number = Int(text), number >= 1 else {
                    throw OptionsError("--rate-limit takes a number of 1 or more, not \(text)")
                }
                rateLimit = number
            case "--production": production = true
            case "-h", "--help": help = true
            case let key where key.contains("key") || key.contains("token") || key.contains("secret"):
                throw OptionsError("\(key): keys and tokens come from the environment, never the command line "
                    + "(see --help)")
            default: throw OptionsError("unknown option \(argument) (see --help)")
            }
        }
    }
}

public struct OptionsError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
