import Foundation
import Hummingbird
import Logging
import TenderServer

/// Builds the configuration and the store from the options and the environment, and runs the server.
public enum Launch {
    /// The configuration the options and environment describe, and the line that says which mode it is (the first
    /// log line). Throws when production lacks what it needs.
    public static func configuration(_ options: Options, environment: [String: String]) throws(OptionsError)
        -> (MerchantConfiguration, banner: String, adminTokenShownOnce: String?) {
        let (base, banner, shownOnce) = try vendors(options, environment: environment)
        var configuration = base
        configuration.rateLimit = options.rateLimit
        configuration.webhooks = try webhookSettings(environment: environment)
        if let file = options.policyFile {
            guard let data = FileManager.default.contents(atPath: file),
                  let policy = try? JSONDecoder().decode(RefundPolicy.self, from: data) else {
                throw OptionsError("--policy \(file): not a readable refund policy (see --help)")
            }
            configuration.policy = policy
        }
        return (configuration, banner, shownOnce)
    }

    static func vendors(_ options: Options, environment: [String: String]) throws(OptionsError)
        -> (MerchantConfiguration, String, String?) {
        var shownOnce: String?
        if options.production {
            guard let admin = environment["MERCHANT_ADMIN_TOKEN"], admin.count >= 32 else {
                throw OptionsError("--production needs MERCHANT_ADMIN_TOKEN (32 characters or more) in the environment")
            }
            let stripe = environment["STRIPE_SECRET_KEY"].map { StripeServerClient(secretKey: Credential($0)) }
            let squareToken = environment["SQUARE_ACCESS_TOKEN"].map(Credential.init)
            let square = squareToken.map { SquareServerClient(accessToken: $0) }
            guard stripe != nil || square != nil else {
                throw OptionsError("--production needs STRIPE_SECRET_KEY or SQUARE_ACCESS_TOKEN in the environment")
            }
            let merchant = options.merchantID != Options().merchantID ? options.merchantID
                : environment["STRIPE_ACCOUNT_ID"] ?? environment["SQUARE_MERCHANT_ID"] ?? ""
            let (oauth, initial, sealer) = try squareOAuth(
                environment: environment, baseURL: SquareServerClient.Configuration().baseURL,
                merchantID: environment["SQUARE_MERCHANT_ID"] ?? "", production: true)
            let configuration = MerchantConfiguration(
                host: options.host, port: options.port, testMode: false, adminTokenHash: Secrets.hash(admin),
                merchantID: merchant, stripe: stripe, stripeAccountID: environment["STRIPE_ACCOUNT_ID"],
                square: square, squareMerchantID: environment["SQUARE_MERCHANT_ID"], squareAccessToken: squareToken,
                squareOAuth: square == nil ? nil : oauth, squareInitialToken: initial, tokenSealer: sealer)
            return (configuration, "merchant-server: PRODUCTION (Stripe: \(stripe == nil ? "off" : "on"), Square: "
                + "\(square == nil ? "off" : "on"))", nil)
        }
        let admin: String
        if let given = environment["MERCHANT_ADMIN_TOKEN"], !given.isEmpty { admin = given } else {
            admin = Secrets.token()
            shownOnce = admin
        }
        let localstripe = environment["TENDER_LOCALSTRIPE_URL"].flatMap(URL.init(string:))
        let squareURL = environment["TENDER_SQUARE_PEER_URL"].flatMap(URL.init(string:))
        let squareToken = environment["TENDER_SQUARE_PEER_TOKEN"].map(Credential.init)
        let stripe = localstripe.map {
            StripeServerClient(secretKey: Credential("sk_test_merchant_server"), configuration: .init(baseURL: $0))
        }
        let square = squareURL.flatMap { url in
            squareToken.map { SquareServerClient(accessToken: $0, configuration: .init(baseURL: url)) }
        }
        let (oauth, _, sealer) = try squareOAuth(
            environment: environment, baseURL: squareURL ?? SquareServerClient.Configuration().baseURL,
            merchantID: environment["TENDER_SQUARE_PEER_MERCHANT_ID"] ?? "", production: false)
        let configuration = MerchantConfiguration(
            host: options.host, port: options.port, testMode: true, adminTokenHash: Secrets.hash(admin),
            merchantID: options.merchantID, stripe: stripe, square: square,
            squareAccessToken: square == nil ? nil : squareToken, squareOAuth: square == nil ? nil : oauth,
            tokenSealer: sealer)
        let vendors = [localstripe.map { "Stripe → localstripe at \($0.absoluteString)" },
                       square == nil ? nil : "Square → the Square peer at \(squareURL!.absoluteString)"]
            .compactMap { $0 }
        let banner = "merchant-server: TEST MODE — no real money moves; vendors: "
            + (vendors.isEmpty ? "none (start the loopback peers: Scripts/peers/peers.sh start; . .build/peers/env)"
                : vendors.joined(separator: ", "))
        return (configuration, banner, shownOnce)
    }

    /// Opens the store the options name and applies its migrations.
    public static func store(_ options: Options, environment: [String: String], logger: Logger) async throws
        -> any MerchantStore {
        let store: any MerchantStore
        if let url = options.postgres {
            store = try PostgresMerchantStore(url: url, password: environment["MERCHANT_POSTGRES_PASSWORD"],
                                              logger: logger)
        } else {
            let directory = URL(fileURLWithPath: options.database).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            store = try SQLiteMerchantStore(path: options.database)
        }
        try await store.migrate()
        return store
    }
}

extension Launch {
    /// The program: parses `arguments`, says which mode it runs in (the first log line), opens and migrates the
    /// store, and serves until stopped (SIGTERM, SIGINT). Returns the exit status.
    public static func main(arguments: [String], environment: [String: String]) async -> Int32 {
        let options: Options
        do { options = try Options(arguments: arguments) } catch {
            FileHandle.standardError.write(Data("merchant-server: \(error)\n".utf8))
            return 2
        }
        if options.help {
            FileHandle.standardOutput.write(Data((Options.usage + "\n").utf8))
            return 0
        }
        let launch: (MerchantConfiguration, banner: String, adminTokenShownOnce: String?)
        do { launch = try configuration(options, environment: environment) } catch {
            FileHandle.standardError.write(Data("merchant-server: \(error)\n".utf8))
            return 2
        }
        var bootLogger = Logger(label: "merchant-server")
        bootLogger.logLevel = .info
        let logger = bootLogger
        logger.info("\(launch.banner)")
        if let token = launch.adminTokenShownOnce {
            // Test mode only, written once to the terminal (never logged): set MERCHANT_ADMIN_TOKEN to choose it.
            FileHandle.standardOutput.write(Data("TEST MODE administrator token (shown once): \(token)\n".utf8))
        }
        do {
            let store = try await store(options, environment: environment, logger: logger)
            let server = MerchantApp(configuration: launch.0, store: store)
            let host = options.host, testMode = launch.0.testMode
            try await server.application(logger: logger) { port in
                logger.info("listening on http://\(host):\(port)\(testMode ? " (TEST MODE)" : "")")
            }.runService()
            return 0
        } catch {
            logger.critical("merchant-server stopped: \(String(describing: error))")
            return 1
        }
    }
}
