import Foundation
import Tender
import TenderServer
import TenderTesting

/// The server half's result: what was sent through TenderServer and whether the peers' records agree.
struct ServerHalfResult {
    /// Whether each peer was running (`TENDER_LOCALSTRIPE_URL`; `TENDER_SQUARE_PEER_URL` and its token).
    var localstripe = false
    var squarePeer = false
    /// Figures per vendor, for `--json` (minor units and statuses only: no ids, no times).
    var stripe: [String: Any] = [:]
    var square: [String: Any] = [:]
    var mismatches: [String] = []

    var json: [String: Any] {
        var json: [String: Any] = ["localstripe": localstripe ? "running" : "not running",
                                   "square_peer": squarePeer ? "running" : "not running", "mismatches": mismatches]
        if localstripe { json["stripe"] = stripe }
        if squarePeer { json["square"] = square }
        return json
    }
}

/// The server half: captures and refunds sent through `TenderServer`, the library a server-side Swift app uses for
/// Stripe's and Square's REST APIs, against the loopback peers `Scripts/peers/peers.sh start` runs. The payments
/// are made on the peers (neither peer has a reader), then captured, refunded, retrieved and reconciled through
/// TenderServer as the `PaymentCaptureService` and `PaymentRefundService` the adapters take.
///
/// The text and JSON carry amounts and statuses only, never a server id or time, so the output stays the same
/// under `--seed`; each run's references carry a random tag (never printed) so runs against one peer stay apart.
enum ServerHalf {
    static func run(seed: UInt64, out: Output, environment: [String: String]) async -> ServerHalfResult {
        var result = ServerHalfResult()
        let peers = LoopbackPeers(environment: environment, into: &result)

        guard result.localstripe || result.squarePeer else {
            out.heading("Server half")
            out.note("the loopback peers are not running (Scripts/peers/peers.sh install && Scripts/peers/peers.sh start; . .build/peers/env)")
            out.line("the day's captures, voids and refunds went through the in-process server: the simulators' server sides")
            return result
        }
        out.heading("Server half: TenderServer against the loopback peers")
        let tag = String(UUID().uuidString.prefix(8)).lowercased()
        var random = SeededGenerator(seed: seed &+ 104_729)
        func amount(_ range: ClosedRange<Int64>) -> Money {
            let span = UInt64(range.upperBound - range.lowerBound + 1)
            return Money(minorUnits: range.lowerBound + Int64(random.next() % span), currency: .usd)
        }
        let stripeAmount = amount(20_00...90_00), squareAmount = amount(20_00...90_00)
        let stripeClient = peers.stripeClient, squareClient = peers.squareClient
        let localstripe = peers.localstripe, squarePeer = peers.squarePeer
        // One server for both vendors: it dispatches on the payment's processor ("stripe", "square").
        let server = TenderServer(stripe: stripeClient, square: squareClient)

        if let stripeClient, let localstripe {
            out.line("Stripe, against localstripe:")
            let run = StripePeerRun(client: stripeClient, server: server, baseURL: localstripe,
                                    reference: "demo-\(tag)-stripe-1", out: out)
            await run.perform(authorizing: stripeAmount, into: &result)
        } else {
            out.note("localstripe is not running: the Stripe day's server calls went through the simulator's server side")
        }
        if let squareClient, let squarePeer {
            out.line("Square, against the Square OpenAPI peer:")
            let run = SquarePeerRun(client: squareClient, server: server, baseURL: squarePeer,
                                    reference: "demo-\(tag)-square-1", out: out)
            await run.perform(amount: squareAmount, into: &result)
        } else {
            out.note("the Square peer is not running: the Square day's server calls went through the simulator's server side")
        }
        if result.mismatches.isEmpty {
            out.good("TenderServer's captures and refunds reconcile with what the peers hold")
        } else {
            for mismatch in result.mismatches { out.bad("MISMATCH \(mismatch)") }
        }
        return result
    }

    /// A short, reproducible account of an error: its code and the vendor's code (messages can carry ids).
    static func describe(_ error: any Error) -> String {
        guard let error = error as? PaymentError else { return String(describing: type(of: error)) }
        return error.vendor.map { "\($0.name) (\(error.code))" } ?? "\(error.code)"
    }

    /// A raw request to a peer, for what TenderServer has no call for (confirming an intent with a test payment
    /// method, seeding a payment): the answer's status and JSON object.
    static func raw(_ method: String, _ url: URL, headers: [String: String] = [:], body: String? = nil) async throws
        -> (status: Int, object: [String: Any]) {
        let response = try await URLSessionTransport().send(HTTPRequest(method: method, url: url, headers: headers,
                                                                        body: body.map { Data($0.utf8) }))
        let object = (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:]
        return (response.status, object)
    }
}

/// The loopback peers `Scripts/peers/peers.sh start` runs, from their environment, and TenderServer's clients of them.
struct LoopbackPeers {
    let localstripe: URL?
    let squarePeer: URL?
    let squareToken: String?

    /// Reads `TENDER_LOCALSTRIPE_URL`, `TENDER_SQUARE_PEER_URL` and `TENDER_SQUARE_PEER_TOKEN`, and notes in `result`
    /// which peers run.
    init(environment: [String: String], into result: inout ServerHalfResult) {
        localstripe = environment["TENDER_LOCALSTRIPE_URL"].flatMap(URL.init(string:))
        squarePeer = environment["TENDER_SQUARE_PEER_URL"].flatMap(URL.init(string:))
        squareToken = environment["TENDER_SQUARE_PEER_TOKEN"]
        result.localstripe = localstripe != nil
        result.squarePeer = squareClient != nil
    }

    /// localstripe takes any `sk_test_` key; a real server reads its key from its secret store.
    var stripeClient: StripeServerClient? {
        localstripe.map { StripeServerClient(secretKey: Credential(StripePeerRun.testKey), configuration: .init(baseURL: $0)) }
    }

    var squareClient: SquareServerClient? {
        guard let squarePeer, let squareToken else { return nil }
        return SquareServerClient(accessToken: Credential(squareToken), configuration: .init(baseURL: squarePeer))
    }
}
