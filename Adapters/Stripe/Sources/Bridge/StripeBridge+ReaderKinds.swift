#if TENDER_SURFACE_MIRROR
import StripeTerminalSurface
#elseif StripeTerminalSDK
import StripeTerminal
#endif

#if StripeTerminalSDK || TENDER_SURFACE_MIRROR
import Foundation
import class Tender.CallbackResult
package import TenderStripe

extension StripeTerminalBridge {
    // MARK: Tap to Pay and smart readers

    /// `connectReader(_:connectionConfig:completion:)` for the Tap to Pay reader, with a
    /// `TapToPayConnectionConfigurationBuilder(delegate:locationId:)` configuration (`setMerchantDisplayName(_:)`,
    /// `setTosAcceptancePermitted(_:)`: whether the SDK may show Apple's terms during the connection, the 5.x form of
    /// linking the merchant's account; `setAutoReconnectOnUnexpectedDisconnect(_:)`). Its `TapToPayReaderDelegate`
    /// forwards to `connectionConfig.delegate`. Errors are the SDK's (``Stripe/ErrorCode``): an unsupported iPhone
    /// fails at discovery, terms not accepted with 3930 or 3940.
    package func connectReader(_ reader: Stripe.Reader, connectionConfig: Stripe.TapToPayConnectionConfiguration)
        async throws -> Stripe.Reader {
        let answer = CallbackResult<Result<Stripe.Reader, Stripe.ErrorCode>>()
        await startTapToPayConnection(reader, connectionConfig: connectionConfig, answer: answer)
        return try await answer.value.get()
    }

    @MainActor private func startTapToPayConnection(
        _ reader: Stripe.Reader, connectionConfig: Stripe.TapToPayConnectionConfiguration,
        answer: CallbackResult<Result<Stripe.Reader, Stripe.ErrorCode>>
    ) {
        let observer = StripeTapToPayReaderObserver(forwardingTo: connectionConfig.delegate, registry: registry)
        startConnection(reader, observer: observer, answer: answer) {
            try TapToPayConnectionConfigurationBuilder(delegate: observer, locationId: connectionConfig.locationId)
                .setMerchantDisplayName(connectionConfig.merchantDisplayName)
                .setTosAcceptancePermitted(connectionConfig.tosAcceptancePermitted)
                .setAutoReconnectOnUnexpectedDisconnect(connectionConfig.autoReconnectOnUnexpectedDisconnect)
                .build()
        }
    }

    /// `connectReader(_:connectionConfig:completion:)` for a smart reader on the local network, with an
    /// `InternetConnectionConfigurationBuilder(delegate:)` configuration (`setFailIfInUse(_:)`,
    /// `setAllowCustomerCancel(_:)`; no location: the reader is registered to one). Its `InternetReaderDelegate` hears
    /// only disconnects and reconnection, forwarded to `connectionConfig.delegate`. A reader the local network cannot
    /// reach fails with the SDK's error (`internetConnectTimeOut`, 3870).
    package func connectReader(_ reader: Stripe.Reader, connectionConfig: Stripe.InternetConnectionConfiguration)
        async throws -> Stripe.Reader {
        let answer = CallbackResult<Result<Stripe.Reader, Stripe.ErrorCode>>()
        await startInternetConnection(reader, connectionConfig: connectionConfig, answer: answer)
        return try await answer.value.get()
    }

    @MainActor private func startInternetConnection(
        _ reader: Stripe.Reader, connectionConfig: Stripe.InternetConnectionConfiguration,
        answer: CallbackResult<Result<Stripe.Reader, Stripe.ErrorCode>>
    ) {
        let observer = StripeInternetReaderObserver(forwardingTo: connectionConfig.delegate, registry: registry)
        startConnection(reader, observer: observer, answer: answer) {
            try InternetConnectionConfigurationBuilder(delegate: observer)
                .setFailIfInUse(connectionConfig.failIfInUse)
                .setAllowCustomerCancel(connectionConfig.allowCustomerCancel)
                .build()
        }
    }

    // MARK: Reader display

    /// `setReaderDisplay(_:completion:)` with a cart from `CartBuilder(currency:)` (`setTax(_:)`, `setTotal(_:)`,
    /// `setLineItems(_:)`, each line from `CartLineItemBuilder(displayName:)`). A builder's error is thrown without
    /// calling the SDK; the SDK refuses readers without a screen for it (`featureNotAvailableWithConnectedReader`).
    package func setReaderDisplay(_ cart: Stripe.Cart) async throws {
        let answer = CallbackResult<Stripe.ErrorCode?>()
        await startDisplay(cart, answer: answer)
        if let error = await answer.value { throw error }
    }

    @MainActor private func startDisplay(_ cart: Stripe.Cart, answer: CallbackResult<Stripe.ErrorCode?>) {
        let registry = registry
        let sdkCart: Cart
        do {
            sdkCart = try CartBuilder(currency: cart.currency).setTax(cart.tax).setTotal(cart.total)
                .setLineItems(cart.lineItems.map {
                    try CartLineItemBuilder(displayName: $0.displayName).setQuantity($0.quantity).setAmount($0.amount)
                        .build()
                })
                .build()
        } catch {
            return answer.resume(StripeBridgeErrors.translate(error, registry: registry))
        }
        terminal.setReaderDisplay(sdkCart) { @Sendable error in
            answer.resume(error.map { StripeBridgeErrors.translate($0, registry: registry) })
        }
    }

    /// `clearReaderDisplay(_:)`: the smart reader's screen returns to idle.
    package func clearReaderDisplay() async throws {
        let answer = CallbackResult<Stripe.ErrorCode?>()
        await startClearingDisplay(answer)
        if let error = await answer.value { throw error }
    }

    @MainActor private func startClearingDisplay(_ answer: CallbackResult<Stripe.ErrorCode?>) {
        let registry = registry
        terminal.clearReaderDisplay { @Sendable error in
            answer.resume(error.map { StripeBridgeErrors.translate($0, registry: registry) })
        }
    }

    // MARK: Tipping

    /// The SDK's tipping configuration for the adapter's (`TippingConfigurationBuilder().setEligibleAmount(_:)`;
    /// the builder's error is thrown).
    static func sdkTippingConfiguration(_ configuration: Stripe.TippingConfiguration) throws -> TippingConfiguration {
        try TippingConfigurationBuilder().setEligibleAmount(configuration.eligibleAmount).build()
    }
}

// MARK: - Delegates of the other reader kinds

/// A Tap to Pay connection's `TapToPayReaderDelegate` (the SDK holds it weakly; the bridge strongly, until the next
/// connection): forwards each callback to the adapter's ``Stripe/MobileReaderDelegate`` under the mobile reader's
/// name, the terms' acceptance as ``Stripe/MobileReaderDelegate/didAcceptTermsOfService()``. The QR-payment requests
/// (preview) are answered as the mobile reader's observer answers them.
final class StripeTapToPayReaderObserver: NSObject, TapToPayReaderDelegate, Sendable {
    private let target: (any Stripe.MobileReaderDelegate)?
    private let registry: StripeObjectRegistry

    init(forwardingTo target: (any Stripe.MobileReaderDelegate)?, registry: StripeObjectRegistry) {
        self.target = target
        self.registry = registry
    }

    func tapToPayReader(_ reader: Reader, didStartInstallingUpdate update: ReaderSoftwareUpdate,
                        cancelable: Cancelable?) {
        target?.didStartInstallingUpdate(StripeTerminalBridge.value(of: update),
                                         cancelable: cancelable.map { StripeBridgeCancelable($0, registry: registry) })
    }

    func tapToPayReader(_ reader: Reader, didReportReaderSoftwareUpdateProgress progress: Float) {
        target?.didReportReaderSoftwareUpdateProgress(progress)
    }

    func tapToPayReader(_ reader: Reader, didFinishInstallingUpdate update: ReaderSoftwareUpdate?,
                        error: (any Error)?) {
        target?.didFinishInstallingUpdate(update.map(StripeTerminalBridge.value(of:)),
                                          error: error.map { StripeBridgeErrors.translate($0, registry: registry) })
    }

    func tapToPayReader(_ reader: Reader, didRequestReaderInput inputOptions: ReaderInputOptions) {
        target?.didRequestReaderInput(StripeTerminalBridge.value(of: inputOptions))
    }

    func tapToPayReader(_ reader: Reader, didRequestReaderDisplayMessage displayMessage: ReaderDisplayMessage) {
        guard let message = StripeTerminalBridge.value(of: displayMessage) else { return }
        target?.didRequestReaderDisplayMessage(message)
    }

    func tapToPayReaderDidAcceptTermsOfService(_ reader: Reader) { target?.didAcceptTermsOfService() }

    func reader(_ reader: Reader, didDisconnect reason: DisconnectReason) {
        target?.didDisconnect(StripeTerminalBridge.value(of: reason))
    }

    func reader(_ reader: Reader, didStartReconnect cancelable: Cancelable, disconnectReason: DisconnectReason) {
        target?.didStartReconnect(StripeBridgeCancelable(cancelable, registry: registry),
                                  disconnectReason: StripeTerminalBridge.value(of: disconnectReason))
    }

    func readerDidSucceedReconnect(_ reader: Reader) { target?.didSucceedReconnect() }

    func readerDidFailReconnect(_ reader: Reader) { target?.didFailReconnect() }

    /// Card payments only (see ``StripeReaderObserver``): the card option when offered, else `featureNotAvailable`.
    func tapToPayReader(_ reader: Reader, didRequestPaymentMethodSelection paymentIntent: PaymentIntent,
                        availablePaymentOptions: [PaymentOption],
                        completion: @escaping PaymentMethodSelectionCompletionBlock) {
        if let card = availablePaymentOptions.first(where: { $0.type == .card }) {
            return completion(card, nil)
        }
        completion(nil, StripeBridgeErrors.sdkError(
            .featureNotAvailable, "Only card payments are supported; no card option was offered."))
    }

    /// No QR code is shown (see ``StripeReaderObserver``): `featureNotAvailable` at once.
    func tapToPayReader(_ reader: Reader, didRequestQrCodeDisplay paymentIntent: PaymentIntent,
                        qrData: QrCodeDisplayData, completion: @escaping QrCodeDisplayCompletionBlock) {
        completion(StripeBridgeErrors.sdkError(
            .featureNotAvailable, "QR-code payments are not supported; nothing was shown."))
    }
}

/// A smart reader connection's `InternetReaderDelegate` (held by the bridge until the next connection): the SDK tells
/// it only of disconnects and reconnection (a smart reader prompts the customer on its own screen), forwarded to the
/// adapter's ``Stripe/MobileReaderDelegate``.
final class StripeInternetReaderObserver: NSObject, InternetReaderDelegate, Sendable {
    private let target: (any Stripe.MobileReaderDelegate)?
    private let registry: StripeObjectRegistry

    init(forwardingTo target: (any Stripe.MobileReaderDelegate)?, registry: StripeObjectRegistry) {
        self.target = target
        self.registry = registry
    }

    func reader(_ reader: Reader, didDisconnect reason: DisconnectReason) {
        target?.didDisconnect(StripeTerminalBridge.value(of: reason))
    }

    func reader(_ reader: Reader, didStartReconnect cancelable: Cancelable, disconnectReason: DisconnectReason) {
        target?.didStartReconnect(StripeBridgeCancelable(cancelable, registry: registry),
                                  disconnectReason: StripeTerminalBridge.value(of: disconnectReason))
    }

    func readerDidSucceedReconnect(_ reader: Reader) { target?.didSucceedReconnect() }

    func readerDidFailReconnect(_ reader: Reader) { target?.didFailReconnect() }
}
#endif
