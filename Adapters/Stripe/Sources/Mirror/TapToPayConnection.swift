// Written from ../shared/reference/sdk-surface/full/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0:
// SCPTapToPayConnectionConfiguration.h, SCPTapToPayReaderDelegate.h). The bridge connects the Tap to Pay reader with
// these, so they are mirrored completely. `TapToPayConnectionConfiguration.delegate` (narrowed to
// `TapToPayReaderDelegate`) is not declared, for the reason given at `BluetoothConnectionConfiguration`; the base
// class's `delegate` stands in.
import Foundation

/// `SCPTapToPayConnectionConfiguration`: for `connectReader` with the iPhone's Tap to Pay reader. init()/new
/// unavailable: use ``TapToPayConnectionConfigurationBuilder``.
public class TapToPayConnectionConfiguration: ConnectionConfiguration {
    /// `SCPTapToPayConnectionConfiguration.locationId`: the location the reader registers to.
    public private(set) var locationId: String
    /// `SCPTapToPayConnectionConfiguration.onBehalfOf`: the connected account for destination charges.
    public private(set) var onBehalfOf: String?
    /// `SCPTapToPayConnectionConfiguration.merchantDisplayName`: nil uses the location's display name.
    public private(set) var merchantDisplayName: String?
    /// `tosAcceptancePermitted` (getter `isTOSAcceptancePermitted`), true by default: the SDK may present Apple's
    /// terms during the connection; false makes an account that has not accepted them fail (3930).
    public private(set) var isTOSAcceptancePermitted: Bool
    /// `returnReadResultImmediatelyEnabled` (getter `isReturnReadResultImmediatelyEnabled`), true by default.
    public private(set) var isReturnReadResultImmediatelyEnabled: Bool
    /// `autoReconnectOnUnexpectedDisconnect` (getter `isAutoReconnectOnUnexpectedDisconnect`), true by default.
    public private(set) var isAutoReconnectOnUnexpectedDisconnect: Bool
    /// `SCPTapToPayConnectionConfiguration.testReaderUpdate` (5.5.0, test mode), nil by default.
    public private(set) var testReaderUpdate: TestReaderUpdate?

    /// Creates the configuration (its builder calls this).
    package init(surface: SurfaceConstruction, locationId: String, onBehalfOf: String?, merchantDisplayName: String?,
                 isTOSAcceptancePermitted: Bool, isReturnReadResultImmediatelyEnabled: Bool,
                 isAutoReconnectOnUnexpectedDisconnect: Bool, testReaderUpdate: TestReaderUpdate?,
                 delegate: (any TapToPayReaderDelegate)?) {
        self.locationId = locationId
        self.onBehalfOf = onBehalfOf
        self.merchantDisplayName = merchantDisplayName
        self.isTOSAcceptancePermitted = isTOSAcceptancePermitted
        self.isReturnReadResultImmediatelyEnabled = isReturnReadResultImmediatelyEnabled
        self.isAutoReconnectOnUnexpectedDisconnect = isAutoReconnectOnUnexpectedDisconnect
        self.testReaderUpdate = testReaderUpdate
        super.init(surface: surface, delegate: delegate)
    }
}

/// `SCPTapToPayConnectionConfigurationBuilder`: builds ``TapToPayConnectionConfiguration``; `build()` throws when the
/// backend rejects the values (the SDK refuses test updates other than available, required and random).
public class TapToPayConnectionConfigurationBuilder: SCPBuilder<TapToPayConnectionConfiguration> {
    // Starting values: the header's defaults (terms may be shown, read results returned at once, reconnect on).
    private let delegate: any TapToPayReaderDelegate
    private var locationId: String
    private var onBehalfOf: String?
    private var merchantDisplayName: String?
    private var tosAcceptancePermitted = true
    private var returnReadResultImmediatelyEnabled = true
    private var autoReconnectOnUnexpectedDisconnect = true
    private var testReaderUpdate: TestReaderUpdate?

    /// `build:`: the configured ``TapToPayConnectionConfiguration``, or the error the backend reports.
    @discardableResult
    public override func build() throws -> TapToPayConnectionConfiguration {
        let product = TapToPayConnectionConfiguration(
            surface: .backend, locationId: locationId, onBehalfOf: onBehalfOf, merchantDisplayName: merchantDisplayName,
            isTOSAcceptancePermitted: tosAcceptancePermitted,
            isReturnReadResultImmediatelyEnabled: returnReadResultImmediatelyEnabled,
            isAutoReconnectOnUnexpectedDisconnect: autoReconnectOnUnexpectedDisconnect,
            testReaderUpdate: testReaderUpdate, delegate: delegate)
        try SurfaceRuntime.backend(for: "TapToPayConnectionConfigurationBuilder.build()")
            .validate(.tapToPayConnectionConfiguration(product))
        return product
    }

    /// `-initWithDelegate:locationId:`. Designated initializer; init() and new are unavailable on this builder.
    public init(delegate: any TapToPayReaderDelegate, locationId: String) {
        self.delegate = delegate
        self.locationId = locationId
        super.init()
    }

    /// `-setLocationId:`.
    @discardableResult
    public func setLocationId(_ locationId: String) -> TapToPayConnectionConfigurationBuilder {
        self.locationId = locationId
        return self
    }

    /// `-setOnBehalfOf:`.
    @discardableResult
    public func setOnBehalfOf(_ onBehalfOf: String?) -> TapToPayConnectionConfigurationBuilder {
        self.onBehalfOf = onBehalfOf
        return self
    }

    /// `-setMerchantDisplayName:`.
    @discardableResult
    public func setMerchantDisplayName(_ merchantDisplayName: String?) -> TapToPayConnectionConfigurationBuilder {
        self.merchantDisplayName = merchantDisplayName
        return self
    }

    /// `-setTosAcceptancePermitted:` (the plain name, although the property reads `isTOSAcceptancePermitted`).
    @discardableResult
    public func setTosAcceptancePermitted(_ tosAcceptancePermitted: Bool) -> TapToPayConnectionConfigurationBuilder {
        self.tosAcceptancePermitted = tosAcceptancePermitted
        return self
    }

    /// `-setReturnReadResultImmediatelyEnabled:`.
    @discardableResult
    public func setReturnReadResultImmediatelyEnabled(_ returnReadResultImmediatelyEnabled: Bool)
        -> TapToPayConnectionConfigurationBuilder {
        self.returnReadResultImmediatelyEnabled = returnReadResultImmediatelyEnabled
        return self
    }

    /// `-setAutoReconnectOnUnexpectedDisconnect:`.
    @discardableResult
    public func setAutoReconnectOnUnexpectedDisconnect(_ autoReconnectOnUnexpectedDisconnect: Bool)
        -> TapToPayConnectionConfigurationBuilder {
        self.autoReconnectOnUnexpectedDisconnect = autoReconnectOnUnexpectedDisconnect
        return self
    }

    /// `-setTestReaderUpdate:`.
    @discardableResult
    public func setTestReaderUpdate(_ testReaderUpdate: TestReaderUpdate?) -> TapToPayConnectionConfigurationBuilder {
        self.testReaderUpdate = testReaderUpdate
        return self
    }
}

/// `SCPTapToPayReaderDelegate`: the delegate of a Tap to Pay connection. Its callbacks are the mobile reader's with a
/// `tapToPayReader` prefix (no battery, no reader events, no reported updates: Apple's reader configuration installs
/// during the connection), plus the terms-of-service acceptance.
public protocol TapToPayReaderDelegate: ReaderDelegate {
    /// `-tapToPayReader:didStartInstallingUpdate:cancelable:`: the reader's configuration updates during the
    /// connection; `cancelable` may be nil.
    func tapToPayReader(_ reader: Reader, didStartInstallingUpdate update: ReaderSoftwareUpdate, cancelable: Cancelable?)

    /// `-tapToPayReader:didReportReaderSoftwareUpdateProgress:`: 0...1.
    func tapToPayReader(_ reader: Reader, didReportReaderSoftwareUpdateProgress progress: Float)

    /// `-tapToPayReader:didFinishInstallingUpdate:error:`: `error` nil on success.
    func tapToPayReader(_ reader: Reader, didFinishInstallingUpdate update: ReaderSoftwareUpdate?, error: (any Error)?)

    /// `-tapToPayReader:didRequestReaderInput:`.
    ///
    /// Deviation: Swift imports this requirement with a default argument (`inputOptions: ReaderInputOptions = []`),
    /// which Swift source cannot give a protocol requirement (as at ``MobileReaderDelegate``).
    func tapToPayReader(_ reader: Reader, didRequestReaderInput inputOptions: ReaderInputOptions)

    /// `-tapToPayReader:didRequestReaderDisplayMessage:`.
    func tapToPayReader(_ reader: Reader, didRequestReaderDisplayMessage displayMessage: ReaderDisplayMessage)

    /// `-tapToPayReaderDidAcceptTermsOfService:` (optional): Apple's terms were accepted while preparing the reader.
    func tapToPayReaderDidAcceptTermsOfService(_ reader: Reader)

    /// `-tapToPayReader:didRequestPaymentMethodSelection:availablePaymentOptions:completion:` (optional, preview).
    func tapToPayReader(
        _ reader: Reader, didRequestPaymentMethodSelection paymentIntent: PaymentIntent,
        availablePaymentOptions: [PaymentOption], completion: @escaping PaymentMethodSelectionCompletionBlock
    )

    /// The same optional requirement as Swift imports it `async`.
    func tapToPayReader(
        _ reader: Reader, didRequestPaymentMethodSelection paymentIntent: PaymentIntent,
        availablePaymentOptions: [PaymentOption]
    ) async throws -> PaymentOption

    /// `-tapToPayReader:didRequestQrCodeDisplay:qrData:completion:` (optional, preview).
    func tapToPayReader(
        _ reader: Reader, didRequestQrCodeDisplay paymentIntent: PaymentIntent, qrData: QrCodeDisplayData,
        completion: @escaping QrCodeDisplayCompletionBlock
    )

    /// The same optional requirement as Swift imports it `async`.
    func tapToPayReader(
        _ reader: Reader, didRequestQrCodeDisplay paymentIntent: PaymentIntent, qrData: QrCodeDisplayData
    ) async throws
}

extension TapToPayReaderDelegate {
    /// Stands for the `optional` requirement: does nothing.
    public func tapToPayReaderDidAcceptTermsOfService(_ reader: Reader) {}

    /// Stands for the `optional` requirement in its completion form: runs the `async` form in a task. When the delegate
    /// implements neither form, the completion gets ``SurfaceOptionalRequirementNotImplemented``.
    public func tapToPayReader(
        _ reader: Reader, didRequestPaymentMethodSelection paymentIntent: PaymentIntent,
        availablePaymentOptions: [PaymentOption], completion: @escaping PaymentMethodSelectionCompletionBlock
    ) {
        let call = UncheckedSendableBox((self as any TapToPayReaderDelegate, reader, paymentIntent, availablePaymentOptions))
        let completion = UncheckedSendableBox(completion)
        SurfaceRequirementDefaults.runAsyncRequirement(of: self, requirement: "tapToPayDidRequestPaymentMethodSelection") {
            do {
                let (delegate, reader, intent, options) = call.value
                let option = try await delegate.tapToPayReader(
                    reader, didRequestPaymentMethodSelection: intent, availablePaymentOptions: options
                )
                completion.value(option, nil)
            } catch {
                completion.value(nil, error)
            }
        }
    }

    /// Stands for the `optional` requirement in its `async` form: runs the completion form.
    public func tapToPayReader(
        _ reader: Reader, didRequestPaymentMethodSelection paymentIntent: PaymentIntent,
        availablePaymentOptions: [PaymentOption]
    ) async throws -> PaymentOption {
        let requirement = "tapToPayDidRequestPaymentMethodSelection"
        if SurfaceRequirementDefaults.reachedFromCompletionDefault(self, requirement: requirement) {
            throw SurfaceOptionalRequirementNotImplemented(
                requirement: "tapToPayReader(_:didRequestPaymentMethodSelection:availablePaymentOptions:completion:)"
            )
        }
        return try await surfaceAsync("tapToPayReader(_:didRequestPaymentMethodSelection:availablePaymentOptions:)") {
            completion in
            self.tapToPayReader(
                reader, didRequestPaymentMethodSelection: paymentIntent, availablePaymentOptions: availablePaymentOptions,
                completion: completion
            )
        }
    }

    /// Stands for the `optional` requirement in its completion form: runs the `async` form in a task. When the delegate
    /// implements neither form, the completion gets ``SurfaceOptionalRequirementNotImplemented``.
    public func tapToPayReader(
        _ reader: Reader, didRequestQrCodeDisplay paymentIntent: PaymentIntent, qrData: QrCodeDisplayData,
        completion: @escaping QrCodeDisplayCompletionBlock
    ) {
        let call = UncheckedSendableBox((self as any TapToPayReaderDelegate, reader, paymentIntent, qrData))
        let completion = UncheckedSendableBox(completion)
        SurfaceRequirementDefaults.runAsyncRequirement(of: self, requirement: "tapToPayDidRequestQrCodeDisplay") {
            do {
                let (delegate, reader, intent, qrData) = call.value
                try await delegate.tapToPayReader(reader, didRequestQrCodeDisplay: intent, qrData: qrData)
                completion.value(nil)
            } catch {
                completion.value(error)
            }
        }
    }

    /// Stands for the `optional` requirement in its `async` form: runs the completion form.
    public func tapToPayReader(
        _ reader: Reader, didRequestQrCodeDisplay paymentIntent: PaymentIntent, qrData: QrCodeDisplayData
    ) async throws {
        if SurfaceRequirementDefaults.reachedFromCompletionDefault(self, requirement: "tapToPayDidRequestQrCodeDisplay") {
            throw SurfaceOptionalRequirementNotImplemented(
                requirement: "tapToPayReader(_:didRequestQrCodeDisplay:qrData:completion:)"
            )
        }
        try await surfaceAsync { completion in
            self.tapToPayReader(reader, didRequestQrCodeDisplay: paymentIntent, qrData: qrData, completion: completion)
        }
    }
}
