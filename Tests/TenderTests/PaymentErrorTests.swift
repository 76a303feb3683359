import Foundation
import Testing
@testable import Tender

@Suite struct PaymentErrorTests {
    @Test func descriptionIsActionable() {
        let error = PaymentError(.cardDeclined, recovery: .collectAnotherCard, phase: .processing,
                                 message: "The card was declined.",
                                 vendor: .init(processor: "stripe", name: "declinedByStripeAPI", numericCode: 6000,
                                               declineCode: "insufficient_funds"))
        #expect(error.description.contains("Ask for another card."))
        #expect(error.description.contains("stripe declinedByStripeAPI 6000 (insufficient_funds)"))
        #expect(error.description.contains("during processing"))
        #expect(!error.isRetryable)
    }

    @Test func everyRecoveryHasAdvice() {
        for recovery in PaymentError.Recovery.allCases {
            #expect(!recovery.description.isEmpty)
        }
        #expect(PaymentError.Recovery.retrySamePayment.isRetryable && PaymentError.Recovery.waitAndRetry.isRetryable)
    }

    @Test func codesAreOpenAndStable() {
        let custom = PaymentError.Code(rawValue: "house_account_over_limit")
        #expect(custom != .cardDeclined)
        #expect(PaymentError.Code.cardDeclined.rawValue == "card_declined")
    }

    @Test func codableRoundTripKeepsVendorError() throws {
        let error = PaymentError(.offlineStoredTotalExceeded, recovery: .goOnline, phase: .routing, message: "m",
                                 vendor: .init(processor: "square", name: "offlineStoredAmountExceeded"),
                                 limit: OfflineLimitViolation(kind: .storedTotalMaximum, source: .processor("square"),
                                                              limit: 10, attempted: 11, currency: .usd))
        let decoded = try JSONDecoder().decode(PaymentError.self, from: JSONEncoder().encode(error))
        #expect(decoded == error)
    }

    @Test func vendorTableFallsBackWithoutGuessing() {
        let table = VendorErrorTable(processor: "acme", vendorType: "AcmeError", rows: [
            VendorErrorMapping("declined", 1, .cardDeclined, .collectAnotherCard, .processing, "Declined."),
        ])
        #expect(table.duplicateNames.isEmpty)
        let known = table.error(named: "declined", numericCode: 1, declineCode: "do_not_honor")
        #expect(known.code == .cardDeclined && known.vendor?.numericCode == 1)
        #expect(known.message.contains("do not honor"))
        let unknown = table.error(named: "brandNewCode", numericCode: 9999, vendorMessage: "?", phase: .processing)
        #expect(unknown.code == .unrecognizedVendorError)
        #expect(unknown.recovery == .retrySamePayment)
        #expect(unknown.phase == .processing)
        #expect(unknown.vendor?.name == "brandNewCode" && unknown.vendor?.numericCode == 9999)
        let duplicated = VendorErrorTable(processor: "acme", vendorType: "E", rows: [
            VendorErrorMapping("a", nil, .unexpected, .none, .unknown, ""),
            VendorErrorMapping("a", nil, .unexpected, .none, .unknown, ""),
        ])
        #expect(duplicated.duplicateNames == ["a"])
    }

    @Test func cardDetailsDropAnythingButLastFour() {
        #expect(CardDetails(brand: .visa, last4: "4242424242424242", entryMethod: .chip).last4 == nil)
        #expect(CardDetails(brand: .visa, last4: "42a2", entryMethod: .chip).last4 == nil)
        #expect(CardDetails(brand: .visa, last4: "4242", entryMethod: .chip, expiryMonth: 0, expiryYear: 0).expiryMonth == nil)
    }
}
