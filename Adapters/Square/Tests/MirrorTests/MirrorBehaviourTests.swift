import Foundation
import SquareMobilePaymentsSurface
import Testing

/// The mirror's own behaviour: what it implements (parameters, option sets, money, error bridging) and what it hands
/// to the backend seam. Serialized, and each test holds the slot's lease: the backend slot is process-global.
@Suite("Square surface mirror behaviour", .serialized, .surfaceBackendExclusive)
struct MirrorBehaviourTests {
    /// What ``RecordingSurfaceBackend`` answers for `request`.
    private func text(_ request: SurfaceText) -> String { "text:\(request)" }

    /// One case, as the backend sees it.
    private func the(_ type: String, _ name: String) -> SurfaceCase { SurfaceCase(type: type, name: name) }

    /// Installs a fresh recording backend for one test.
    private func withBackend<T>(_ backend: RecordingSurfaceBackend = RecordingSurfaceBackend(),
                                _ body: (RecordingSurfaceBackend) throws -> T) rethrows -> T {
        SurfaceBackendSlot.install(backend)
        defer { SurfaceBackendSlot.uninstall() }
        return try body(backend)
    }

    @Test("the entry point goes to the installed backend")
    func entryPoint() {
        withBackend { backend in
            MobilePaymentsSDK.initialize(squareApplicationID: "sandbox-sq0idb-app")
            #expect(backend.initializedWith == ["sandbox-sq0idb-app"])
            #expect(MobilePaymentsSDK.shared === backend.manager)
            #expect(MobilePaymentsSDK.shared.readCardInfoManager is SurfaceReadCardInfoManager)
        }
        #expect(SurfaceBackendSlot.installed == nil)
    }

    @Test("without a backend, the surface stops the process instead of guessing")
    func noBackendFailsLoudly() async throws {
        let results = [
            try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = MobilePaymentsSDK.shared
            },
            try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = PaymentParameters(paymentAttemptID: "a", amountMoney: Money(amount: 1, currency: .USD),
                                      processingMode: .onlineOnly)
            },
            try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                _ = PaymentStatus.completed.description
            },
        ]
        for result in results {
            #expect(String(decoding: result.standardErrorContent, as: UTF8.self)
                .contains("SquareMobilePaymentsSurface: no backend installed"))
        }
    }

    @Test("Money(totaling:) across currencies stops the process: Square does not document it")
    func mixedCurrencyTotalFailsLoudly() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Money(totaling: Money(amount: 1, currency: .USD), Money(amount: 1, currency: .CAD))
        }
        #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("across currencies"))
    }

    @Test("PaymentParameters: documented defaults, the backend's clock and autocomplete, total = amount + tip",
          arguments: [true, false])
    func paymentParameters(autocomplete: Bool) {
        let now = Date(timeIntervalSince1970: 1_900_000_000)
        withBackend(RecordingSurfaceBackend(now: now, defaultAutocomplete: autocomplete)) { _ in
            let parameters = PaymentParameters(
                paymentAttemptID: "order-17", amountMoney: Money(amount: 1250, currency: .USD), processingMode: .autoDetect)
            #expect(parameters.paymentAttemptID == "order-17")
            #expect(parameters.processingMode == .autoDetect)
            #expect(parameters.autocomplete == autocomplete)
            #expect(parameters.createdAt == now)
            #expect(parameters.acceptPartialAuthorization == false)
            #expect(parameters.allowCardSurcharge == true)
            #expect(parameters.delayAction == .cancel)
            #expect(parameters.delayDuration == 0)
            #expect(parameters.tipMoney == nil && parameters.locationID == nil && parameters.referenceID == nil)
            #expect(parameters.totalMoney.amount == 1250 && parameters.totalMoney.currency == .USD)
            parameters.tipMoney = Money(amount: 200, currency: .USD)
            #expect(parameters.totalMoney.amount == 1450)
            #expect(parameters.totalMoney.currency == .USD)
        }
    }

    @Test("Money: totals in one currency, equality by value, description from the backend")
    func money() {
        withBackend { backend in
            let total = Money(totaling: Money(amount: 100, currency: .JPY), nil, Money(amount: 50, currency: .JPY))
            #expect(total.amount == 150 && total.currency == .JPY)
            #expect(Money(amount: 5, currency: .EUR) == Money(amount: 5, currency: .EUR))
            #expect(Money(amount: 5, currency: .EUR) != Money(amount: 5, currency: .GBP))
            #expect(Set([Money(amount: 5, currency: .EUR), Money(amount: 5, currency: .EUR)]).count == 1)
            #expect(total.description == text(.moneyDescription(amount: 150, currency: the("Currency", "JPY"))))
            #expect(backend.textRequests.count == 1)
        }
    }

    @Test("CardInputMethods and AdditionalPaymentMethods behave as option sets")
    func optionSets() {
        withBackend { backend in
            let methods: CardInputMethods = [.chip, .contactless]
            #expect(methods.contains(.chip) && methods.contains(.contactless) && !methods.contains(.swipe))
            #expect(methods == CardInputMethods([.contactless, .chip]))
            #expect(CardInputMethods().isEmpty && !methods.isEmpty)
            #expect(methods.union(.swipe) == CardInputMethods([.chip, .contactless, .swipe]))
            #expect(Set([methods, CardInputMethods([.chip, .contactless])]).count == 1)
            #expect(methods.description == text(.optionSetDescription(
                type: "CardInputMethods", rawValue: methods.rawValue, members: ["chip", "contactless"])))

            #expect(AdditionalPaymentMethods.all.contains(.cash) && AdditionalPaymentMethods.all.contains(.keyed)
                && AdditionalPaymentMethods.all.contains(.tapToPay))
            #expect(AdditionalPaymentMethods([.cash, .keyed, .tapToPay]) == .all)
            #expect(!AdditionalPaymentMethods([.cash]).contains(.keyed))
            #expect(AdditionalPaymentMethods.allCases == [.cash, .keyed, .tapToPay])
            let prompt = PromptParameters(mode: .default, additionalMethods: [.keyed])
            #expect(prompt.mode == .default && prompt.additionalMethods == .keyed)
            _ = backend
        }
    }

    @Test("enums: text and Codable go through the backend by case name")
    func enums() throws {
        try withBackend { backend in
            #expect(PaymentStatus.completed.description == "<completed>")
            #expect(PromptMode.default.description == "<default>")
            #expect(backend.textRequests == [
                .description(the("PaymentStatus", "completed")), .description(the("PromptMode", "default")),
            ])
            let encoded = try JSONEncoder().encode([CardBrand.interac, .visa])
            #expect(String(decoding: encoded, as: UTF8.self) == #"["interac","visa"]"#)
            #expect(try JSONDecoder().decode([CardBrand].self, from: encoded) == [.interac, .visa])
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode([OfflineStatus].self, from: Data(#"["forwarded"]"#.utf8))
            }
            #expect(Currency.USD.currencyCode == "USD")
            #expect(Currency.unknown.currencyCode == text(.currencyCode(the("Currency", "unknown"))))
            #expect(Currency("<GBP>") == .GBP, "LosslessStringConvertible round-trips description")
            #expect(Currency("GBP?") == nil)
            // Square's published raw values for ProcessingMode, kept; all others are the mirror's own.
            #expect(ProcessingMode.onlineOnly.rawValue == 0 && ProcessingMode.offlineOnly.rawValue == 1
                && ProcessingMode.autoDetect.rawValue == 2)
        }
    }

    @Test("error enums bridge to NSError by raw value, in Square's domain, with the backend's texts")
    func errors() {
        withBackend { backend in
            let error: any Error = PaymentError.paymentAttemptIdReused
            let bridged = error as NSError
            #expect(bridged.domain == "MobilePaymentsSDKAPI.PaymentError")
            #expect(PaymentError(rawValue: bridged.code) == .paymentAttemptIdReused, "the example app's mapping")
            #expect((ReaderPairingError.timedOut as NSError).domain == "MobilePaymentsSDKAPI.ReaderPairingError")
            #expect(AuthorizationError(rawValue: (AuthorizationError.noNetwork as NSError).code) == .noNetwork)
            let queueError = OfflinePaymentQueueError.unsupportedSandboxEnvironment
            let info = queueError.debugInfo
            let value = the("OfflinePaymentQueueError", "unsupportedSandboxEnvironment")
            #expect(info.code == text(.debugCode(value)) && info.message == text(.debugMessage(value)))
            #expect(queueError.errorDescription == text(.errorDescription(value)))
            #expect(backend.textRequests.count == 3)
        }
    }

    @Test("package objects conform, and a delegate may omit the optional callbacks")
    func objectsAndDelegates() {
        withBackend { backend in
            let amount = Money(amount: 700, currency: .CAD)
            let fields = SurfacePaymentFields(id: "pay-1", createdAt: backend.now, updatedAt: backend.now,
                                              amountMoney: amount, totalMoney: amount, sourceType: .card)
            let card = SurfaceCard(cardBrand: .interac, last4: "4242", expMonth: 12, expYear: 2030)
            let details = SurfaceCardPaymentDetails(status: .captured, entryMethod: .contactless, card: card)
            let payment: any Payment = SurfaceOnlinePayment(fields, status: .completed, cardDetails: details)
            let online = payment as? any OnlinePayment
            #expect(online?.status == .completed && online?.cardDetails?.card?.cardBrand == .interac)
            #expect(payment as? any OfflinePayment == nil)

            let status = SurfaceReaderStatusInfo(status: .readerUnavailable, unavailableReasonInfo:
                SurfaceReaderUnavailableReasonInfo(reason: .bluetoothDisabled, title: "t", detail: "d"))
            _ = status.localizedTitle(for: .contactlessAndChip)
            #expect(backend.textRequests.last == .readerStatusTitle(
                status: the("ReaderStatus", "readerUnavailable"), reason: the("ReaderUnavailableReason", "bluetoothDisabled"),
                model: the("ReaderModel", "contactlessAndChip")))

            var canceled = 0
            let parameters = PaymentParameters(paymentAttemptID: "a", amountMoney: amount, processingMode: .onlineOnly)
            let handle: any PaymentHandle = SurfacePaymentHandle(
                paymentParameters: parameters, payment: payment, isCancelable: { canceled == 0 },
                cancel: { canceled += 1; return true })
            #expect(handle.isPaymentCancelable && handle.cancelPayment() && !handle.isPaymentCancelable)

            let delegate = RequiredOnlyDelegate()
            delegate.callOptionalCallbacks(payment)
            #expect(delegate.calls.isEmpty, "omitted optional callbacks do nothing")
        }
    }
}

/// A delegate implementing only the SDK's required callbacks, as an app may.
private final class RequiredOnlyDelegate: PaymentManagerDelegate {
    var calls: [String] = []

    func paymentManager(_ paymentManager: any PaymentManager, didCancel payment: any Payment) { calls.append("didCancel") }
    func paymentManager(_ paymentManager: any PaymentManager, didFail payment: any Payment, withError error: any Error) {
        calls.append("didFail")
    }
    func paymentManager(_ paymentManager: any PaymentManager, didFinish payment: any Payment) { calls.append("didFinish") }

    /// What an SDK does for the optional callbacks: call them, through the protocol.
    func callOptionalCallbacks(_ payment: any Payment) {
        let delegate: any PaymentManagerDelegate = self
        let manager = NoPaymentManager()
        delegate.paymentManager(manager, didStart: payment)
        delegate.paymentManager(manager, willFinish: payment)
        delegate.paymentManager(manager, willCancel: payment)
    }
}

/// The smallest `PaymentManager`, to pass as the callbacks' first argument.
private final class NoPaymentManager: PaymentManager {
    var availableCardInputMethods: CardInputMethods { CardInputMethods() }
    var currentPaymentHandle: (any PaymentHandle)? { nil }
    var offlinePaymentQueue: any OfflinePaymentQueue { fatalError("not used") }
    func add(_ availableCardInputMethodsObserver: any AvailableCardInputMethodsObserver) {}
    func getIdempotencyKey(withPaymentAttemptId paymentAttemptId: String) -> String? { nil }
    func remove(_ availableCardInputMethodsObserver: any AvailableCardInputMethodsObserver) {}
    func startPayment(_ paymentParameters: PaymentParameters, promptParameters: PromptParameters,
                      from viewController: UIViewController, delegate: any PaymentManagerDelegate) -> (any PaymentHandle)? {
        nil
    }
}
