import Crypto
import Foundation

/// Tokens and codes: made from the system's cryptographic generator, stored only as SHA-256 hashes, compared in
/// constant time.
public enum Secrets {
    /// A device or administrator token: 32 random bytes, base64url without padding (43 characters).
    public static func token() -> String { base64url(randomBytes(32)) }

    /// A one-time enrolment code: 12 characters of an unambiguous alphabet (about 60 bits), grouped `XXXX-XXXX-XXXX`
    /// for typing on a device. Guessing is also rate-limited.
    public static func enrolmentCode() -> String {
        let alphabet = Array("ABCDEFGHJKMNPQRSTVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        let characters = (0..<12).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] }
        return stride(from: 0, to: 12, by: 4).map { String(characters[$0..<$0 + 4]) }.joined(separator: "-")
    }

    /// An enrolment code as typed: upper-cased, spaces and dashes ignored.
    public static func normalizedCode(_ code: String) -> String {
        code.uppercased().filter { $0 != "-" && !$0.isWhitespace }
    }

    /// SHA-256 of the text, lowercase hex: what the store keeps of a token or code.
    public static func hash(_ text: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: Data(text.utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// Whether `a` and `b` are equal, in time that depends on their lengths only.
    public static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    static func base64url(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}
