import Crypto
import Foundation
import TenderServer

/// What the server needs to refresh the Square seller's OAuth access token (Square's `ObtainToken`, grant type
/// `refresh_token`, code flow): the application's id and secret and the seller's refresh token, from the environment
/// (`SQUARE_APPLICATION_ID`, `SQUARE_APPLICATION_SECRET`, `SQUARE_REFRESH_TOKEN`), never the command line.
public struct SquareOAuthSettings: Sendable {
    /// Square's API host (`https://connect.squareup.com`), or the Square peer in test mode.
    public var baseURL: URL
    public var applicationID: String
    var applicationSecret: String
    var refreshToken: String
    /// The seller the token belongs to (`SQUARE_MERCHANT_ID`): the key of the stored token; a grant for another
    /// seller is refused. Empty: not checked (the stored token's key is then `""`).
    public var merchantID: String
    /// A token is refreshed once less than this remains before it expires. Square's access tokens live 30 days; its
    /// documentation asks for a refresh every 7 days or less, so the default refreshes a token 23 days old.
    public var refreshMargin: TimeInterval

    public init(baseURL: URL, applicationID: String, applicationSecret: String, refreshToken: String,
                merchantID: String, refreshMargin: TimeInterval = 23 * 24 * 3600) {
        self.baseURL = baseURL
        self.applicationID = applicationID
        self.applicationSecret = applicationSecret
        self.refreshToken = refreshToken
        self.merchantID = merchantID
        self.refreshMargin = refreshMargin
    }
}

extension SquareOAuthSettings: CustomStringConvertible {
    /// The host and the application id; never the secret nor the refresh token.
    public var description: String { "SquareOAuthSettings(\(baseURL.absoluteString), \(applicationID))" }
}

/// An access token and when it expires, as Square granted it. Its description never shows the token.
public struct SquareAccessToken: Sendable, Equatable, Codable, CustomStringConvertible {
    var token: String
    public var expiresAt: Date

    public init(token: String, expiresAt: Date) {
        self.token = token
        self.expiresAt = expiresAt
    }

    /// The token as TenderServer carries secrets (for the sign-in route).
    public var credential: Credential { Credential(token) }
    public var description: String { "SquareAccessToken(redacted, expires \(expiresAt))" }
}

/// The sealed form of a token as the store keeps it: AES-GCM (swift-crypto) under the server's token key
/// (`MERCHANT_TOKEN_KEY`, 32 bytes in base64), so a copy of the database alone does not carry the seller's token.
public struct SealedSquareToken: Sendable, Equatable {
    public var merchantID: String
    /// The AES-GCM box (nonce, ciphertext, tag), base64.
    public var sealed: String
    public var expiresAt: Date
    public var updatedAt: Date

    public init(merchantID: String, sealed: String, expiresAt: Date, updatedAt: Date) {
        self.merchantID = merchantID
        self.sealed = sealed
        self.expiresAt = expiresAt
        self.updatedAt = updatedAt
    }
}

/// Seals and opens tokens with the server's token key.
public struct TokenSealer: Sendable {
    let key: SymmetricKey

    /// The key from its base64 text (32 bytes); nil when the text is not that.
    public init?(base64 text: String) {
        guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)),
              data.count == 32 else { return nil }
        key = SymmetricKey(data: data)
    }

    /// A new random key (test mode without `MERCHANT_TOKEN_KEY`: tokens sealed by it are readable by this process
    /// only, so another instance refreshes for itself).
    public init() { key = SymmetricKey(size: .bits256) }

    func seal(_ token: SquareAccessToken, merchantID: String, at time: Date) throws -> SealedSquareToken {
        let plain = try JSONEncoder().encode(token)
        // The merchant id is authenticated with the box: a row moved to another merchant does not open.
        let box = try AES.GCM.seal(plain, using: key, authenticating: Data(merchantID.utf8))
        guard let combined = box.combined else { throw SquareTokenError("the token could not be sealed") }
        return SealedSquareToken(merchantID: merchantID, sealed: combined.base64EncodedString(),
                                 expiresAt: token.expiresAt, updatedAt: time)
    }

    func open(_ sealed: SealedSquareToken) throws -> SquareAccessToken {
        guard let data = Data(base64Encoded: sealed.sealed) else { throw SquareTokenError("the stored token is damaged") }
        do {
            let box = try AES.GCM.SealedBox(combined: data)
            let plain = try AES.GCM.open(box, using: key, authenticating: Data(sealed.merchantID.utf8))
            return try JSONDecoder().decode(SquareAccessToken.self, from: plain)
        } catch {
            throw SquareTokenError("the stored token does not open with this server's MERCHANT_TOKEN_KEY")
        }
    }
}

/// Why the Square token could not be had. Its text never holds a token or a secret.
public struct SquareTokenError: Error, CustomStringConvertible, Equatable {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Square's OAuth `ObtainToken` (`POST /oauth2/token`), grant type `refresh_token`, through TenderServer's transport.
struct SquareOAuthClient: Sendable {
    let settings: SquareOAuthSettings
    let transport: any HTTPTransport

    private struct Grant: Encodable {
        let client_id: String, client_secret: String, grant_type = "refresh_token", refresh_token: String
    }

    private struct Answer: Decodable {
        let access_token: String?
        let expires_at: String?
        let merchant_id: String?
        let errors: [Failure]?
        struct Failure: Decodable { let category: String?, code: String?, detail: String? }
    }

    func refresh() async throws -> SquareAccessToken {
        let body = try JSONEncoder().encode(Grant(client_id: settings.applicationID,
                                                  client_secret: settings.applicationSecret,
                                                  refresh_token: settings.refreshToken))
        let request = TenderHTTPRequest(
            method: "POST", url: settings.baseURL.appendingPathComponent("oauth2/token"),
            headers: ["Content-Type": "application/json",
                      "Square-Version": SquareServerClient.Configuration().apiVersion],
            body: body)
        let response: TenderHTTPResponse
        do { response = try await transport.send(request) } catch {
            throw SquareTokenError("Square's token endpoint did not answer (\(error.kind.rawValue))")
        }
        let answer = try? JSONDecoder().decode(Answer.self, from: response.body)
        guard response.status == 200, let answer, let token = answer.access_token, !token.isEmpty,
              let text = answer.expires_at, let expiresAt = Self.date(text) else {
            let code = answer?.errors?.first?.code ?? "no error code"
            throw SquareTokenError("Square refused to refresh the seller's token: HTTP \(response.status), \(code)")
        }
        if let merchant = answer.merchant_id, !settings.merchantID.isEmpty, merchant != settings.merchantID {
            throw SquareTokenError("Square refreshed a token for another seller (\(merchant), not "
                + "\(settings.merchantID))")
        }
        return SquareAccessToken(token: token, expiresAt: expiresAt)
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
