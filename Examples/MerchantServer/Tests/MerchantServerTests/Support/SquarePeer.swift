import Foundation
import Testing
import TenderServer
@testable import MerchantServer

/// The Square peer (`Scripts/peers/peers.sh start`; `. .build/peers/env`), for the token lifecycle tests: its URL,
/// its never-expiring token, the OAuth application it knows, and its test-control routes.
struct SquarePeer {
    let url: URL
    let token: String
    let clientID: String
    let clientSecret: String
    let refreshToken: String

    /// Whether the peer suites run: the peer's environment is set, or CI=true (where its absence fails them).
    static var runs: Bool {
        let environment = ProcessInfo.processInfo.environment
        if environment["TENDER_SQUARE_PEER_CLIENT_ID"] != nil || environment["CI"] == "true" { return true }
        print("merchant-server Square token tests skipped: the Square peer is not started "
            + "(Scripts/peers/peers.sh start; . .build/peers/env)")
        return false
    }

    static func fromEnvironment() throws -> SquarePeer {
        let environment = ProcessInfo.processInfo.environment
        func value(_ name: String) throws -> String {
            guard let value = environment[name], !value.isEmpty else {
                throw StoreError("\(name) is not set: start the peers (Scripts/peers/peers.sh start; "
                    + ". .build/peers/env)")
            }
            return value
        }
        return SquarePeer(url: URL(string: try value("TENDER_SQUARE_PEER_URL"))!,
                          token: try value("TENDER_SQUARE_PEER_TOKEN"),
                          clientID: try value("TENDER_SQUARE_PEER_CLIENT_ID"),
                          clientSecret: try value("TENDER_SQUARE_PEER_CLIENT_SECRET"),
                          refreshToken: try value("TENDER_SQUARE_PEER_REFRESH_TOKEN"))
    }

    func settings(secret: String? = nil, margin: TimeInterval = 23 * 24 * 3600) -> SquareOAuthSettings {
        SquareOAuthSettings(baseURL: url, applicationID: clientID, applicationSecret: secret ?? clientSecret,
                            refreshToken: refreshToken, merchantID: "", refreshMargin: margin)
    }

    private func send(_ method: String, _ path: String, json: [String: Any]? = nil, bearer: String? = nil)
        async throws -> (Int, [String: Any]) {
        var headers = ["Content-Type": "application/json",
                       "Square-Version": SquareServerClient.Configuration().apiVersion]
        if let bearer { headers["Authorization"] = "Bearer \(bearer)" }
        let body = try json.map { try JSONSerialization.data(withJSONObject: $0) }
        let response = try await URLSessionTransport().send(TenderHTTPRequest(
            method: method, url: URL(string: url.absoluteString + path)!, headers: headers, body: body))
        return (response.status,
                (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }

    /// A token the peer accepts until `seconds` from now (negative: already expired).
    func issueToken(expiresIn seconds: Int) async throws -> SquareAccessToken {
        let (status, json) = try await send("POST", "/_tender/tokens", json: ["expires_in": seconds])
        guard status == 200, let token = json["access_token"] as? String, let text = json["expires_at"] as? String,
              let expiry = SquareOAuthClient.date(text) else { throw StoreError("the peer issued no token: \(status)") }
        return SquareAccessToken(token: token, expiresAt: expiry)
    }

    /// How many refresh grants the peer has answered.
    func grants() async throws -> Int {
        let (_, json) = try await send("GET", "/_tender/report")
        return try #require(json["token_grants"] as? Int)
    }

    /// The status the peer answers `GET /v2/payments` with under `token`, and the first error's code.
    func status(with token: String) async throws -> (Int, String?) {
        let (status, json) = try await send("GET", "/v2/payments?location_id=L1", bearer: token)
        let code = ((json["errors"] as? [[String: Any]])?.first)?["code"] as? String
        return (status, code)
    }

    /// An approved card payment at `location`, as Square's SDK would have taken it.
    func seedPayment(location: String, amount: Int) async throws -> String {
        let (status, json) = try await send("POST", "/_tender/payments",
                                            json: ["amount": amount, "location_id": location,
                                                   "reference_id": "order"])
        guard status == 200, let id = json["id"] as? String else { throw StoreError("no payment seeded: \(status)") }
        return id
    }
}
