/// An amount of money: a whole number of minor units of one ``Currency``.
///
/// `Money(minorUnits: 1234, currency: .usd)` is 12.34 USD; `Money(minorUnits: 1234, currency: .jpy)` is 1234 JPY.
/// Arithmetic is overflow-checked and refuses to mix currencies: it throws rather than wrapping or guessing.
/// Parsing (``init(parsing:currency:)``) refuses more decimal places than the currency has, so "12.345 USD" is an
/// error and never a silent rounding.
public struct Money: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The amount in minor units (cents for USD, yen for JPY, fils for KWD). May be negative for refunds or deltas;
    /// a ``PaymentRequest`` requires a positive amount.
    public let minorUnits: Int64
    /// The currency of the amount.
    public let currency: Currency

    /// Creates an amount from minor units.
    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Zero in the given currency.
    public static func zero(_ currency: Currency) -> Money { Money(minorUnits: 0, currency: currency) }

    /// Parses a decimal amount written in major units, such as `"12.34"`, `"1,234.50"` or `"1234"`.
    ///
    /// Accepts an optional leading `-`, digits with optional `,` or `_` group separators, and at most as many
    /// decimal places as the currency allows.
    /// - Throws: ``PaymentError/Code/invalidAmount`` for empty, malformed or too-precise text, and
    ///   ``PaymentError/Code/amountOverflow`` when the value does not fit in 64-bit minor units.
    public init(parsing text: String, currency: Currency) throws(PaymentError) {
        let trimmed = text.trimmingWhitespace()
        var digits = trimmed
        var negative = false
        if digits.first == "-" { negative = true; digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        func malformed(_ why: String) -> PaymentError {
            PaymentError(.invalidAmount, recovery: .fixRequest, phase: .validation,
                         message: "\"\(text)\" is not an amount of \(currency.code): \(why).")
        }
        guard !digits.isEmpty, parts.count <= 2 else { throw malformed("expected digits with at most one '.'") }
        let whole = parts[0].filter { $0 != "," && $0 != "_" }
        let fraction = parts.count == 2 ? parts[1] : ""
        guard !whole.isEmpty, whole.allSatisfy(\.isASCIIDigit), fraction.allSatisfy(\.isASCIIDigit) else {
            throw malformed("expected only digits")
        }
        if parts.count == 2, fraction.isEmpty { throw malformed("nothing after the decimal point") }
        guard fraction.count <= currency.minorUnitExponent else {
            throw malformed("\(currency.code) has \(currency.minorUnitExponent) decimal places")
        }
        let paddedFraction = fraction + String(repeating: "0", count: currency.minorUnitExponent - fraction.count)
        var value: Int64 = 0
        for ch in whole + paddedFraction {
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int64(ch.asciiValue! - 48))
            if o1 || o2 {
                throw PaymentError(.amountOverflow, recovery: .fixRequest, phase: .validation,
                                   message: "\"\(text)\" is too large to represent in \(currency.code) minor units.")
            }
            value = a
        }
        self.init(minorUnits: negative ? -value : value, currency: currency)
    }

    /// The amount in major units as plain decimal text with the currency's decimal places: `"12.34"`, `"1234"`,
    /// `"-0.050"` (KWD).
    public var decimalString: String {
        let exponent = currency.minorUnitExponent
        let magnitude = minorUnits.magnitude
        let digits = String(magnitude)
        guard exponent > 0 else { return minorUnits < 0 ? "-" + digits : digits }
        let padded = String(repeating: "0", count: max(0, exponent + 1 - digits.count)) + digits
        let split = padded.index(padded.endIndex, offsetBy: -exponent)
        return (minorUnits < 0 ? "-" : "") + padded[..<split] + "." + padded[split...]
    }

    /// "12.34 USD".
    public var description: String { "\(decimalString) \(currency.code)" }

    /// Adds two amounts of the same currency.
    /// - Throws: ``PaymentError/Code/currencyMismatch`` or ``PaymentError/Code/amountOverflow``.
    public func adding(_ other: Money) throws(PaymentError) -> Money {
        try requireSameCurrency(other)
        let (sum, overflow) = minorUnits.addingReportingOverflow(other.minorUnits)
        if overflow { throw Money.overflow("\(self) + \(other)") }
        return Money(minorUnits: sum, currency: currency)
    }

    /// Subtracts an amount of the same currency.
    /// - Throws: ``PaymentError/Code/currencyMismatch`` or ``PaymentError/Code/amountOverflow``.
    public func subtracting(_ other: Money) throws(PaymentError) -> Money {
        try requireSameCurrency(other)
        let (difference, overflow) = minorUnits.subtractingReportingOverflow(other.minorUnits)
        if overflow { throw Money.overflow("\(self) - \(other)") }
        return Money(minorUnits: difference, currency: currency)
    }

    /// Multiplies the amount by a whole number (for example a quantity).
    /// - Throws: ``PaymentError/Code/amountOverflow``.
    public func multiplied(by factor: Int64) throws(PaymentError) -> Money {
        let (product, overflow) = minorUnits.multipliedReportingOverflow(by: factor)
        if overflow { throw Money.overflow("\(self) × \(factor)") }
        return Money(minorUnits: product, currency: currency)
    }

    /// The amount as an unsigned vendor amount (Stripe's `amount`, Square's `Money(amount: UInt, …)`).
    /// - Throws: ``PaymentError/Code/invalidAmount`` when the amount is negative, never a silent wrap.
    public func unsignedMinorUnits() throws(PaymentError) -> UInt {
        guard minorUnits >= 0 else {
            throw PaymentError(.invalidAmount, recovery: .fixRequest, phase: .validation,
                               message: "\(self) is negative; processors take only positive amounts.")
        }
        return UInt(minorUnits)
    }

    private func requireSameCurrency(_ other: Money) throws(PaymentError) {
        guard currency == other.currency else {
            throw PaymentError(.currencyMismatch, recovery: .fixRequest, phase: .validation,
                               message: "Cannot combine \(currency.code) with \(other.currency.code).")
        }
    }

    private static func overflow(_ expression: String) -> PaymentError {
        PaymentError(.amountOverflow, recovery: .fixRequest, phase: .validation,
                     message: "\(expression) overflows 64-bit minor units.")
    }
}

extension Character {
    package var isASCIIDigit: Bool { asciiValue.map { $0 >= 48 && $0 <= 57 } ?? false }
}
