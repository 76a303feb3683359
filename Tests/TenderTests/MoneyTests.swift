import Foundation
import Testing
@testable import Tender

@Suite struct CurrencyTests {
    @Test(arguments: [("USD", 2), ("usd", 2), (" jpy ", 0), ("KWD", 3), ("BHD", 3), ("CLF", 4), ("EUR", 2), ("ISK", 0)])
    func knownCodes(code: String, exponent: Int) throws {
        let currency = try Currency(code: code)
        #expect(currency.minorUnitExponent == exponent)
        #expect(currency.code == code.trimmingCharacters(in: .whitespaces).uppercased())
    }

    @Test(arguments: ["", "US", "USDD", "U$D", "123", "XYZ", "ZZZ", "ÜSD"])
    func rejectsMalformedOrUnknown(code: String) {
        #expect(throws: PaymentError.self) { try Currency(code: code) }
        do { _ = try Currency(code: code) } catch { #expect(error.code == .invalidCurrency && error.recovery == .fixRequest) }
    }

    @Test func customCurrencies() throws {
        let custom = try Currency(code: "XTS", minorUnitExponent: 2)
        #expect(custom.code == "XTS")
        #expect(throws: PaymentError.self) { try Currency(code: "JPY", minorUnitExponent: 2) }
        #expect(throws: PaymentError.self) { try Currency(code: "ABC", minorUnitExponent: 7) }
    }

    @Test func codableValidatesOnDecode() throws {
        let data = try JSONEncoder().encode([Currency.usd])
        #expect(String(decoding: data, as: UTF8.self) == "[\"USD\"]")
        #expect(try JSONDecoder().decode([Currency].self, from: data) == [.usd])
        #expect(throws: (any Error).self) { try JSONDecoder().decode([Currency].self, from: Data("[\"QQQ\"]".utf8)) }
    }

    @Test func tableIsLargeAndConsistent() {
        #expect(Currency.allKnown.count > 150)
        #expect(Currency.allKnown.allSatisfy { (0...4).contains($0.minorUnitExponent) })
        #expect(Currency.kwd.minorUnitsPerMajorUnit == 1000 && Currency.jpy.minorUnitsPerMajorUnit == 1)
    }
}

@Suite struct MoneyTests {
    @Test(arguments: [
        ("12.34", "USD", Int64(1234)), ("1,234.5", "USD", 123_450), ("0.05", "USD", 5), ("1234", "JPY", 1234),
        ("1.234", "KWD", 1234), ("-3.10", "EUR", -310), ("7", "USD", 700),
    ])
    func parses(text: String, code: String, minor: Int64) throws {
        let money = try Money(parsing: text, currency: Currency(code: code))
        #expect(money.minorUnits == minor)
    }

    @Test(arguments: [("12.345", "USD"), ("1.5", "JPY"), ("", "USD"), ("abc", "USD"), ("1.2.3", "USD"), ("1.", "USD"),
                      (".5", "USD"), ("--1", "USD"), ("1e3", "USD"), ("NaN", "USD"), ("inf", "USD")])
    func rejectsMalformedAmounts(text: String, code: String) throws {
        let currency = try Currency(code: code)
        #expect(throws: PaymentError.self) { try Money(parsing: text, currency: currency) }
    }

    @Test func parsingOverflowIsAnError() {
        do {
            _ = try Money(parsing: "99999999999999999999", currency: .usd)
            Issue.record("expected overflow")
        } catch {
            #expect(error.code == .amountOverflow)
        }
    }

    @Test func formats() {
        #expect(Money(minorUnits: 1234, currency: .usd).description == "12.34 USD")
        #expect(Money(minorUnits: 5, currency: .usd).decimalString == "0.05")
        #expect(Money(minorUnits: -50, currency: .kwd).decimalString == "-0.050")
        #expect(Money(minorUnits: 1234, currency: .jpy).description == "1234 JPY")
        #expect(Money(minorUnits: Int64.min, currency: .usd).decimalString == "-92233720368547758.08")
    }

    @Test func formattingRoundTrips() throws {
        for minor: Int64 in [0, 1, 99, 100, 123_456_789, -42] {
            for currency in [Currency.usd, .jpy, .kwd] {
                let money = Money(minorUnits: minor, currency: currency)
                #expect(try Money(parsing: money.decimalString, currency: currency) == money)
            }
        }
    }

    @Test func arithmeticIsCheckedAndSameCurrency() throws {
        let a = Money(minorUnits: 100, currency: .usd)
        #expect(try a.adding(a).minorUnits == 200)
        #expect(try a.subtracting(Money(minorUnits: 150, currency: .usd)).minorUnits == -50)
        #expect(try a.multiplied(by: 3).minorUnits == 300)
        #expect(throws: PaymentError.self) { try a.adding(Money(minorUnits: 1, currency: .eur)) }
        #expect(throws: PaymentError.self) { try Money(minorUnits: .max, currency: .usd).adding(a) }
        #expect(throws: PaymentError.self) { try Money(minorUnits: .min, currency: .usd).subtracting(a) }
        #expect(throws: PaymentError.self) { try Money(minorUnits: .max / 2, currency: .usd).multiplied(by: 3) }
        #expect(throws: PaymentError.self) { try Money(minorUnits: -1, currency: .usd).unsignedMinorUnits() }
        #expect(try a.unsignedMinorUnits() == 100)
    }
}
