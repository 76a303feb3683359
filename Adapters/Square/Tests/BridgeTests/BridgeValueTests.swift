import Foundation
import Testing
import SquareMobilePaymentsSurface
import SquareMobilePaymentsSurfaceBackend
import TenderSquare
@testable import TenderSquareMobilePaymentsOverSurface
import class TenderTesting.ManualClock

/// A payment kind the 2.5 SDK does not have: only what every `Payment` has.
private final class FuturePayment: NSObject, Payment {
    let amountMoney: any MoneyAmount = Money(amount: 7_00, currency: .CAD)
    let appFeeMoney: (any MoneyAmount)? = nil
    let cashDetails: (any CashPaymentDetails)? = nil
    let createdAt = Date(timeIntervalSince1970: 1_800_000_000)
    let id: String? = "future-1"
    let locationID: String? = "LA1"
    let orderID: String? = nil
    let referenceID: String? = "order-9"
    let sourceType = SourceType.wallet
    let tipMoney: (any MoneyAmount)? = nil
    var totalMoney: any MoneyAmount { amountMoney }
    let updatedAt = Date(timeIntervalSince1970: 1_800_000_100)
}

@Suite("The bridge copies SDK objects into values and builds SDK objects from values", .surfaceBackendExclusive)
struct BridgeValueTests {
    typealias Values = SquareBridgeValues
    let created = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("an online payment with card, surcharge and tip: every field copied, the card by its last four only")
    func onlinePayment() throws {
        _ = installPlainBackend()
        let fields = SurfacePaymentFields(
            id: "sqpay_1", createdAt: created, updatedAt: created.addingTimeInterval(5),
            amountMoney: Money(amount: 10_30, currency: .USD), tipMoney: Money(amount: 2_00, currency: .USD),
            appFeeMoney: Money(amount: 10, currency: .USD), totalMoney: Money(amount: 12_30, currency: .USD),
            locationID: "LA1", orderID: "order-id", referenceID: "order-1", sourceType: .card)
        let card = SurfaceCard(cardBrand: .visa, coBrand: .none, last4: "4242", expMonth: 12, expYear: 2030,
                               cardholderName: "A. Buyer", id: "card-1")
        let details = SurfaceCardPaymentDetails(
            status: .captured, entryMethod: .emv, card: card, applicationIdentifier: "A000000003101001",
            applicationName: "VISA CREDIT", authResultCode: "ABC123",
            appliedCardSurchargeDetails: SurfaceCardSurchargeDetails(cardSurchargeMoney: Money(amount: 30, currency: .USD)))
        let sdk = SurfaceOnlinePayment(fields, status: .completed, cardDetails: details, customerID: "cust",
                                       note: "note", teamMemberID: "tm")
        let value = try #require(Values.payment(sdk) as? Square.OnlinePayment)
        let expected = Square.OnlinePayment(
            id: "sqpay_1", status: .completed, amountMoney: Square.Money(amount: 10_30, currency: .USD),
            tipMoney: Square.Money(amount: 2_00, currency: .USD), appFeeMoney: Square.Money(amount: 10, currency: .USD),
            createdAt: created, updatedAt: created.addingTimeInterval(5), locationID: "LA1", orderID: "order-id",
            referenceID: "order-1", sourceType: .card,
            cardDetails: Square.CardPaymentDetails(
                status: .captured, entryMethod: .emv,
                card: Square.Card(id: "card-1", cardBrand: .visa, coBrand: .none, last4: "4242", expMonth: 12,
                                  expYear: 2030, cardholderName: "A. Buyer"),
                authResultCode: "ABC123", applicationIdentifier: "A000000003101001", applicationName: "VISA CREDIT",
                appliedCardSurchargeDetails: Square.CardSurchargeDetails(
                    cardSurchargeMoney: Square.Money(amount: 30, currency: .USD))),
            customerID: "cust", note: "note", teamMemberID: "tm")
        #expect(value == expected)
        #expect(value.totalMoney == Square.Money(amount: 12_30, currency: .USD))

        let leaky = SurfaceCard(cardBrand: .visa, last4: "4111111111111111", expMonth: 1, expYear: 2030)
        let leakyPayment = SurfaceOnlinePayment(fields, status: .completed,
                                                cardDetails: SurfaceCardPaymentDetails(status: .captured,
                                                                                       entryMethod: .swiped, card: leaky))
        let copied = try #require(Values.payment(leakyPayment) as? Square.OnlinePayment)
        #expect(copied.cardDetails?.card?.last4 == nil, "more than four digits is never copied")
    }

    @Test("an offline payment: local id, status, upload time and the offline card")
    func offlinePayment() throws {
        _ = installPlainBackend()
        let fields = SurfacePaymentFields(
            id: nil, createdAt: created, updatedAt: created, amountMoney: Money(amount: 45_00, currency: .USD),
            totalMoney: Money(amount: 45_00, currency: .USD), locationID: "LA1", referenceID: "order-2",
            sourceType: .card)
        let sdk = SurfaceOfflinePayment(
            fields, localID: "local-1", status: .uploaded, uploadedAt: created.addingTimeInterval(60),
            cardDetails: SurfaceOfflineCardPaymentDetails(entryMethod: .contactless,
                                                          card: SurfaceOfflineCard(cardBrand: .mastercard, last4: "0005"),
                                                          applicationName: "MASTERCARD"))
        let value = try #require(Values.payment(sdk) as? Square.OfflinePayment)
        #expect(value == Square.OfflinePayment(
            localID: "local-1", status: .uploaded, amountMoney: Square.Money(amount: 45_00, currency: .USD),
            createdAt: created, updatedAt: created, uploadedAt: created.addingTimeInterval(60), locationID: "LA1",
            referenceID: "order-2",
            cardDetails: Square.OfflineCardPaymentDetails(
                entryMethod: .contactless, card: Square.OfflineCard(cardBrand: .mastercard, last4: "0005"),
                applicationName: "MASTERCARD")))
    }

    @Test("a payment kind the SDK version does not know is an online payment with status unknown")
    func unknownPaymentKind() throws {
        _ = installPlainBackend()
        let value = try #require(Values.payment(FuturePayment()) as? Square.OnlinePayment)
        #expect(value.status == .unknown && value.id == "future-1" && value.referenceID == "order-9")
        #expect(value.amountMoney == Square.Money(amount: 7_00, currency: .CAD) && value.sourceType == .wallet)
    }

    @Test("payment parameters: value → SDK object (every field, autocomplete set explicitly) → value again")
    func parametersBothWays() {
        let backend = installPlainBackend()
        var parameters = Square.PaymentParameters(paymentAttemptID: "order-3#2",
                                                  amountMoney: Square.Money(amount: 25_00, currency: .GBP),
                                                  processingMode: .autoDetect)
        parameters.tipMoney = Square.Money(amount: 3_00, currency: .GBP)
        parameters.appFeeMoney = Square.Money(amount: 1_00, currency: .GBP)
        parameters.autocomplete = false
        parameters.delayDuration = 3_600
        parameters.delayAction = .complete
        parameters.acceptPartialAuthorization = true
        parameters.allowCardSurcharge = false
        parameters.referenceID = "order-3"
        parameters.note = "two coffees"
        parameters.orderID = "ord"
        parameters.customerID = "cust"
        parameters.locationID = "LA1"
        parameters.teamMemberID = "tm"
        parameters.statementDescriptionIdentifier = "TENDER"
        let sdk = Values.sdk(parameters)
        #expect(sdk.paymentAttemptID == "order-3#2" && sdk.processingMode == .autoDetect)
        #expect(sdk.amountMoney.amount == 25_00 && sdk.amountMoney.currency == .GBP)
        #expect(sdk.tipMoney?.amount == 3_00 && sdk.appFeeMoney?.amount == 1_00)
        #expect(!sdk.autocomplete && sdk.delayDuration == 3_600 && sdk.delayAction == .complete)
        #expect(sdk.acceptPartialAuthorization && !sdk.allowCardSurcharge)
        #expect(sdk.referenceID == "order-3" && sdk.note == "two coffees" && sdk.orderID == "ord")
        #expect(sdk.customerID == "cust" && sdk.locationID == "LA1" && sdk.teamMemberID == "tm")
        #expect(sdk.statementDescriptionIdentifier == "TENDER")
        #expect(sdk.createdAt == backend.now, "the SDK stamps its own device clock")
        #expect(Values.value(sdk) == parameters)

        let defaults = Square.PaymentParameters(paymentAttemptID: "a", amountMoney: Square.Money(amount: 1, currency: .USD),
                                                processingMode: .onlineOnly)
        let autocompleteOff = SimulatorSurfaceBackend(simulator: backend.simulator, clock: ManualClock(),
                                                      defaultAutocomplete: false)
        SurfaceBackendSlot.install(autocompleteOff)
        #expect(Values.sdk(defaults).autocomplete, "Square's unstated default is never relied on")
    }

    @Test("prompt parameters and card input methods go member by member")
    func promptAndInputMethods() {
        _ = installPlainBackend()
        let prompt = Values.sdk(Square.PromptParameters(mode: .custom, additionalMethods: [.keyed, .tapToPay]))
        #expect(prompt.mode == .custom)
        #expect(prompt.additionalMethods.contains(.keyed) && prompt.additionalMethods.contains(.tapToPay))
        #expect(!prompt.additionalMethods.contains(.cash))
        #expect(Values.value(CardInputMethods([.chip, .contactless])) == [.chip, .contactless])
        #expect(Values.value(CardInputMethods()) == [])
    }

    @Test("a reader: status with the SDK's reason title and detail, battery level as the SDK says, firmware failure")
    func reader() {
        _ = installPlainBackend()
        let status = SurfaceReaderStatusInfo(status: .readerUnavailable, unavailableReasonInfo:
            SurfaceReaderUnavailableReasonInfo(reason: .bluetoothFailure, title: "Bluetooth", detail: "Turn it on"))
        let sdk = SurfaceReaderInfo(
            id: 9, name: "Square Reader", serialNumber: "SQR-9", model: .contactlessAndChip,
            connectionType: .bluetooth, supportedInputMethods: CardInputMethods([.chip, .contactless]),
            statusInfo: status, batteryStatus: SurfaceReaderBatteryStatus(isCharging: true, level: .low, percentage: 50),
            firmwareInfo: SurfaceReaderFirmwareInfo(
                version: "3.1", updateStatus: .failed, updatePercentage: 40,
                failureReason: NSError(domain: "fw", code: 1, userInfo: [NSLocalizedDescriptionKey: "firmwareFailure"])),
            cardInsertionStatus: .inserted, isConnectionRetryable: true, isRebootable: true)
        let value = Values.reader(sdk)
        #expect(value.id == 9 && value.name == "Square Reader" && value.serialNumber == "SQR-9")
        #expect(value.model == .contactlessAndChip && value.connectionType == .bluetooth)
        #expect(value.supportedInputMethods == [.chip, .contactless])
        #expect(value.statusInfo.status == .readerUnavailable)
        #expect(value.statusInfo.unavailableReasonInfo == Square.ReaderUnavailableReasonInfo(
            reason: .bluetoothFailure, title: "Bluetooth", detail: "Turn it on"))
        #expect(value.batteryStatus?.level == .low && value.batteryStatus?.percentage == 50,
                "the SDK's level, not one derived from the percentage (which would be mid)")
        #expect(value.firmwareInfo?.updateStatus == .failed && value.firmwareInfo?.updatePercentage == 40)
        #expect(value.firmwareInfo?.failureReason == "firmwareFailure")
        #expect(value.cardInsertionStatus == .inserted && value.isConnectionRetryable && value.isRebootable)
    }

    @Test("location, payment settings and SDK settings")
    func sessionValues() {
        _ = installPlainBackend()
        #expect(Values.location(SurfaceLocation(id: "LA1", name: "Main St", mcc: "5814", currency: .USD))
            == Square.Location(id: "LA1", name: "Main St", mcc: "5814", currency: .USD))
        let settings = SurfacePaymentSettings(isOfflineProcessingAllowed: true,
                                              offlineTransactionAmountLimit: Money(amount: 200_00, currency: .USD),
                                              offlineTotalStoredAmountLimit: Money(amount: 500_00, currency: .USD))
        #expect(Values.paymentSettings(settings) == BridgeSellers.offline)
        #expect(Values.sdkSettings(SurfaceSDKSettings(environment: .sandbox, version: "2.5.0",
                                                      securityComplianceVersion: "x"))
            == Square.SDKSettings(environment: .sandbox, version: "2.5.0"))
    }
}
