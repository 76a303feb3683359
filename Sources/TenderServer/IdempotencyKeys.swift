import Foundation
import Tender

/// The idempotency keys TenderServer sends, derived from the payment's reference and the operation, never random:
/// a retry after a crash, a timeout or a restart is the same request, so the processor performs it at most once.
///
/// | operation | key |
/// |---|---|
/// | create a PaymentIntent (attempt *n*) | `<reference>/create-<n>` |
/// | capture | `<reference>/capture` |
/// | void (cancel) | `<reference>/void` |
/// | refund *n* | `<reference>/refund-<n>` (``Tender/RefundRecord/idempotencyKey(reference:number:)``) |
///
/// Square limits its keys to 45 characters; a longer key is shortened deterministically by ``fitted(_:maximumLength:)``.
public enum IdempotencyKeys {
    /// The key of attempt `attempt` to create the reference's payment.
    public static func create(reference: String, attempt: Int) -> String { "\(reference)/create-\(attempt)" }
    /// The key of the reference's capture.
    public static func capture(reference: String) -> String { "\(reference)/capture" }
    /// The key of the reference's void.
    public static func void(reference: String) -> String { "\(reference)/void" }

    /// `key` itself when it fits, otherwise its first characters, `~`, and a 128-bit digest of the whole key in hex
    /// (two FNV-1a hashes with different offsets): the same key always gives the same result, and two keys that
    /// differ anywhere give different results.
    public static func fitted(_ key: String, maximumLength: Int) -> String {
        guard key.utf8.count > maximumLength else { return key }
        let digest = hex(fnv1a(key, basis: 0xcbf2_9ce4_8422_2325)) + hex(fnv1a(key, basis: 0x6c62_272e_07bb_0142))
        let prefixLength = max(0, maximumLength - digest.count - 1)
        var prefix = ""
        for character in key {
            guard prefix.utf8.count + character.utf8.count <= prefixLength else { break }
            prefix.append(character)
        }
        return prefix + "~" + digest
    }

    private static func fnv1a(_ text: String, basis: UInt64) -> UInt64 {
        var hash = basis
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    private static func hex(_ value: UInt64) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
