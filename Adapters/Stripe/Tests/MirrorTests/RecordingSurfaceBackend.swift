import Foundation
import StripeTerminalSurface
import StripeTerminalSurfaceBackend
import Testing

/// A scripted ``SurfaceBackend`` for the behaviour tests: it records each call by name and answers with the closure
/// a test set for it. A call no test scripted is recorded as an issue and answered with `unexpectedSdkError`.
final class RecordingSurfaceBackend: SurfaceBackend, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []

    var calls: [String] {
        lock.lock()
        defer { lock.unlock() }
        return recorded
    }

    func record(_ call: String) {
        lock.lock()
        recorded.append(call)
        lock.unlock()
    }

    // Scripts (set before the call they answer; the tests using this backend run serially).
    var onInitialize: ((Terminal, any ConnectionTokenProvider, Bool) -> Void)?
    var onConnect: ((Reader, ConnectionConfiguration, @escaping ReaderCompletionBlock) -> Void)?
    var onListLocations: ((@escaping LocationsCompletionBlock) -> Void)?
    var onDiscover: ((any DiscoveryConfiguration, any DiscoveryDelegate, @escaping ErrorCompletionBlock) -> Cancelable)?
    var onCollect: ((PaymentIntent, @escaping PaymentIntentCompletionBlock) -> Cancelable?)?
    var onConfirm: ((PaymentIntent, @escaping ConfirmPaymentIntentCompletionBlock) -> Cancelable?)?
    var onCreate: ((PaymentIntentParameters, CreateConfiguration?, @escaping PaymentIntentCompletionBlock) -> Void)?
    var onClearCachedCredentials: (() throws -> Void)?
    var onValidate: ((SurfaceBuiltProduct) throws -> Void)?
    var pin: SurfaceSimulatedPin = .none
    var randomUpdate: (updateType: TestReaderUpdateType, components: UpdateComponent)?
    var connectionStatus: ConnectionStatus = .notConnected

    private func unscripted(_ call: String) {
        Issue.record("RecordingSurfaceBackend: \(call) was not scripted")
    }

    func initialize(
        _ terminal: Terminal, tokenProvider: any ConnectionTokenProvider, delegate: (any TerminalDelegate)?,
        offlineDelegate: (any OfflineDelegate)?, logLevel: LogLevel, isRepeatedCall: Bool
    ) {
        record("initialize(repeated: \(isRepeatedCall))")
        onInitialize?(terminal, tokenProvider, isRepeatedCall)
    }

    func connectionStatus(of terminal: Terminal) -> ConnectionStatus {
        record("connectionStatus")
        return connectionStatus
    }

    func paymentStatus(of terminal: Terminal) -> PaymentStatus { unscripted("paymentStatus"); return .notReady }
    func connectedReader(of terminal: Terminal) -> Reader? { unscripted("connectedReader"); return nil }

    func offlineStatus(of terminal: Terminal) -> OfflineStatus {
        unscripted("offlineStatus")
        let details = OfflineStatusDetails(surface: .backend, paymentAmountsByCurrency: [:], networkStatus: .unknown)
        return OfflineStatus(surface: .backend, sdk: details)
    }

    func simulatorConfiguration(of terminal: Terminal) -> SimulatorConfiguration {
        unscripted("simulatorConfiguration")
        return SimulatorConfiguration(
            surface: .backend, simulatedCard: SimulatedCard(type: .visa), offlineEnabled: false,
            availableReaderUpdate: .none)
    }

    func simulatedOfflineModeConfiguration(of terminal: Terminal) -> SimulatedOfflineModeConfiguration {
        unscripted("simulatedOfflineModeConfiguration")
        return SimulatedOfflineModeConfiguration(surface: .backend)
    }

    func setSimulatedOfflineModeConfiguration(_ configuration: SimulatedOfflineModeConfiguration, on terminal: Terminal)
        throws { unscripted("setSimulatedOfflineModeConfiguration") }

    func clearCachedCredentials(_ terminal: Terminal) throws {
        record("clearCachedCredentials")
        try onClearCachedCredentials?()
    }

    func supportsReaders(
        _ terminal: Terminal, of deviceType: DeviceType, discoveryMethod: DiscoveryMethod, simulated: Bool
    ) throws {
        record("supportsReaders(\(deviceType), \(discoveryMethod), \(simulated))")
    }

    func discoverReaders(
        _ terminal: Terminal, configuration: any DiscoveryConfiguration, delegate: any DiscoveryDelegate,
        completion: @escaping ErrorCompletionBlock
    ) -> Cancelable {
        record("discoverReaders")
        guard let onDiscover else {
            unscripted("discoverReaders")
            return Cancelable(surface: .backend, isCompleted: { true }, cancel: { $0(nil) })
        }
        return onDiscover(configuration, delegate, completion)
    }

    func connectReader(
        _ terminal: Terminal, reader: Reader, connectionConfig: ConnectionConfiguration,
        completion: @escaping ReaderCompletionBlock
    ) {
        record("connectReader")
        guard let onConnect else { unscripted("connectReader"); return completion(nil, ErrorCode(.unexpectedSdkError)) }
        onConnect(reader, connectionConfig, completion)
    }

    func listLocations(
        _ terminal: Terminal, parameters: ListLocationsParameters?, completion: @escaping LocationsCompletionBlock
    ) {
        record("listLocations")
        guard let onListLocations else { unscripted("listLocations"); return completion(nil, false, nil) }
        onListLocations(completion)
    }

    func installAvailableUpdate(_ terminal: Terminal) { record("installAvailableUpdate") }

    func rebootReader(_ terminal: Terminal, completion: @escaping ErrorCompletionBlock) {
        record("rebootReader")
        completion(nil)
    }

    func disconnectReader(_ terminal: Terminal, completion: @escaping ErrorCompletionBlock) {
        record("disconnectReader")
        completion(ErrorCode(.notConnectedToReader))
    }

    func setReaderDisplay(_ terminal: Terminal, cart: Cart, completion: @escaping ErrorCompletionBlock) {
        record("setReaderDisplay")
        completion(ErrorCode(.notConnectedToReader))
    }

    func clearReaderDisplay(_ terminal: Terminal, completion: @escaping ErrorCompletionBlock) {
        record("clearReaderDisplay")
        completion(ErrorCode(.notConnectedToReader))
    }

    func createPaymentIntent(
        _ terminal: Terminal, parameters: PaymentIntentParameters, createConfig: CreateConfiguration?,
        completion: @escaping PaymentIntentCompletionBlock
    ) {
        record("createPaymentIntent(createConfig: \(createConfig == nil ? "nil" : "set"))")
        guard let onCreate else { unscripted("createPaymentIntent"); return completion(nil, ErrorCode(.unexpectedSdkError)) }
        onCreate(parameters, createConfig, completion)
    }

    func retrievePaymentIntent(
        _ terminal: Terminal, clientSecret: String, completion: @escaping PaymentIntentCompletionBlock
    ) {
        unscripted("retrievePaymentIntent")
        completion(nil, ErrorCode(.unexpectedSdkError))
    }

    func collectPaymentMethod(
        _ terminal: Terminal, paymentIntent: PaymentIntent, collectConfig: CollectPaymentIntentConfiguration?,
        completion: @escaping PaymentIntentCompletionBlock
    ) -> Cancelable? {
        record("collectPaymentMethod")
        guard let onCollect else { unscripted("collectPaymentMethod"); return nil }
        return onCollect(paymentIntent, completion)
    }

    func confirmPaymentIntent(
        _ terminal: Terminal, paymentIntent: PaymentIntent, confirmConfig: ConfirmPaymentIntentConfiguration?,
        completion: @escaping ConfirmPaymentIntentCompletionBlock
    ) -> Cancelable? {
        record("confirmPaymentIntent")
        guard let onConfirm else { unscripted("confirmPaymentIntent"); return nil }
        return onConfirm(paymentIntent, completion)
    }

    func processPaymentIntent(
        _ terminal: Terminal, paymentIntent: PaymentIntent, collectConfig: CollectPaymentIntentConfiguration?,
        confirmConfig: ConfirmPaymentIntentConfiguration?, completion: @escaping PaymentIntentCompletionBlock
    ) -> Cancelable? {
        unscripted("processPaymentIntent")
        return nil
    }

    func cancelPaymentIntent(
        _ terminal: Terminal, paymentIntent: PaymentIntent, completion: @escaping PaymentIntentCompletionBlock
    ) {
        unscripted("cancelPaymentIntent")
        completion(nil, ErrorCode(.unexpectedSdkError))
    }

    func processRefund(
        _ terminal: Terminal, refundParams: RefundParameters, collectConfig: CollectRefundConfiguration?,
        completion: @escaping ConfirmRefundCompletionBlock
    ) -> Cancelable? {
        unscripted("processRefund")
        completion(nil, ConfirmRefundError(surface: .backend, code: .unexpectedSdkError, refund: nil))
        return nil
    }

    func collectRefundPaymentMethod(
        _ terminal: Terminal, refundParams: RefundParameters, refundConfig: CollectRefundConfiguration?,
        completion: @escaping ErrorCompletionBlock
    ) -> Cancelable? {
        unscripted("collectRefundPaymentMethod")
        completion(ErrorCode(.unexpectedSdkError))
        return nil
    }

    func confirmRefund(_ terminal: Terminal, completion: @escaping ConfirmRefundCompletionBlock) -> Cancelable? {
        unscripted("confirmRefund")
        completion(nil, ConfirmRefundError(surface: .backend, code: .unexpectedSdkError, refund: nil))
        return nil
    }

    func unsupportedCall(_ terminal: Terminal, _ call: String) -> any Error {
        record("unsupported(\(call))")
        return ErrorCode(.featureNotAvailable)
    }

    func describe(_ value: SurfaceDescribedValue) -> String {
        record("describe(\(value))")
        return "described"
    }

    func validate(_ product: SurfaceBuiltProduct) throws {
        record("validate")
        try onValidate?(product)
    }

    func pinKind(of card: SimulatedCard) -> SurfaceSimulatedPin {
        record("pinKind")
        return pin
    }

    func randomTestReaderUpdate() -> (updateType: TestReaderUpdateType, components: UpdateComponent)? {
        record("randomTestReaderUpdate")
        return randomUpdate
    }
}

/// A token provider implementing only the `async` form.
final class AsyncTokenProvider: ConnectionTokenProvider {
    func fetchConnectionToken() async throws -> String { "pst_test_async" }
}

/// A token provider implementing only the completion form.
final class CompletionTokenProvider: ConnectionTokenProvider {
    func fetchConnectionToken(_ completion: @escaping ConnectionTokenCompletionBlock) {
        completion("pst_test_completion", nil)
    }
}

/// A token provider implementing neither form (compiles here, not on iOS).
final class SilentTokenProvider: ConnectionTokenProvider {}

/// A Bluetooth reader delegate implementing only the required methods.
final class MinimalReaderDelegate: NSObject, MobileReaderDelegate {
    func reader(_ reader: Reader, didReportAvailableUpdate update: ReaderSoftwareUpdate) {}
    func reader(_ reader: Reader, didStartInstallingUpdate update: ReaderSoftwareUpdate, cancelable: Cancelable?) {}
    func reader(_ reader: Reader, didReportReaderSoftwareUpdateProgress progress: Float) {}
    func reader(_ reader: Reader, didFinishInstallingUpdate update: ReaderSoftwareUpdate?, error: (any Error)?) {}
    func reader(_ reader: Reader, didRequestReaderInput inputOptions: ReaderInputOptions) {}
    func reader(_ reader: Reader, didRequestReaderDisplayMessage displayMessage: ReaderDisplayMessage) {}
}

/// A Bluetooth reader delegate that also answers payment-method selection, in the `async` form.
final class SelectingReaderDelegate: NSObject, MobileReaderDelegate {
    func reader(_ reader: Reader, didReportAvailableUpdate update: ReaderSoftwareUpdate) {}
    func reader(_ reader: Reader, didStartInstallingUpdate update: ReaderSoftwareUpdate, cancelable: Cancelable?) {}
    func reader(_ reader: Reader, didReportReaderSoftwareUpdateProgress progress: Float) {}
    func reader(_ reader: Reader, didFinishInstallingUpdate update: ReaderSoftwareUpdate?, error: (any Error)?) {}
    func reader(_ reader: Reader, didRequestReaderInput inputOptions: ReaderInputOptions) {}
    func reader(_ reader: Reader, didRequestReaderDisplayMessage displayMessage: ReaderDisplayMessage) {}
    func reader(
        _ reader: Reader, didRequestPaymentMethodSelection paymentIntent: PaymentIntent,
        availablePaymentOptions: [PaymentOption]
    ) async throws -> PaymentOption {
        try #require(availablePaymentOptions.first)
    }
}

/// Makes SDK objects as a backend would.
enum SurfaceObjects {
    static func reader(serial: String = "CHB000000000001") -> Reader {
        Reader(surface: .backend, deviceType: .stripeM2, simulated: true, locationStatus: .set, serialNumber: serial,
               livemode: false, batteryStatus: .nominal, status: .offline)
    }

    static func intent(status: PaymentIntentStatus = .requiresPaymentMethod) -> PaymentIntent {
        PaymentIntent(surface: .backend, amount: 1250, captureMethod: .manual, charges: [],
                      created: Date(timeIntervalSince1970: 1_700_000_000), currency: "usd", livemode: false,
                      status: status)
    }
}
