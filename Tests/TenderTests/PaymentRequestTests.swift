import Testing
@testable import Tender

@Suite struct PaymentRequestValidationTests {
    static let usd = Money(minorUnits: 1000, currency: .usd)

    func code(_ request: PaymentRequest) -> PaymentError.Code? {
        do {
            try request.validate()
            return nil
        } catch {
            #expect(error.phase == .validation)
            #expect(error.recovery == .fixRequest)
            return error.code
        }
    }

    @Test func validRequestPasses() {
        let request = PaymentRequest(amount: Self.usd, reference: "order-1", metadata: ["table": "4"],
                                     tip: Money(minorUnits: 100, currency: .usd), note: "thanks")
        #expect(code(request) == nil)
    }

    @Test(arguments: [Int64(0), -1, -100, Int64.min])
    func zeroOrNegativeAmounts(minor: Int64) {
        #expect(code(PaymentRequest(amount: Money(minorUnits: minor, currency: .usd), reference: "r")) == .invalidAmount)
    }

    @Test func absurdAmounts() {
        #expect(code(PaymentRequest(amount: Money(minorUnits: .max, currency: .usd), reference: "r")) == .invalidAmount)
        #expect(code(PaymentRequest(amount: Money(minorUnits: 10_000_000_000, currency: .usd), reference: "r")) == .invalidAmount)
        #expect(code(PaymentRequest(amount: Money(minorUnits: 9_999_999_900, currency: .usd), reference: "r")) == nil)
        #expect(code(PaymentRequest(amount: Money(minorUnits: 100_000_000, currency: .jpy), reference: "r")) == .invalidAmount)
        let tipOverflow = PaymentRequest(amount: Money(minorUnits: 9_999_999_900, currency: .usd), reference: "r",
                                         tip: Money(minorUnits: .max, currency: .usd))
        #expect([.invalidAmount, .amountOverflow].contains(code(tipOverflow)))
    }

    @Test(arguments: ["", "   ", " lead", "trail ", String(repeating: "x", count: 41), "bad\u{0007}ref", "line\nbreak"])
    func badReferences(reference: String) {
        #expect(code(PaymentRequest(amount: Self.usd, reference: reference)) == .invalidReference)
    }

    @Test func referenceAtTheLimitPasses() {
        #expect(code(PaymentRequest(amount: Self.usd, reference: String(repeating: "x", count: 40))) == nil)
    }

    @Test func metadataLimits() {
        let fifty = Dictionary(uniqueKeysWithValues: (0..<50).map { ("k\($0)", "v") })
        #expect(code(PaymentRequest(amount: Self.usd, reference: "r", metadata: fifty)) == nil)
        var fiftyOne = fifty
        fiftyOne["k50"] = "v"
        #expect(code(PaymentRequest(amount: Self.usd, reference: "r", metadata: fiftyOne)) == .invalidMetadata)
        #expect(code(PaymentRequest(amount: Self.usd, reference: "r", metadata: [String(repeating: "k", count: 40): "v"])) == nil)
        #expect(code(PaymentRequest(amount: Self.usd, reference: "r", metadata: [String(repeating: "k", count: 41): "v"])) == .invalidMetadata)
        #expect(code(PaymentRequest(amount: Self.usd, reference: "r", metadata: ["k": String(repeating: "v", count: 500)])) == nil)
        #expect(code(PaymentRequest(amount: Self.usd, reference: "r", metadata: ["k": String(repeating: "v", count: 501)])) == .invalidMetadata)
        #expect(code(PaymentRequest(amount: Self.usd, reference: "r", metadata: ["": "v"])) == .invalidMetadata)
        #expect(code(PaymentRequest(amount: Self.usd, reference: "r", metadata: ["tender_reference": "x"])) == .invalidMetadata)
    }

    @Test func tipAndNote() {
        #expect(code(PaymentRequest(amount: Self.usd, reference: "r", tip: Money(minorUnits: 1, currency: .eur))) == .currencyMismatch)
        #expect(code(PaymentRequest(amount: Self.usd, reference: "r", tip: Money(minorUnits: -1, currency: .usd))) == .invalidRequest)
        #expect(code(PaymentRequest(amount: Self.usd, reference: "r", note: String(repeating: "n", count: 501))) == .invalidRequest)
    }

    @Test func defaultPolicyIsRequireOnline() {
        #expect(PaymentRequest(amount: Self.usd, reference: "r").offlinePolicy == .requireOnline)
        #expect(OfflinePolicy.default == .requireOnline)
    }
}
