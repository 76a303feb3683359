public import Foundation

// The rest of `SCPTerminal`'s 5.5 surface: easy connect, Tap to Pay account status, set-up intents, reader display and
// settings, collect inputs and data, printing. The bridge calls only the reader display ones (played by the backend's
// `setReaderDisplay` / `clearReaderDisplay`); the others are declared because the bridge names `Terminal`, which the
// mirror-vs-surface check then requires complete, and the backend does not play them: each completes at once with the
// backend's ``SurfaceBackend/unsupportedCall(_:_:)`` error (the SDK's `featureNotAvailable` for the simulator's
// backend), and those returning a `Cancelable?` return nil.
extension Terminal {
    /// `-easyConnect:completion:`: discovers and connects in one call.
    @discardableResult
    public func easyConnect(
        _ easyConnectConfiguration: EasyConnectConfiguration, completion: @escaping ReaderCompletionBlock
    ) -> Cancelable {
        completion(nil, backend.unsupportedCall(self, "easyConnect(_:completion:)"))
        return Cancelable(surface: .backend, isCompleted: { true }, cancel: { $0(nil) })
    }

    /// The Swift overlay's `async` `easyConnect` (uncertain in the reference).
    public func easyConnect(_ easyConnectConfiguration: EasyConnectConfiguration) async throws -> Reader {
        try await surfaceCancelableAsync("easyConnect(_:)") { completion in
            easyConnect(easyConnectConfiguration, completion: completion)
        }
    }

    /// `-isTapToPayAccountLinked:completion:` (iOS 16.4+): whether the merchant's account is linked for Tap to Pay.
    public func isTapToPayAccountLinked(_ onBehalfOf: String?, completion: @escaping TTPAccountLinkCompletionBlock) {
        completion(nil, backend.unsupportedCall(self, "isTapToPayAccountLinked(_:completion:)"))
    }

    /// `-isTapToPayAccountLinked:completion:` as Swift imports it `async`.
    public func isTapToPayAccountLinked(_ onBehalfOf: String?) async throws -> NSNumber {
        try await surfaceAsync("isTapToPayAccountLinked(_:)") { completion in
            isTapToPayAccountLinked(onBehalfOf, completion: completion)
        }
    }

    /// `-createSetupIntent:completion:`.
    public func createSetupIntent(
        _ setupIntentParams: SetupIntentParameters, completion: @escaping SetupIntentCompletionBlock
    ) {
        completion(nil, backend.unsupportedCall(self, "createSetupIntent(_:completion:)"))
    }

    /// `-createSetupIntent:completion:` as Swift imports it `async`.
    public func createSetupIntent(_ setupIntentParams: SetupIntentParameters) async throws -> SetupIntent {
        try await surfaceAsync("createSetupIntent(_:)") { completion in
            createSetupIntent(setupIntentParams, completion: completion)
        }
    }

    /// `-retrieveSetupIntent:completion:`.
    public func retrieveSetupIntent(clientSecret: String, completion: @escaping SetupIntentCompletionBlock) {
        completion(nil, backend.unsupportedCall(self, "retrieveSetupIntent(clientSecret:completion:)"))
    }

    /// `-retrieveSetupIntent:completion:` as Swift imports it `async`.
    public func retrieveSetupIntent(clientSecret: String) async throws -> SetupIntent {
        try await surfaceAsync("retrieveSetupIntent(clientSecret:)") { completion in
            retrieveSetupIntent(clientSecret: clientSecret, completion: completion)
        }
    }

    /// `-cancelSetupIntent:completion:`.
    public func cancelSetupIntent(_ intent: SetupIntent, completion: @escaping SetupIntentCompletionBlock) {
        completion(nil, backend.unsupportedCall(self, "cancelSetupIntent(_:completion:)"))
    }

    /// `-cancelSetupIntent:completion:` as Swift imports it `async`.
    public func cancelSetupIntent(_ intent: SetupIntent) async throws -> SetupIntent {
        try await surfaceAsync("cancelSetupIntent(_:)") { completion in cancelSetupIntent(intent, completion: completion) }
    }

    /// `-collectSetupIntentPaymentMethod:allowRedisplay:completion:`.
    @discardableResult
    public func collectSetupIntentPaymentMethod(
        _ setupIntent: SetupIntent, allowRedisplay: AllowRedisplay, completion: @escaping SetupIntentCompletionBlock
    ) -> Cancelable? {
        completion(nil, backend.unsupportedCall(self, "collectSetupIntentPaymentMethod(_:allowRedisplay:completion:)"))
        return nil
    }

    /// `-collectSetupIntentPaymentMethod:allowRedisplay:setupConfig:completion:`.
    @discardableResult
    public func collectSetupIntentPaymentMethod(
        _ setupIntent: SetupIntent, allowRedisplay: AllowRedisplay, setupConfig: CollectSetupIntentConfiguration?,
        completion: @escaping SetupIntentCompletionBlock
    ) -> Cancelable? {
        completion(nil, backend.unsupportedCall(
            self, "collectSetupIntentPaymentMethod(_:allowRedisplay:setupConfig:completion:)"))
        return nil
    }

    /// The Swift overlay's `async` `collectSetupIntentPaymentMethod` (uncertain in the reference).
    public func collectSetupIntentPaymentMethod(
        _ setupIntent: SetupIntent, allowRedisplay: AllowRedisplay, setupConfig: CollectSetupIntentConfiguration?
    ) async throws -> SetupIntent {
        try await surfaceCancelableAsync("collectSetupIntentPaymentMethod(_:allowRedisplay:setupConfig:)") { completion in
            collectSetupIntentPaymentMethod(
                setupIntent, allowRedisplay: allowRedisplay, setupConfig: setupConfig, completion: completion)
        }
    }

    /// `-confirmSetupIntent:completion:`.
    @discardableResult
    public func confirmSetupIntent(
        _ setupIntent: SetupIntent, completion: @escaping ConfirmSetupIntentCompletionBlock
    ) -> Cancelable? {
        let error = backend.unsupportedCall(self, "confirmSetupIntent(_:completion:)")
        completion(nil, ConfirmSetupIntentError(surface: .backend, code: Self.code(of: error)))
        return nil
    }

    /// The Swift overlay's `async` `confirmSetupIntent` (uncertain in the reference).
    public func confirmSetupIntent(_ setupIntent: SetupIntent) async throws -> SetupIntent {
        try await surfaceCancelableAsync("confirmSetupIntent(_:)") { completion in
            confirmSetupIntent(setupIntent, completion: completion)
        }
    }

    /// `-processSetupIntent:allowRedisplay:collectConfig:completion:`.
    @discardableResult
    public func processSetupIntent(
        _ setupIntent: SetupIntent, allowRedisplay: AllowRedisplay, collectConfig: CollectSetupIntentConfiguration?,
        completion: @escaping SetupIntentCompletionBlock
    ) -> Cancelable? {
        completion(nil, backend.unsupportedCall(self, "processSetupIntent(_:allowRedisplay:collectConfig:completion:)"))
        return nil
    }

    /// The Swift overlay's `async` `processSetupIntent` (uncertain in the reference).
    public func processSetupIntent(
        _ setupIntent: SetupIntent, allowRedisplay: AllowRedisplay, collectConfig: CollectSetupIntentConfiguration?
    ) async throws -> SetupIntent {
        try await surfaceCancelableAsync("processSetupIntent(_:allowRedisplay:collectConfig:)") { completion in
            processSetupIntent(
                setupIntent, allowRedisplay: allowRedisplay, collectConfig: collectConfig, completion: completion)
        }
    }

    /// `-clearReaderDisplay:` (smart readers).
    public func clearReaderDisplay(_ completion: @escaping ErrorCompletionBlock) {
        backend.clearReaderDisplay(self, completion: completion)
    }

    /// `-clearReaderDisplay:` as Swift imports it `async`.
    public func clearReaderDisplay() async throws {
        try await surfaceAsync { completion in clearReaderDisplay(completion) }
    }

    /// `-setReaderDisplay:completion:`: shows the cart on a smart reader.
    public func setReaderDisplay(_ cart: Cart, completion: @escaping ErrorCompletionBlock) {
        backend.setReaderDisplay(self, cart: cart, completion: completion)
    }

    /// `-setReaderDisplay:completion:` as Swift imports it `async`.
    public func setReaderDisplay(_ cart: Cart) async throws {
        try await surfaceAsync { completion in setReaderDisplay(cart, completion: completion) }
    }

    /// `-setReaderSettings:completion:`.
    public func setReaderSettings(
        _ params: any ReaderSettingsParameters, completion: @escaping ReaderSettingsCompletionBlock
    ) {
        completion(nil, backend.unsupportedCall(self, "setReaderSettings(_:completion:)"))
    }

    /// `-setReaderSettings:completion:` as Swift imports it `async`.
    public func setReaderSettings(_ params: any ReaderSettingsParameters) async throws -> ReaderSettings {
        try await surfaceAsync("setReaderSettings(_:)") { completion in setReaderSettings(params, completion: completion) }
    }

    /// `-retrieveReaderSettings:`.
    public func retrieveReaderSettings(_ completion: @escaping ReaderSettingsCompletionBlock) {
        completion(nil, backend.unsupportedCall(self, "retrieveReaderSettings(_:)"))
    }

    /// `-retrieveReaderSettings:` as Swift imports it `async`.
    public func retrieveReaderSettings() async throws -> ReaderSettings {
        try await surfaceAsync("retrieveReaderSettings()") { completion in retrieveReaderSettings(completion) }
    }

    /// `-collectInputs:completion:`.
    @discardableResult
    public func collectInputs(
        _ collectInputsParams: CollectInputsParameters, completion: @escaping CollectInputsCompletionBlock
    ) -> Cancelable? {
        completion(nil, backend.unsupportedCall(self, "collectInputs(_:completion:)"))
        return nil
    }

    /// `-collectData:completion:`.
    @discardableResult
    public func collectData(
        _ collectDataConfiguration: CollectDataConfiguration, completion: @escaping CollectedDataCompletionBlock
    ) -> Cancelable? {
        completion(nil, backend.unsupportedCall(self, "collectData(_:completion:)"))
        return nil
    }

    /// `-print:completion:` (`@warn_unqualified_access`, as Swift imports a method named like a global function).
    @warn_unqualified_access
    public func print(_ content: PrintContent, completion: @escaping ErrorCompletionBlock) {
        completion(backend.unsupportedCall(self, "print(_:completion:)"))
    }

    /// `-print:completion:` as Swift imports it `async`.
    @warn_unqualified_access
    public func print(_ content: PrintContent) async throws {
        try await surfaceAsync { completion in self.print(content, completion: completion) }
    }

    private static func code(of error: any Error) -> ErrorCode.Code {
        let nsError = error as NSError
        return nsError.domain == ErrorDomain ? ErrorCode.Code(rawValue: nsError.code) ?? .unexpectedSdkError
            : .unexpectedSdkError
    }
}
