import Foundation
import Testing
import Tender
@testable import TenderSquare
@testable import TenderSquareSimulator

@Suite("Square mapping")
struct SquareMappingTests {
    // MARK: Error tables: every case has exactly one row

    static let tables: [(table: VendorErrorTable, cases: [String], expected: Int)] = [
        (SquareErrorTable.paymentError, Square.PaymentError.allCases.map(\.caseName), 19),
        (SquareErrorTable.authorizationError, Square.AuthorizationError.allCases.map(\.caseName), 15),
        (SquareErrorTable.offlinePaymentQueueError, Square.OfflinePaymentQueueError.allCases.map(\.caseName), 3),
        (SquareErrorTable.readerUnavailableReason, Square.ReaderUnavailableReason.allCases.map(\.caseName), 12),
        (SquareErrorTable.readerPairingError, Square.ReaderPairingError.allCases.map(\.caseName), 17),
    ]

    @Test("every mirrored error case has one row, and the counts are Square's", arguments: 0..<5)
    func tableIsExhaustive(index: Int) {
        let (table, cases, expected) = Self.tables[index]
        #expect(cases.count == expected, "\(table.vendorType) should have \(expected) cases")
        #expect(table.rows.count == expected)
        #expect(table.duplicateNames.isEmpty)
        for name in cases {
            #expect(table.mapping(named: name) != nil, "\(table.vendorType).\(name) is unmapped")
        }
        #expect(Set(table.rows.map(\.name)) == Set(cases), "a row names a case the mirror lacks")
        #expect(table.rows.allSatisfy { $0.numericCode == nil }, "Square publishes no raw values")
        #expect(table.processor == "square")
    }

    @Test("every PaymentError case converts with its vendor name kept", arguments: Square.PaymentError.allCases)
    func paymentErrorKeepsVendor(error: Square.PaymentError) {
        let mapped = error.tenderError
        #expect(mapped.vendor?.name == error.caseName)
        #expect(mapped.vendor?.processor == "square")
        #expect(mapped.vendor?.numericCode == nil)
        #expect(mapped.code != .unrecognizedVendorError)
    }

    @Test("the limits and routing errors map to the matching core codes")
    func keyRows() {
        let stored = Square.PaymentError.offlineStoredAmountExceeded.tenderError
        #expect(stored.code == .offlineStoredTotalExceeded && stored.recovery == .goOnline && stored.phase == .routing)
        #expect(Square.PaymentError.offlineTransactionAmountExceeded.tenderError.code == .offlinePaymentLimitExceeded)
        #expect(Square.PaymentError.merchantNotOptedIntoOfflineProcessing.tenderError.code == .offlineUnavailable)
        #expect(Square.PaymentError.sandboxUnsupportedForOfflineProcessing.tenderError.code == .offlineUnavailable)
        #expect(Square.PaymentError.paymentAttemptIdReused.tenderError.code == .duplicateReference)
        #expect(Square.PaymentError.paymentAlreadyInProgress.tenderError.code == .paymentInProgress)
        #expect(Square.PaymentError.timedOut.tenderError.recovery == .retrySamePayment)
        #expect(Square.AuthorizationError.invalidAccessToken.tenderError.code == .notAuthorized)
        #expect(Square.AuthorizationError.noNetwork.tenderError.recovery == .goOnline)
        #expect(Square.OfflinePaymentQueueError.unsupportedSandboxEnvironment.tenderError.code == .offlineUnavailable)
        #expect(Square.ReaderUnavailableReason.notConnectedToInternet.tenderError.code == .readerOfflineConnectionRefused)
        #expect(Square.ReaderUnavailableReason.blockingFirmwareUpdate.tenderError.phase == .softwareUpdate)
    }

    @Test("an unknown case name maps to the documented fallback, never success or decline")
    func unknownCaseFallsBack() {
        let error = SquareErrorTable.paymentError.error(named: "someFutureCase")
        #expect(error.code == .unrecognizedVendorError)
        #expect(error.recovery == .retrySamePayment)
        #expect(error.vendor?.name == "someFutureCase")
    }

    // MARK: Enum mappings

    @Test("RoutingDecision ↔ ProcessingMode")
    func processingMode() {
        #expect(SquareMapping.processingMode(for: .online) == .onlineOnly)
        #expect(SquareMapping.processingMode(for: .onlineWithOfflineFallback) == .autoDetect)
        #expect(SquareMapping.processingMode(for: .offline) == .offlineOnly)
        let refusal = PaymentError(.offlineNotAllowed, recovery: .goOnline, phase: .routing, message: "no")
        #expect(SquareMapping.processingMode(for: .refused(refusal)) == nil)
        #expect(Square.ProcessingMode.allCases.map(SquareMapping.offlinePolicy) == [.requireOnline, .forceOffline, .preferOnline])
    }

    @Test("OfflineStatus maps as OfflinePaymentStatus documents", arguments: Square.OfflineStatus.allCases)
    func offlineStatus(status: Square.OfflineStatus) {
        let expected: [Square.OfflineStatus: (OfflinePaymentStatus, PaymentState?)] = [
            .queued: (.stored, .storedOffline), .uploaded: (.uploaded, .storedOffline),
            .failedToUpload: (.failedToForward, .failedToForward),
            .failedToProcess: (.declinedAfterForwarding, .declinedAfterForwarding),
            .processed: (.forwarded, .forwarded), .unknown: (.unknown, nil),
        ]
        #expect(expected.count == 6)
        #expect(SquareMapping.offlinePaymentStatus(status) == expected[status]?.0)
        #expect(SquareMapping.paymentState(status) == expected[status]?.1)
    }

    @Test("PaymentStatus and CardPaymentStatus map to session states")
    func paymentStatuses() {
        let online: [Square.PaymentStatus: PaymentState] = [
            .initialized: .processing, .pending: .processing, .approved: .authorized, .completed: .succeeded,
            .canceled: .canceled, .failed: .declined, .unknown: .outcomeUnknown,
        ]
        #expect(Set(online.keys) == Set(Square.PaymentStatus.allCases))
        for (status, state) in online { #expect(SquareMapping.paymentState(status) == state) }
        let card: [Square.CardPaymentStatus: PaymentState] = [
            .authorized: .authorized, .captured: .succeeded, .voided: .canceled, .failed: .declined,
            .unknown: .outcomeUnknown,
        ]
        #expect(Set(card.keys) == Set(Square.CardPaymentStatus.allCases))
        for (status, state) in card { #expect(SquareMapping.paymentState(status) == state) }
    }

    @Test("CardEntryMethod and CardBrand map by case")
    func cards() {
        let methods: [Square.CardEntryMethod: CardEntryMethod] = [
            .contactless: .contactless, .emv: .chip, .keyed: .keyed, .onFile: .onFile, .swiped: .swiped,
            .unknown: .unknown,
        ]
        #expect(Set(methods.keys) == Set(Square.CardEntryMethod.allCases))
        for (method, expected) in methods { #expect(SquareMapping.entryMethod(method) == expected) }
        let brands: [Square.CardBrand: CardBrand] = [
            .americanExpress: .amex, .chinaUnionPay: .unionPay, .discover: .discover, .discoverDiners: .dinersClub,
            .ebt: .ebt, .eftpos: .eftpos, .felica: .felica, .interac: .interac, .jcb: .jcb,
            .mastercard: .mastercard, .otherBrand: .other, .squareCapitalCard: .other, .squareGiftCard: .giftCard,
            .unknown: .unknown, .visa: .visa,
        ]
        #expect(Square.CardBrand.allCases.count == 15)
        #expect(Set(brands.keys) == Set(Square.CardBrand.allCases))
        for (brand, expected) in brands { #expect(SquareMapping.cardBrand(brand) == expected) }
    }

    @Test("receipts from offline card details leave out what Square does not supply offline")
    func offlineReceipt() {
        let details = Square.OfflineCardPaymentDetails(
            entryMethod: .contactless, card: Square.OfflineCard(cardBrand: .mastercard, last4: "5100"),
            applicationIdentifier: "A0000000041010", applicationName: "MASTERCARD")
        let receipt = SquareMapping.cardDetails(details)
        #expect(receipt.brand == .mastercard && receipt.last4 == "5100" && receipt.entryMethod == .contactless)
        #expect(receipt.applicationName == "MASTERCARD")
        #expect(receipt.authorizationCode == nil && receipt.expiryMonth == nil && receipt.expiryYear == nil)
    }

    @Test("Currency: the six plus unknown")
    func currencies() throws {
        #expect(Square.Currency.allCases.count == 7)
        let expected: [Square.Currency: Currency?] = [
            .AUD: .aud, .CAD: .cad, .EUR: .eur, .GBP: .gbp, .JPY: .jpy, .USD: .usd, .unknown: nil,
        ]
        for (square, core) in expected {
            #expect(SquareMapping.currency(square) == core)
            if let core { #expect(SquareMapping.squareCurrency(core) == square) }
        }
        #expect(SquareMapping.supportedCurrencies.count == 6)
        #expect(Square.Currency("usd") == .USD && Square.Currency("KWD") == nil && Square.Currency("unknown") == nil)
        #expect(try SquareMapping.squareMoney(Money(minorUnits: 1234, currency: .jpy)) == Square.Money(amount: 1234, currency: .JPY))
        #expect(SquareMapping.money(Square.Money(amount: 1250, currency: .unknown)) == nil)
    }

    @Test("money outside Square's six currencies, or negative, is refused, never truncated")
    func moneyRefusals() {
        #expect(throws: PaymentError.self) { try SquareMapping.squareMoney(Money(minorUnits: 1000, currency: .kwd)) }
        do {
            _ = try SquareMapping.squareMoney(Money(minorUnits: -1, currency: .usd))
            Issue.record("a negative amount was accepted")
        } catch {
            #expect(error.code == .invalidAmount)
        }
        do {
            _ = try SquareMapping.squareMoney(Money(minorUnits: 1000, currency: .kwd))
        } catch {
            #expect(error.code == .invalidCurrency)
        }
    }

    @Test("readers: input methods, statuses and unavailable reasons")
    func readers() {
        #expect(SquareMapping.inputOptions([.chip, .contactless]) == [.insert, .tap])
        #expect(SquareMapping.inputOptions([.swipe]) == [.swipe])
        let statuses: [Square.ReaderStatus: ReaderConnectionStatus] = [
            .connectingToDevice: .connecting, .connectingToSquare: .connecting, .readerUnavailable: .notConnected,
            .faulty: .notConnected, .ready: .connected,
        ]
        #expect(Set(statuses.keys) == Set(Square.ReaderStatus.allCases))
        for (status, expected) in statuses { #expect(SquareMapping.connectionStatus(status) == expected) }
        #expect(SquareMapping.disconnectReason(.bluetoothFailure) == .linkLost)
        #expect(SquareMapping.disconnectReason(.notConnectedToInternet) == .networkLost)
        #expect(SquareMapping.readerError(.ready) == nil)
        #expect(SquareMapping.readerError(Square.ReaderStatusInfo(status: .faulty))?.code == .readerFault)
        for reason in Square.ReaderUnavailableReason.allCases {
            let error = SquareMapping.readerError(Square.ReaderStatusInfo(status: .readerUnavailable, unavailableReason: reason))
            #expect(error?.vendor?.name == reason.caseName)
        }
    }

    @Test("a status other than readerUnavailable carries no reason")
    func statusInfoDropsReason() {
        let info = Square.ReaderStatusInfo(status: .ready, unavailableReason: .bluetoothFailure)
        #expect(info.unavailableReasonInfo == nil)
    }

    @Test("pairing failures map by case; an error that is not a ReaderPairingError falls back")
    func pairingErrors() {
        #expect(SquareMapping.pairingError(Square.ReaderPairingError.timedOut).vendor?.name == "timedOut")
        struct Other: Error {}
        #expect(SquareMapping.pairingError(Other()).code == .unrecognizedVendorError)
    }

    @Test("Money totals and MoneyAmount copies")
    func moneyAmounts() {
        let amount: any Square.MoneyAmount = Square.Money(amount: 12_50, currency: .CAD)
        #expect(Square.Money(amount) == Square.Money(amount: 12_50, currency: .CAD))
        #expect(Square.Money(totaling: Square.Money(amount: 10_00, currency: .USD), nil,
                             Square.Money(amount: 2_50, currency: .USD)) == Square.Money(amount: 12_50, currency: .USD))
        #expect(Square.Money(totaling: Square.Money(amount: UInt.max, currency: .USD),
                             Square.Money(amount: 1, currency: .USD)).amount == UInt.max)
    }

    @Test("the other mirrored enums have Square's case counts")
    func caseCounts() {
        #expect(Square.ReaderChange.allCases.count == 10)
        #expect(Square.PaymentStatus.allCases.count == 7)
        #expect(Square.OfflineStatus.allCases.count == 6)
        #expect(Square.CardEntryMethod.allCases.count == 6)
        #expect(Square.CardPaymentStatus.allCases.count == 5)
        #expect(Square.ReaderStatus.allCases.count == 5)
        #expect(Square.AuthorizationState.allCases.count == 3)
        #expect(Square.ProcessingMode.allCases.count == 3)
        #expect(Square.PaymentRefundStatus.allCases.count == 4)
    }
}
