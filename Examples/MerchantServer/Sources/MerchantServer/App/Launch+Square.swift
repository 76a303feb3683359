import Foundation
import TenderServer

extension Launch {
    /// The Square token lifecycle the environment describes: the application id and secret and the seller's refresh
    /// token (production: `SQUARE_APPLICATION_ID`, `SQUARE_APPLICATION_SECRET`, `SQUARE_REFRESH_TOKEN`; test mode:
    /// the Square peer's `TENDER_SQUARE_PEER_CLIENT_ID`, `…_CLIENT_SECRET`, `…_REFRESH_TOKEN`), all three or none;
    /// the token key that seals the refreshed token in the store (`MERCHANT_TOKEN_KEY`, 32 bytes in base64; required
    /// in production with refresh, a key of this process only in test mode); and the token given with it, used until
    /// it nears its expiry (`SQUARE_ACCESS_TOKEN` with `SQUARE_ACCESS_TOKEN_EXPIRES_AT`, ISO 8601; without a known
    /// expiry the first use refreshes).
    static func squareOAuth(environment: [String: String], baseURL: URL, merchantID: String, production: Bool)
        throws(OptionsError) -> (SquareOAuthSettings?, SquareAccessToken?, TokenSealer) {
        let names = production ? ["SQUARE_APPLICATION_ID", "SQUARE_APPLICATION_SECRET", "SQUARE_REFRESH_TOKEN"]
            : ["TENDER_SQUARE_PEER_CLIENT_ID", "TENDER_SQUARE_PEER_CLIENT_SECRET", "TENDER_SQUARE_PEER_REFRESH_TOKEN"]
        let values = names.map { environment[$0].flatMap { $0.isEmpty ? nil : $0 } }
        let sealer: TokenSealer
        if let text = environment["MERCHANT_TOKEN_KEY"], !text.isEmpty {
            guard let given = TokenSealer(base64: text) else {
                throw OptionsError("MERCHANT_TOKEN_KEY must be 32 bytes in base64 (openssl rand -base64 32)")
            }
            sealer = given
        } else {
            sealer = TokenSealer()
        }
        let present = values.compactMap { $0 }
        if present.isEmpty { return (nil, nil, sealer) }
        guard present.count == names.count else {
            let missing = zip(names, values).filter { $0.1 == nil }.map(\.0)
            throw OptionsError("the Square token refresh needs \(names.joined(separator: ", ")); missing: "
                + missing.joined(separator: ", "))
        }
        if production, environment["MERCHANT_TOKEN_KEY"]?.isEmpty ?? true {
            throw OptionsError("refreshing the Square token in production needs MERCHANT_TOKEN_KEY (32 bytes in "
                + "base64) to seal it in the store")
        }
        let settings = SquareOAuthSettings(baseURL: baseURL, applicationID: present[0], applicationSecret: present[1],
                                           refreshToken: present[2], merchantID: merchantID)
        var initial: SquareAccessToken?
        if production, let token = environment["SQUARE_ACCESS_TOKEN"],
           let text = environment["SQUARE_ACCESS_TOKEN_EXPIRES_AT"] {
            guard let expiry = SquareOAuthClient.date(text) else {
                throw OptionsError("SQUARE_ACCESS_TOKEN_EXPIRES_AT is not an ISO 8601 time: \(text)")
            }
            initial = SquareAccessToken(token: token, expiresAt: expiry)
        }
        return (settings, initial, sealer)
    }
}
