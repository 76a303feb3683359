/// An ISO 4217 currency: its three-letter code and the exponent of its minor unit.
///
/// The exponent says how many decimal places the minor unit has: `JPY` has 0 (amounts are whole yen),
/// `USD` has 2 (cents), `KWD` has 3 (fils). ``Money`` stores amounts in minor units, so the exponent is what turns
/// `1234` into "12.34 USD" or "1234 JPY".
///
/// Create a currency from its code with ``init(code:)``, which accepts any active ISO 4217 code in either case and
/// rejects anything else with a ``PaymentError`` whose code is ``PaymentError/Code/invalidCurrency``. Codes that ISO
/// has not published (a private or future currency) can be built with ``init(code:minorUnitExponent:)``.
public struct Currency: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The uppercase ISO 4217 alphabetic code, for example `"USD"`.
    public let code: String
    /// The number of decimal places of the minor unit: 0 for `JPY`, 2 for `USD`, 3 for `KWD`.
    public let minorUnitExponent: Int

    /// Looks up an active ISO 4217 currency by its alphabetic code.
    ///
    /// The code is trimmed and may be given in either case (`"usd"` is Stripe's spelling of `"USD"`).
    /// - Throws: ``PaymentError/Code/invalidCurrency`` when the code is not three ASCII letters or is not an active
    ///   ISO 4217 currency.
    public init(code: String) throws(PaymentError) {
        let normalized = try Currency.normalize(code)
        guard let exponent = Currency.iso4217[normalized] else {
            throw PaymentError(
                .invalidCurrency, recovery: .fixRequest, phase: .validation,
                message: "\"\(normalized)\" is not an ISO 4217 currency code Tender knows.")
        }
        self.code = normalized
        self.minorUnitExponent = exponent
    }

    /// Builds a currency that is not in Tender's ISO 4217 table, with an explicit minor-unit exponent.
    ///
    /// - Throws: ``PaymentError/Code/invalidCurrency`` when the code is not three ASCII letters, or when the
    ///   exponent is outside 0...4 (no ISO currency has more than four decimal places), or when the code is a known
    ///   currency with a different exponent.
    public init(code: String, minorUnitExponent: Int) throws(PaymentError) {
        let normalized = try Currency.normalize(code)
        guard (0...4).contains(minorUnitExponent) else {
            throw PaymentError(
                .invalidCurrency, recovery: .fixRequest, phase: .validation,
                message: "Minor-unit exponent \(minorUnitExponent) for \(normalized) is outside 0...4.")
        }
        if let known = Currency.iso4217[normalized], known != minorUnitExponent {
            throw PaymentError(
                .invalidCurrency, recovery: .fixRequest, phase: .validation,
                message: "\(normalized) has \(known) decimal places in ISO 4217, not \(minorUnitExponent).")
        }
        self.code = normalized
        self.minorUnitExponent = minorUnitExponent
    }

    private init(known code: String) {
        self.code = code
        self.minorUnitExponent = Currency.iso4217[code]!
    }

    /// The code, for example `USD`.
    public var description: String { code }

    /// The lowercase code, as Stripe spells currencies (`"usd"`).
    public var lowercasedCode: String { code.lowercased() }

    /// The number of minor units in one major unit: 1 for `JPY`, 100 for `USD`, 1000 for `KWD`.
    public var minorUnitsPerMajorUnit: Int64 {
        var factor: Int64 = 1
        for _ in 0..<minorUnitExponent { factor *= 10 }
        return factor
    }

    /// Every currency in Tender's ISO 4217 table, sorted by code.
    public static var allKnown: [Currency] {
        iso4217.keys.sorted().map { Currency(known: $0) }
    }

    /// United States dollar (2 decimal places).
    public static let usd = Currency(known: "USD")
    /// Canadian dollar (2 decimal places).
    public static let cad = Currency(known: "CAD")
    /// Euro (2 decimal places).
    public static let eur = Currency(known: "EUR")
    /// Pound sterling (2 decimal places).
    public static let gbp = Currency(known: "GBP")
    /// Australian dollar (2 decimal places).
    public static let aud = Currency(known: "AUD")
    /// Japanese yen (no decimal places).
    public static let jpy = Currency(known: "JPY")
    /// Kuwaiti dinar (3 decimal places).
    public static let kwd = Currency(known: "KWD")

    // Codable as the bare code, validated on decode.
    /// Decodes a currency from its code, rejecting unknown codes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let code = try container.decode(String.self)
        try self.init(code: code)
    }

    /// Encodes the currency as its uppercase code.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }

    private static func normalize(_ code: String) throws(PaymentError) -> String {
        let trimmed = code.trimmingWhitespace()
        guard trimmed.utf8.count == 3, trimmed.utf8.allSatisfy({ ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) })
        else {
            throw PaymentError(
                .invalidCurrency, recovery: .fixRequest, phase: .validation,
                message: "\"\(code)\" is not a currency code: expected three letters such as USD.")
        }
        return trimmed.uppercased()
    }

    /// Active ISO 4217 codes and their minor-unit exponents (ISO 4217 amendment 177).
    static let iso4217: [String: Int] = {
        var table: [String: Int] = [:]
        let zero = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF"
        let three = "BHD IQD JOD KWD LYD OMR TND"
        let four = "CLF UYW"
        let two = """
            AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD CDF \
            CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD \
            HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT \
            MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR \
            SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU \
            UZS VED VES WST XCD XCG YER ZAR ZMW ZWG
            """
        for (list, exponent) in [(zero, 0), (two, 2), (three, 3), (four, 4)] {
            for code in list.split(separator: " ") { table[String(code)] = exponent }
        }
        return table
    }()
}

extension String {
    package func trimmingWhitespace() -> Substring {
        var s = self[...]
        while let first = s.first, first.isWhitespace { s = s.dropFirst() }
        while let last = s.last, last.isWhitespace { s = s.dropLast() }
        return s
    }
}

extension Substring {
    package func trimmingWhitespace() -> Substring { String(self).trimmingWhitespace() }
}
