import Foundation
import StripeTerminalSurface
import StripeTerminalSurfaceBackend
import Testing

/// The backend seam: every behaviour reaches the installed ``SurfaceBackend``, and what the surface does itself (the
/// imported `async` forms, the overlay's wrappers, the default implementations standing for `optional` and two-form
/// requirements, builders' defaults) behaves as on iOS. The backend slot is process-wide, so these run one at a time.
@Suite(.serialized, .exclusiveSurfaceBackend) struct MirrorBehaviourTests {
    /// Installs a fresh recording backend and initializes `Terminal.shared` over it.
    private func freshTerminal(
        _ provider: any ConnectionTokenProvider = CompletionTokenProvider()
    ) -> (RecordingSurfaceBackend, Terminal) {
        let backend = RecordingSurfaceBackend()
        SurfaceBackendSlot.install(backend)
        Terminal.initWithTokenProvider(provider)
        return (backend, Terminal.shared)
    }

    @Test func initializationReachesTheBackendOnceAndInstallingStartsAfresh() {
        let backend = RecordingSurfaceBackend()
        SurfaceBackendSlot.install(backend)
        defer { SurfaceBackendSlot.uninstall() }
        #expect(!Terminal.isInitialized())
        let delegate = MinimalTerminalDelegate()
        Terminal.initWithTokenProvider(AsyncTokenProvider(), delegate: delegate, offlineDelegate: nil, logLevel: .verbose)
        let first = Terminal.shared
        #expect(Terminal.isInitialized())
        #expect(first.delegate === delegate && first.logLevel == .verbose)
        Terminal.initWithTokenProvider(CompletionTokenProvider())
        #expect(Terminal.shared === first && first.delegate === delegate, "a repeated call stores nothing")
        #expect(backend.calls == ["initialize(repeated: false)", "initialize(repeated: true)"])

        SurfaceBackendSlot.install(RecordingSurfaceBackend())
        #expect(!Terminal.isInitialized(), "installing a backend forgets Terminal.shared")
    }

    @Test func stateAndDisplayStringsComeFromTheBackend() {
        let (backend, terminal) = freshTerminal()
        defer { SurfaceBackendSlot.uninstall() }
        backend.connectionStatus = .discovering
        #expect(terminal.connectionStatus == .discovering)
        #expect(Terminal.stringFromCardBrand(.visa) == "described")
        #expect(ReaderSoftwareUpdate.string(from: .estimate1To2Minutes) == "described")
        backend.pin = .online
        let card = SimulatedCard(testCardNumber: "4001007020000002")
        #expect(card.isOnlinePin() && !card.isOfflinePin())
        #expect(backend.calls.contains("describe(cardBrand(StripeTerminalSurface.CardBrand.visa))"))
    }

    @Test func asyncFormsReturnTheCompletionsValueOrThrowItsError() async throws {
        let (backend, terminal) = freshTerminal()
        defer { SurfaceBackendSlot.uninstall() }
        let reader = SurfaceObjects.reader()
        backend.onConnect = { reader, _, completion in completion(reader, nil) }
        let configuration = try BluetoothConnectionConfigurationBuilder(
            delegate: MinimalReaderDelegate(), locationId: "tml_test").build()
        let connected = try await terminal.connectReader(reader, connectionConfig: configuration)
        #expect(connected === reader)

        backend.onListLocations = { completion in
            completion([Location(surface: .backend, stripeId: "tml_1", livemode: false)], true, nil)
        }
        let (locations, hasMore) = try await terminal.listLocations(parameters: nil)
        #expect(locations.map(\.stripeId) == ["tml_1"] && hasMore)

        try await terminal.rebootReader()
        await #expect(throws: ErrorCode.self) { try await terminal.disconnectReader() }
        do {
            try await terminal.disconnectReader()
        } catch ErrorCode.notConnectedToReader {
            // the imported async form throws what the completion reported
        }
    }

    @Test func theOverlaysAsyncCollectCancelsThroughTheCancelable() async throws {
        let (backend, terminal) = freshTerminal()
        defer { SurfaceBackendSlot.uninstall() }
        let pending = LockedCompletion()
        backend.onCollect = { _, completion in
            pending.store(completion)
            return Cancelable(surface: .backend, isCompleted: { false }, cancel: { cancelCompletion in
                pending.take()?(nil, ErrorCode(.canceled))   // the SDK completes the operation with `canceled`
                cancelCompletion(nil)
            })
        }
        let task = Task { try await terminal.collectPaymentMethod(SurfaceObjects.intent(), collectConfig: nil).status }
        while !backend.calls.contains("collectPaymentMethod") { await Task.yield() }
        task.cancel()
        await #expect(throws: ErrorCode.self) { try await task.value }
        do {
            _ = try await task.value
        } catch ErrorCode.canceled {
        }
    }

    @Test func theOverlaysAsyncConfirmThrowsTheConfirmError() async throws {
        let (backend, terminal) = freshTerminal()
        defer { SurfaceBackendSlot.uninstall() }
        backend.onConfirm = { _, completion in
            completion(nil, ConfirmPaymentIntentError(surface: .backend, code: .requestTimedOut, paymentIntent: nil))
            return nil
        }
        do {
            _ = try await terminal.confirmPaymentIntent(SurfaceObjects.intent(status: .requiresConfirmation), confirmConfig: nil)
            Issue.record("the confirm succeeded although the backend failed it")
        } catch let error as ConfirmPaymentIntentError {
            #expect(error.paymentIntent == nil, "a timeout leaves the outcome unknown")
            #expect(error.domain == ErrorDomain && ErrorCode.Code(rawValue: error.code) == .requestTimedOut)
        }
    }

    @Test func theOverlaysDiscoveryIsAStreamOfReaderLists() async throws {
        let (backend, terminal) = freshTerminal()
        defer { SurfaceBackendSlot.uninstall() }
        backend.onDiscover = { _, delegate, completion in
            delegate.terminal(Terminal.shared, didUpdateDiscoveredReaders: [SurfaceObjects.reader(serial: "A")])
            delegate.terminal(Terminal.shared, didUpdateDiscoveredReaders: [
                SurfaceObjects.reader(serial: "A"), SurfaceObjects.reader(serial: "B"),
            ])
            completion(nil)
            return Cancelable(surface: .backend, isCompleted: { true }, cancel: { $0(ErrorCode(.cancelFailedAlreadyCompleted)) })
        }
        let configuration = try BluetoothScanDiscoveryConfigurationBuilder().setSimulated(true).build()
        var lists: [[String]] = []
        for try await readers in terminal.discoverReaders(configuration) {
            lists.append(readers.map(\.serialNumber))
        }
        #expect(lists == [["A"], ["A", "B"]])
    }

    @Test func buildersStartFromTheReferenceDefaultsAndAskTheBackend() throws {
        let (backend, _) = freshTerminal()
        defer { SurfaceBackendSlot.uninstall() }
        let parameters = try PaymentIntentParametersBuilder(amount: 1250, currency: "usd").setMetadata(["order": "42"]).build()
        #expect(parameters.captureMethod == .manual)
        #expect(parameters.paymentMethodTypes == [NSNumber(value: PaymentMethodType.cardPresent.rawValue)])
        #expect(parameters.metadata == ["order": "42"])
        let collect = try CollectPaymentIntentConfigurationBuilder().build()
        #expect(collect.customerCancellation == .enableIfAvailable && collect.allowRedisplay == .unspecified)
        #expect(try CreateConfigurationBuilder().build().offlineBehavior == .preferOnline)
        let delegate = MinimalReaderDelegate()
        let connection = try BluetoothConnectionConfigurationBuilder(delegate: delegate, locationId: "tml_1").build()
        #expect(connection.autoReconnectOnUnexpectedDisconnect && connection.delegate === delegate)
        #expect(try BluetoothScanDiscoveryConfigurationBuilder().build().discoveryMethod == .bluetoothScan)
        #expect(backend.calls.filter { $0 == "validate" }.count == 5)

        backend.onValidate = { product in
            if case .paymentIntentParameters(let parameters) = product, parameters.amount == 0 {
                throw ErrorCode(.invalidAmount)
            }
        }
        #expect(throws: ErrorCode.self) { try PaymentIntentParametersBuilder(amount: 0, currency: "usd").build() }
    }

    @Test func refundCartAndTippingBuildersKeepTheirValuesAndAskTheBackend() throws {
        let (backend, _) = freshTerminal()
        defer { SurfaceBackendSlot.uninstall() }
        let refund = try RefundParametersBuilder(chargeId: "ch_1", amount: 300, currency: "cad")
            .setMetadata(["k": "v"]).setReverseTransfer(true).build()
        #expect(refund.chargeId == "ch_1" && refund.paymentIntentId == nil && refund.amount == 300)
        #expect(refund.metadata == ["k": "v"] && refund.reverseTransfer?.boolValue == true)
        #expect(refund.refundApplicationFee == nil)
        let line = try CartLineItemBuilder(displayName: "Latte").setQuantity(2).setAmount(450).build()
        let cart = try CartBuilder(currency: "usd").setLineItems([line]).setTax(72).setTotal(972).build()
        #expect(cart.lineItems == [line] && cart.tax == 72 && cart.total == 972 && cart.currency == "usd")
        #expect(line.quantity == 2 && line.displayName == "Latte" && line.amount == 450)
        #expect(try TippingConfigurationBuilder().setEligibleAmount(800).build().eligibleAmount == 800)
        #expect(backend.calls.filter { $0 == "validate" }.count == 4)

        backend.onValidate = { product in
            if case .refundParameters(let parameters) = product, parameters.amount == 0 {
                throw ErrorCode(.invalidRefundParameters)
            }
        }
        #expect(throws: ErrorCode.self) { try RefundParametersBuilder(chargeId: "ch_1", amount: 0, currency: "cad").build() }
    }

    @Test func readerKindConfigurationsFollowTheReference() throws {
        let (backend, _) = freshTerminal()
        defer { SurfaceBackendSlot.uninstall() }
        #expect(DiscoveryFilter.bySerialNumber("") == nil && DiscoveryFilter.bySerialNumber("WPC-1") != nil)
        #expect(DiscoveryFilter.byReaderId("WPC-1") == nil && DiscoveryFilter.byReaderId("tmr_1") != nil)
        let internet = try InternetDiscoveryConfigurationBuilder().setLocationId("tml_1").setTimeout(10).build()
        #expect(internet.discoveryMethod == .internet && internet.locationId == "tml_1" && internet.timeout == 10)
        #expect(!internet.simulated)
        #expect(try TapToPayDiscoveryConfigurationBuilder().setSimulated(true).build().discoveryMethod == .tapToPay)
        #expect(backend.calls.filter { $0 == "validate" }.count == 2)
    }

    @Test func tokenProviderFormsStandInForEachOther() async throws {
        let (_, _) = freshTerminal()
        defer { SurfaceBackendSlot.uninstall() }
        let fromAsync: String? = await withCheckedContinuation { continuation in
            AsyncTokenProvider().fetchConnectionToken { token, _ in continuation.resume(returning: token) }
        }
        #expect(fromAsync == "pst_test_async")
        #expect(try await CompletionTokenProvider().fetchConnectionToken() == "pst_test_completion")
    }

    @Test func optionalTwoFormRequirementsAnswerOrSayTheyAreNotImplemented() async throws {
        let intent = SurfaceObjects.intent()
        let option = PaymentOption.card()
        let selectedTheOption: Bool = await withCheckedContinuation { continuation in
            SelectingReaderDelegate().reader(
                SurfaceObjects.reader(), didRequestPaymentMethodSelection: intent, availablePaymentOptions: [option]
            ) { selected, error in continuation.resume(returning: selected === option && error == nil) }
        }
        #expect(selectedTheOption)
        let unanswered: String? = await withCheckedContinuation { continuation in
            MinimalReaderDelegate().reader(
                SurfaceObjects.reader(), didRequestPaymentMethodSelection: intent, availablePaymentOptions: [option]
            ) { _, error in continuation.resume(returning: error.map { String(describing: type(of: $0)) }) }
        }
        #expect(unanswered == "SurfaceOptionalRequirementNotImplemented")
    }

    @Test func overlayResultsAndFactoriesUseTheBackend() throws {
        let (backend, terminal) = freshTerminal()
        defer { SurfaceBackendSlot.uninstall() }
        backend.onClearCachedCredentials = { throw ErrorCode(.unexpectedOperationError) }
        guard case .failure(let error) = terminal.clearCachedCredentials() else {
            Issue.record("clearCachedCredentials() succeeded although the backend failed")
            return
        }
        #expect((error as? ErrorCode)?.code == .unexpectedOperationError)
        #expect((try? terminal.supportsReaders(of: .stripeM2, discoveryMethod: .bluetoothScan, simulated: true).get()) != nil)

        #expect(TestReaderUpdate.random() == nil)
        backend.randomUpdate = (.required, [.firmware, .config])
        let drawn = try #require(TestReaderUpdate.random())
        #expect(drawn.updateType == .required && drawn.components == [.firmware, .config])
        let copy = try #require(TestReaderUpdate.available(.incremental).copy() as? TestReaderUpdate)
        #expect(copy.updateType == .available && copy.components == .incremental)
    }

    @Test func valueObjectsCopyTheirValues() throws {
        let intent = SurfaceObjects.intent(status: .requiresCapture)
        intent.metadata = ["order": "42"]
        intent.offlineDetails = OfflineDetails(surface: .backend, requiresUpload: true)
        let copy = try #require(intent.copy() as? PaymentIntent)
        #expect(copy !== intent && copy.status == .requiresCapture && copy.metadata == ["order": "42"])
        #expect(copy.amount == 1250 && copy.offlineDetails?.requiresUpload == true)
    }

    @Test func withoutABackendBehaviourFailsLoudly() async {
        await #expect(processExitsWith: .failure) {
            Terminal.initWithTokenProvider(CompletionTokenProvider())
        }
        await #expect(processExitsWith: .failure) {
            _ = Terminal.shared
        }
        await #expect(processExitsWith: .failure) {
            _ = try? CreateConfigurationBuilder().build()
        }
        await #expect(processExitsWith: .failure) {
            _ = Terminal.stringFromPaymentStatus(.ready)
        }
    }

    @Test func aTokenProviderImplementingNeitherFormStopsWhenAsked() async {
        await #expect(processExitsWith: .failure) {
            let provider = SilentTokenProvider()
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                provider.fetchConnectionToken { _, _ in continuation.resume() }
            }
        }
    }
}

/// Holds the completion of an operation in flight.
final class LockedCompletion: @unchecked Sendable {
    private let lock = NSLock()
    private var completion: PaymentIntentCompletionBlock?

    func store(_ completion: @escaping PaymentIntentCompletionBlock) {
        lock.lock()
        self.completion = completion
        lock.unlock()
    }

    func take() -> PaymentIntentCompletionBlock? {
        lock.lock()
        defer { lock.unlock() }
        let taken = completion
        completion = nil
        return taken
    }
}

/// A terminal delegate implementing none of its optional methods.
final class MinimalTerminalDelegate: NSObject, TerminalDelegate {}
