import Foundation

/// The idempotency key of one operation on one payment: derived, never random, so a retry after a crash, a timeout
/// or a relaunch is the same request and the processor performs it at most once; and unique per merchant,
/// location, reference, vendor payment attempt and operation, because a reference (an order number) is unique only
/// within one merchant's location: two locations of one account both selling order "1001" on the same day must
/// never send the same key (the vendor would refuse the second operation, or answer it with the first one's result).
///
/// The key is computed on the device, where the ledger's scope is known, and travels unchanged to the app's server
/// (``CaptureRequest/idempotencyKey``, ``VoidRequest/idempotencyKey``, ``RefundRequest/idempotencyKey``), which fits it
/// to its vendor's length limit with ``fitted(maximumLength:)``.
///
/// Format: `<merchant>/<location>/<reference>/<payment attempt>/<operation>`, each part with `%` and `/`
/// percent-encoded (so two different tuples never give the same key), for example
/// `acct_1/tml_2/order-1001/1/refund-2`.
///
/// | operation | ``Operation`` |
/// |---|---|
/// | capture an authorization | `capture` |
/// | void an authorization | `void` |
/// | refund *n* of the payment | `refund-<n>` |
/// | create the vendor payment (a server-driven Stripe PaymentIntent) | `create` |
/// | identify the vendor payment on the device (``PaymentAttempt/vendorAttemptID(reference:)``) | `payment` |
///
/// Keys recorded before keys were scoped keep their recorded form: a refund already in a ledger keeps its id
/// (`<reference>/refund-<n>`, `RefundRecord/idempotencyKey(reference:number:)`), and a session recorded before
/// ledger schema 6 keeps its reference-only vendor attempt ids (`PaymentSession/keyScheme`).
public struct IdempotencyKey: Hashable, Sendable, Codable, RawRepresentable, CustomStringConvertible {
    /// The whole key, before any fitting to a vendor's length limit.
    public let rawValue: String
    /// Wraps a key (for example one recorded earlier).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The key.
    public var description: String { rawValue }

    /// What the key is for.
    public struct Operation: Hashable, Sendable, RawRepresentable, CustomStringConvertible {
        /// The identifier in the key, e.g. `"capture"`.
        public let rawValue: String
        /// Creates an operation.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The identifier.
        public var description: String { rawValue }

        /// Capturing an authorization.
        public static let capture = Operation(rawValue: "capture")
        /// Voiding (canceling) an authorization.
        public static let void = Operation(rawValue: "void")
        /// Creating the vendor payment on the server (Stripe `POST /v1/payment_intents`).
        public static let create = Operation(rawValue: "create")
        /// Identifying the vendor payment on the device (Square's `paymentAttemptID`).
        public static let payment = Operation(rawValue: "payment")
        /// Refund `number` (1 for the first) of the payment.
        public static func refund(_ number: Int) -> Operation { Operation(rawValue: "refund-\(number)") }
    }

    /// The key of `operation` on vendor payment `paymentAttempt` (``PaymentSession/paymentAttempt``) of `reference`
    /// in `scope`.
    public init(scope: LedgerScope, reference: String, paymentAttempt: Int, operation: Operation) {
        rawValue = [scope.merchantID, scope.locationID, reference, String(paymentAttempt), operation.rawValue]
            .map(Self.escaped).joined(separator: "/")
    }

    /// The key of the capture of the payment.
    public static func capture(scope: LedgerScope, reference: String, paymentAttempt: Int) -> IdempotencyKey {
        IdempotencyKey(scope: scope, reference: reference, paymentAttempt: paymentAttempt, operation: .capture)
    }

    /// The key of the void of the payment.
    public static func void(scope: LedgerScope, reference: String, paymentAttempt: Int) -> IdempotencyKey {
        IdempotencyKey(scope: scope, reference: reference, paymentAttempt: paymentAttempt, operation: .void)
    }

    /// The key of refund `number` of the payment.
    public static func refund(scope: LedgerScope, reference: String, paymentAttempt: Int, number: Int)
        -> IdempotencyKey {
        IdempotencyKey(scope: scope, reference: reference, paymentAttempt: paymentAttempt, operation: .refund(number))
    }

    /// The key of creating the vendor payment on the server.
    public static func create(scope: LedgerScope, reference: String, paymentAttempt: Int) -> IdempotencyKey {
        IdempotencyKey(scope: scope, reference: reference, paymentAttempt: paymentAttempt, operation: .create)
    }

    /// The identifier of vendor payment `paymentAttempt` of `reference` (``PaymentAttempt/vendorAttemptID(reference:)``):
    /// with a scope, the ``Operation/payment`` key; without one (sessions recorded before keys were scoped, and
    /// adapter calls made outside a ``PaymentTerminal``), the reference itself for the first vendor payment and
    /// `"<reference>#<n>"` after, as before.
    public static func vendorAttemptID(reference: String, paymentAttempt: Int, scope: LedgerScope?) -> String {
        guard let scope else { return paymentAttempt <= 1 ? reference : "\(reference)#\(paymentAttempt)" }
        return IdempotencyKey(scope: scope, reference: reference, paymentAttempt: paymentAttempt,
                              operation: .payment).rawValue
    }

    /// The key as a vendor with a length limit takes it (Square: 45 characters; Stripe: 255): see
    /// ``fitted(_:maximumLength:)``.
    public func fitted(maximumLength: Int) -> String { Self.fitted(rawValue, maximumLength: maximumLength) }

    /// `key` itself when it fits, otherwise its first characters, `~`, and a 128-bit digest of the whole key in hex
    /// (two FNV-1a hashes with different offsets): the same key always gives the same result on every platform and
    /// every launch, and two keys that differ anywhere give different results. Keys sent before this moved to the
    /// core were fitted the same way, so a refund recorded then is still sent under the same key.
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

    /// `%` and `/` percent-encoded, so the parts of a key can be told apart.
    static func escaped(_ part: String) -> String {
        guard part.contains(where: { $0 == "%" || $0 == "/" }) else { return part }
        return part.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "/", with: "%2F")
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
