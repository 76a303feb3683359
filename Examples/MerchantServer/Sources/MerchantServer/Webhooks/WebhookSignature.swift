import Crypto
import Foundation

/// The vendors' webhook signatures, checked with swift-crypto's HMAC-SHA256 and compared in constant time
/// (``Secrets/constantTimeEqual(_:_:)``).
///
/// - Stripe: `Stripe-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]` (a `v0` or other scheme is ignored); each
///   `v1` is hex HMAC-SHA256 keyed with the endpoint's signing secret over `"<t>.<raw body>"`. Accepted when one
///   `v1` matches one configured secret and `t` is within the tolerance of the server's clock (either way).
/// - Square: `x-square-hmacsha256-signature: <base64>`, base64 HMAC-SHA256 keyed with the subscription's signature
///   key over the notification URL (as registered) followed by the raw body. Square signs no time: a replayed event
///   is caught by its `event_id` (stored once).
public enum WebhookSignature {
    /// Why a signature was refused (what the log says; never the body, never a secret).
    public enum Refusal: Error, Equatable, CustomStringConvertible {
        case missingHeader
        case malformedHeader
        case mismatch
        /// The timestamp is this many seconds from the server's clock (positive: in the past).
        case outsideTolerance(seconds: Int)

        public var description: String {
            switch self {
            case .missingHeader: "no signature header"
            case .malformedHeader: "the signature header is malformed"
            case .mismatch: "no signature matches"
            case .outsideTolerance(let seconds): "the signed timestamp is \(seconds) s from the server's clock"
            }
        }
    }

    static let stripeHeader = "Stripe-Signature"
    static let squareHeader = "x-square-hmacsha256-signature"

    /// Checks a Stripe delivery: nil when accepted.
    public static func checkStripe(header: String?, body: Data, secrets: [WebhookSecret], tolerance: TimeInterval,
                                   now: Date) -> Refusal? {
        guard let header, !header.trimmingCharacters(in: .whitespaces).isEmpty else { return .missingHeader }
        var timestamp: Int64?
        var candidates: [String] = []
        for item in header.split(separator: ",") {
            let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { return .malformedHeader }
            switch pair[0] {
            case "t":
                guard timestamp == nil, let value = Int64(pair[1]) else { return .malformedHeader }
                timestamp = value
            case "v1": candidates.append(pair[1].lowercased())
            default: continue
            }
        }
        guard let timestamp, !candidates.isEmpty else { return .malformedHeader }
        var matched = false
        for secret in secrets {
            let expected = stripeSignature(secret: secret, timestamp: timestamp, body: body)
            for candidate in candidates where Secrets.constantTimeEqual(expected, candidate) { matched = true }
        }
        guard matched else { return .mismatch }
        let age = now.timeIntervalSince1970 - Double(timestamp)
        guard abs(age) <= tolerance else { return .outsideTolerance(seconds: Int(age.rounded())) }
        return nil
    }

    /// Checks a Square delivery: nil when accepted.
    public static func checkSquare(header: String?, body: Data, signatureKey: WebhookSecret,
                                   notificationURL: String) -> Refusal? {
        guard let header = header?.trimmingCharacters(in: .whitespaces), !header.isEmpty else { return .missingHeader }
        guard Data(base64Encoded: header) != nil else { return .malformedHeader }
        let expected = squareSignature(signatureKey: signatureKey, notificationURL: notificationURL, body: body)
        return Secrets.constantTimeEqual(expected, header) ? nil : .mismatch
    }

    /// Stripe's `v1`: lowercase hex HMAC-SHA256(secret, "<t>.<body>").
    static func stripeSignature(secret: WebhookSecret, timestamp: Int64, body: Data) -> String {
        var message = Data("\(timestamp).".utf8)
        message.append(body)
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Data(secret.value.utf8)))
        return hex(Array(mac))
    }

    /// Square's signature: base64 HMAC-SHA256(key, notification URL + body).
    static func squareSignature(signatureKey: WebhookSecret, notificationURL: String, body: Data) -> String {
        var message = Data(notificationURL.utf8)
        message.append(body)
        let mac = HMAC<SHA256>.authenticationCode(for: message,
                                                  using: SymmetricKey(data: Data(signatureKey.value.utf8)))
        return Data(mac).base64EncodedString()
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
