public import Foundation

// `optional` requirements are plain requirements with default implementations here (see TerminalDelegates.swift); the
// mirror-vs-surface test checks that exactly the SDK's optional requirements have one.

/// `SCPReaderDelegate`: the base of the reader delegates (disconnects and automatic reconnection). All methods optional.
public protocol ReaderDelegate: NSObjectProtocol {
    /// `-reader:didDisconnect:` (optional).
    func reader(_ reader: Reader, didDisconnect reason: DisconnectReason)

    /// `-reader:didStartReconnect:disconnectReason:` (optional). The `Cancelable` stops reconnecting.
    func reader(_ reader: Reader, didStartReconnect cancelable: Cancelable, disconnectReason: DisconnectReason)

    /// `-readerDidSucceedReconnect:` (optional). Needs `autoReconnectOnUnexpectedDisconnect`.
    func readerDidSucceedReconnect(_ reader: Reader)

    /// `-readerDidFailReconnect:` (optional). The SDK is then disconnected.
    func readerDidFailReconnect(_ reader: Reader)
}

extension ReaderDelegate {
    /// Stands for the `optional` requirement: does nothing.
    public func reader(_ reader: Reader, didDisconnect reason: DisconnectReason) {}

    /// Stands for the `optional` requirement: does nothing.
    public func reader(_ reader: Reader, didStartReconnect cancelable: Cancelable, disconnectReason: DisconnectReason) {}

    /// Stands for the `optional` requirement: does nothing.
    public func readerDidSucceedReconnect(_ reader: Reader) {}

    /// Stands for the `optional` requirement: does nothing.
    public func readerDidFailReconnect(_ reader: Reader) {}
}

/// `SCPMobileReaderDelegate`: the delegate of a Bluetooth (or USB) reader, passed in its connection configuration.
public protocol MobileReaderDelegate: ReaderDelegate {
    /// `-reader:didReportAvailableUpdate:`. Install later with `Terminal.installAvailableUpdate()`; see `requiredAt`.
    func reader(_ reader: Reader, didReportAvailableUpdate update: ReaderSoftwareUpdate)

    /// `-reader:didStartInstallingUpdate:cancelable:`. `cancelable` is nil for incremental-only updates; cancelling a
    /// required update fails the connect with `unsupportedReaderVersion`.
    func reader(_ reader: Reader, didStartInstallingUpdate update: ReaderSoftwareUpdate, cancelable: Cancelable?)

    /// `-reader:didReportReaderSoftwareUpdateProgress:`: 0...1.
    func reader(_ reader: Reader, didReportReaderSoftwareUpdateProgress progress: Float)

    /// `-reader:didFinishInstallingUpdate:error:`. `update` may be nil; `error` is nil on success.
    func reader(_ reader: Reader, didFinishInstallingUpdate update: ReaderSoftwareUpdate?, error: (any Error)?)

    /// `-reader:didRequestReaderInput:`.
    ///
    /// Deviation: Swift imports this requirement with a default argument (`inputOptions: ReaderInputOptions = []`),
    /// which Swift source cannot give a protocol requirement. Only the SDK calls it, so callers never see the difference.
    func reader(_ reader: Reader, didRequestReaderInput inputOptions: ReaderInputOptions)

    /// `-reader:didRequestReaderDisplayMessage:`.
    func reader(_ reader: Reader, didRequestReaderDisplayMessage displayMessage: ReaderDisplayMessage)

    /// `-reader:didReportReaderEvent:info:` (optional).
    func reader(_ reader: Reader, didReportReaderEvent event: ReaderEvent, info: [AnyHashable: Any]?)

    /// `-reader:didReportBatteryLevel:status:isCharging:` (optional). `batteryLevel` is 0...1.
    func reader(_ reader: Reader, didReportBatteryLevel batteryLevel: Float, status: BatteryStatus, isCharging: Bool)

    /// `-readerDidReportLowBatteryWarning:` (optional).
    func readerDidReportLowBatteryWarning(_ reader: Reader)

    /// `-reader:didRequestPaymentMethodSelection:availablePaymentOptions:completion:` (optional, 5.1 preview).
    func reader(
        _ reader: Reader, didRequestPaymentMethodSelection paymentIntent: PaymentIntent,
        availablePaymentOptions: [PaymentOption], completion: @escaping PaymentMethodSelectionCompletionBlock
    )

    /// The same optional requirement as Swift imports it `async`.
    func reader(
        _ reader: Reader, didRequestPaymentMethodSelection paymentIntent: PaymentIntent,
        availablePaymentOptions: [PaymentOption]
    ) async throws -> PaymentOption

    /// `-reader:didRequestQrCodeDisplay:qrData:completion:` (optional, 5.1 preview).
    func reader(
        _ reader: Reader, didRequestQrCodeDisplay paymentIntent: PaymentIntent, qrData: QrCodeDisplayData,
        completion: @escaping QrCodeDisplayCompletionBlock
    )

    /// The same optional requirement as Swift imports it `async`.
    func reader(
        _ reader: Reader, didRequestQrCodeDisplay paymentIntent: PaymentIntent, qrData: QrCodeDisplayData
    ) async throws
}

extension MobileReaderDelegate {
    /// Stands for the `optional` requirement: does nothing.
    public func reader(_ reader: Reader, didReportReaderEvent event: ReaderEvent, info: [AnyHashable: Any]?) {}

    /// Stands for the `optional` requirement: does nothing.
    public func reader(
        _ reader: Reader, didReportBatteryLevel batteryLevel: Float, status: BatteryStatus, isCharging: Bool
    ) {}

    /// Stands for the `optional` requirement: does nothing.
    public func readerDidReportLowBatteryWarning(_ reader: Reader) {}

    /// Stands for the `optional` requirement in its completion form: runs the `async` form in a task. When the delegate
    /// implements neither form, the completion gets ``SurfaceOptionalRequirementNotImplemented`` (the backend's
    /// `respondsToSelector:` answer).
    public func reader(
        _ reader: Reader, didRequestPaymentMethodSelection paymentIntent: PaymentIntent,
        availablePaymentOptions: [PaymentOption], completion: @escaping PaymentMethodSelectionCompletionBlock
    ) {
        let call = UncheckedSendableBox((self as any MobileReaderDelegate, reader, paymentIntent, availablePaymentOptions))
        let completion = UncheckedSendableBox(completion)
        SurfaceRequirementDefaults.runAsyncRequirement(of: self, requirement: "didRequestPaymentMethodSelection") {
            do {
                let (delegate, reader, intent, options) = call.value
                let option = try await delegate.reader(
                    reader, didRequestPaymentMethodSelection: intent, availablePaymentOptions: options
                )
                completion.value(option, nil)
            } catch {
                completion.value(nil, error)
            }
        }
    }

    /// Stands for the `optional` requirement in its `async` form: runs the completion form.
    public func reader(
        _ reader: Reader, didRequestPaymentMethodSelection paymentIntent: PaymentIntent,
        availablePaymentOptions: [PaymentOption]
    ) async throws -> PaymentOption {
        let requirement = "didRequestPaymentMethodSelection"
        if SurfaceRequirementDefaults.reachedFromCompletionDefault(self, requirement: requirement) {
            throw SurfaceOptionalRequirementNotImplemented(
                requirement: "reader(_:didRequestPaymentMethodSelection:availablePaymentOptions:completion:)"
            )
        }
        return try await surfaceAsync("reader(_:didRequestPaymentMethodSelection:availablePaymentOptions:)") {
            completion in
            self.reader(
                reader, didRequestPaymentMethodSelection: paymentIntent, availablePaymentOptions: availablePaymentOptions,
                completion: completion
            )
        }
    }

    /// Stands for the `optional` requirement in its completion form: runs the `async` form in a task. When the delegate
    /// implements neither form, the completion gets ``SurfaceOptionalRequirementNotImplemented``.
    public func reader(
        _ reader: Reader, didRequestQrCodeDisplay paymentIntent: PaymentIntent, qrData: QrCodeDisplayData,
        completion: @escaping QrCodeDisplayCompletionBlock
    ) {
        let call = UncheckedSendableBox((self as any MobileReaderDelegate, reader, paymentIntent, qrData))
        let completion = UncheckedSendableBox(completion)
        SurfaceRequirementDefaults.runAsyncRequirement(of: self, requirement: "didRequestQrCodeDisplay") {
            do {
                let (delegate, reader, intent, qrData) = call.value
                try await delegate.reader(reader, didRequestQrCodeDisplay: intent, qrData: qrData)
                completion.value(nil)
            } catch {
                completion.value(error)
            }
        }
    }

    /// Stands for the `optional` requirement in its `async` form: runs the completion form.
    public func reader(
        _ reader: Reader, didRequestQrCodeDisplay paymentIntent: PaymentIntent, qrData: QrCodeDisplayData
    ) async throws {
        if SurfaceRequirementDefaults.reachedFromCompletionDefault(self, requirement: "didRequestQrCodeDisplay") {
            throw SurfaceOptionalRequirementNotImplemented(
                requirement: "reader(_:didRequestQrCodeDisplay:qrData:completion:)"
            )
        }
        try await surfaceAsync { completion in
            self.reader(reader, didRequestQrCodeDisplay: paymentIntent, qrData: qrData, completion: completion)
        }
    }
}
