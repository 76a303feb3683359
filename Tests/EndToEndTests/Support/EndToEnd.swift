import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Tender
import TenderBackend
@testable import TenderServer

/// The end-to-end stack (issue 28): the device's real request path → `TenderBackendClient` → `TenderRoutes` (in
/// process, behind the `URLProtocol` of `RoutesInProcess.swift`, authenticating each device by its token) →
/// `StripeServerClient` / `SquareServerClient` → localstripe and the Square peer on loopback
/// (`Scripts/peers/peers.sh start`). A missing peer is a failure, never a skip.
struct EndToEndStack {
    static let merchant = "acct_e2e"
    /// The Stripe location the device of `till` works at, and another location's device.
    let shop: LedgerScope
    let otherShop: LedgerScope
    let stripeKey = "sk_test_e2e_" + UUID().uuidString.prefix(8).lowercased()
    let localstripe: URL
    let square: URL
    let squareToken: String
    let server: InProcessServer

    /// - Parameters:
    ///   - location: the shop's location id, at Stripe and at Square (the Square peer's `location_id`).
    ///   - lostAnswers: answers of the routes the device never receives.
    init(location: String = "tml_e2e_" + UUID().uuidString.prefix(6).lowercased(), lostAnswers: LostAnswers? = nil)
        throws {
        localstripe = try #require(Peers.localstripe, "\(Peers.localstripeReason)")
        square = try #require(Peers.square, "\(Peers.squareReason)")
        squareToken = try #require(Peers.squareToken, "\(Peers.squareReason)")
        shop = LedgerScope(merchantID: Self.merchant, locationID: location)
        otherShop = LedgerScope(merchantID: Self.merchant, locationID: location + "_other")
        // Square without `squareMerchantID` (documented as allowed; issue 28 item 6).
        let routes = TenderRoutes(
            stripe: StripeServerClient(secretKey: Credential(stripeKey), configuration: .init(baseURL: localstripe)),
            stripeAccountID: Self.merchant,
            square: SquareServerClient(accessToken: Credential(squareToken), configuration: .init(baseURL: square)))
            // Intents an earlier version made without `tender_location` belong to this shop (issue 28 item 5).
            .assigningUntaggedStripeIntents(to: shop.locationID)
        server = InProcessServer(routes: routes, devices: ["till": shop, "other-till": otherShop],
                                 lostAnswers: lostAnswers)
    }

    /// The shop's device client, and the other location's.
    var device: TenderBackendClient { server.client(token: "till") }
    var otherDevice: TenderBackendClient { server.client(token: "other-till") }

    // MARK: localstripe, read directly (what Stripe holds)

    var stripeAuth: [String: String] {
        ["Authorization": "Bearer \(stripeKey)", "Content-Type": "application/x-www-form-urlencoded"]
    }

    /// A raw call to localstripe; `path` may carry a query.
    func stripe(_ method: String, _ path: String, _ body: String? = nil) async throws -> (Int, [String: Any]) {
        let url = try #require(URL(string: localstripe.absoluteString.trimmingCharacters(in: ["/"]) + "/" + path))
        return try await Peers.raw(method, url, headers: stripeAuth, body: body)
    }

    /// The intents localstripe holds with `metadata[tender_reference] == reference`, oldest first.
    func stripeIntents(reference: String) async throws -> [[String: Any]] {
        var all: [[String: Any]] = []
        var after: String?
        repeat {  // every page: in CI the earlier steps (server tests, the demo) leave hundreds of intents
            let (status, list) = try await stripe("GET", "v1/payment_intents?limit=100"
                + (after.map { "&starting_after=\($0)" } ?? ""))
            #expect(status == 200)
            let page = list["data"] as? [[String: Any]] ?? []
            all += page
            after = list["has_more"] as? Bool == true ? page.last?["id"] as? String : nil
        } while after != nil
        return all.filter { ($0["metadata"] as? [String: Any])?["tender_reference"] as? String == reference }
            .sorted { ($0["created"] as? Int ?? 0) < ($1["created"] as? Int ?? 0) }
    }

    /// The refunds localstripe holds for the intent's charge.
    func stripeRefunds(intent: String) async throws -> [[String: Any]] {
        let (_, list) = try await stripe("GET", "v1/refunds?payment_intent=\(intent)")
        return list["data"] as? [[String: Any]] ?? []
    }

    /// The POSTs localstripe saw to `path` (its report), with whether each was an idempotent replay.
    func stripePosts(path: String) async throws -> [(key: String?, replayed: Bool)] {
        let (_, report) = try await stripe("GET", "_config/tender/report")
        return (report["posts"] as? [[String: Any]] ?? []).filter { $0["path"] as? String == path }
            .map { ($0["key"] as? String, $0["replayed"] as? Bool ?? false) }
    }

    // MARK: Square peer

    var squareAuth: [String: String] {
        ["Authorization": "Bearer \(squareToken)", "Square-Version": "2025-08-20", "Content-Type": "application/json"]
    }

    /// Square's server takes the payment the SDK created (what `CreatePayment` from the reader leaves at Square).
    func seedSquarePayment(_ fields: [String: Any]) async throws {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
        let (status, answer) = try await Peers.raw("POST", square.appendingPathComponent("_tender/payments"),
                                                   headers: squareAuth, body: body)
        #expect(status == 200, "seeding the Square peer: \(answer)")
    }

    /// The payment as the Square peer holds it.
    func squarePayment(_ id: String) async throws -> [String: Any]? {
        let (status, answer) = try await Peers.raw("GET", square.appendingPathComponent("v2/payments/\(id)"),
                                                   headers: squareAuth)
        return status == 200 ? answer["payment"] as? [String: Any] : nil
    }

    /// The refund as the Square peer holds it.
    func squareRefund(_ id: String) async throws -> [String: Any]? {
        let (status, answer) = try await Peers.raw("GET", square.appendingPathComponent("v2/refunds/\(id)"),
                                                   headers: squareAuth)
        return status == 200 ? answer["refund"] as? [String: Any] : nil
    }

    /// The Square peer's count of spec violations (each request and answer is validated against Square's document).
    func squareViolations() async throws -> [Any] {
        let (_, report) = try await Peers.raw("GET", square.appendingPathComponent("_tender/report"), headers: squareAuth)
        return report["violations"] as? [Any] ?? []
    }
}

extension EndToEndStack {
    /// The payments the Square peer holds at the shop's location with `reference_id == referenceID`.
    func squarePayments(referenceID: String) async throws -> [[String: Any]] {
        var payments: [[String: Any]] = []
        var cursor: String?
        repeat {  // every page: the peer pages as Square does, and a full run's other suites fill the first ones
            var url = URLComponents(url: square.appendingPathComponent("v2/payments"), resolvingAgainstBaseURL: false)!
            url.queryItems = [URLQueryItem(name: "location_id", value: shop.locationID)]
                + (cursor.map { [URLQueryItem(name: "cursor", value: $0)] } ?? [])
            let (status, answer) = try await Peers.raw("GET", url.url!, headers: squareAuth)
            #expect(status == 200)
            payments += answer["payments"] as? [[String: Any]] ?? []
            cursor = answer["cursor"] as? String
        } while cursor != nil
        return payments.filter { $0["reference_id"] as? String == referenceID }
    }
}

extension EndToEndStack {
    /// Whether the tier runs: with both loopback peers up, and always under `CI=true`, where a missing peer fails
    /// each test (`#require` in ``init()``) instead of skipping it. A plain `swift test` without the peers skips the
    /// tier and prints why (`Scripts/peers/peers.sh start`, then source `.build/peers/env`).
    static var runs: Bool {
        Peers.environment["CI"] == "true" || (Peers.localstripeRunning && Peers.squareRunning)
    }
}
