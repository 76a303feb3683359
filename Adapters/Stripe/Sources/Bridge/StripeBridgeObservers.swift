#if TENDER_SURFACE_MIRROR
import StripeTerminalSurface
#elseif StripeTerminalSDK
import StripeTerminal
#endif

#if StripeTerminalSDK || TENDER_SURFACE_MIRROR
import Foundation
import TenderStripe

// The bridge's delegate objects: the SDK calls them with its sender-first signatures, on any thread; each converts the
// SDK's objects to the adapter's values at once and calls the adapter's `Sendable` delegate on the same thread, never
// waiting for another. The bridge holds every one of them strongly for as long as the SDK may call it.

/// `Terminal.shared.delegate`: forwards connection and payment status to the adapter's ``Stripe/TerminalDelegate``.
final class StripeTerminalObserver: NSObject, TerminalDelegate, Sendable {
    private let target = StripeBridgeLocked<(any Stripe.TerminalDelegate)?>(nil)

    /// Forwards to `delegate` from now on (nil: to nobody).
    func forward(to delegate: (any Stripe.TerminalDelegate)?) { target.withLock { $0 = delegate } }

    func terminal(_ terminal: Terminal, didChangeConnectionStatus status: ConnectionStatus) {
        target.current?.didChangeConnectionStatus(StripeTerminalBridge.value(of: status))
    }

    func terminal(_ terminal: Terminal, didChangePaymentStatus status: PaymentStatus) {
        target.current?.didChangePaymentStatus(StripeTerminalBridge.value(of: status))
    }
}

/// `Terminal.shared.offlineDelegate`: forwards offline status and forwarding results to the adapter's
/// ``Stripe/OfflineDelegate``. A forwarded intent is registered (a new object, a new handle).
final class StripeOfflineObserver: NSObject, OfflineDelegate, Sendable {
    private let target = StripeBridgeLocked<(any Stripe.OfflineDelegate)?>(nil)
    private let registry: StripeObjectRegistry

    init(registry: StripeObjectRegistry) { self.registry = registry }

    /// Forwards to `delegate` from now on (nil: to nobody).
    func forward(to delegate: (any Stripe.OfflineDelegate)?) { target.withLock { $0 = delegate } }

    func terminal(_ terminal: Terminal, didChange offlineStatus: OfflineStatus) {
        target.current?.didChangeOfflineStatus(StripeTerminalBridge.value(of: offlineStatus))
    }

    func terminal(_ terminal: Terminal, didForwardPaymentIntent intent: PaymentIntent, error: (any Error)?) {
        let value = StripeTerminalBridge.value(of: intent, registry: registry)
        target.current?.didForwardPaymentIntent(
            value, error: error.map { StripeBridgeErrors.translate($0, registry: registry) })
    }

    func terminal(_ terminal: Terminal, didReportForwardingError error: any Error) {
        target.current?.didReportForwardingError(StripeBridgeErrors.translate(error, registry: registry))
    }
}

/// The delegate of one discovery: converts each list of readers (registering the objects by serial number).
final class StripeDiscoveryObserver: NSObject, DiscoveryDelegate, Sendable {
    private let target: any Stripe.DiscoveryDelegate
    private let registry: StripeObjectRegistry

    init(forwardingTo target: any Stripe.DiscoveryDelegate, registry: StripeObjectRegistry) {
        self.target = target
        self.registry = registry
    }

    func terminal(_ terminal: Terminal, didUpdateDiscoveredReaders readers: [Reader]) {
        for reader in readers { registry.register(reader) }
        // A reader of a device type newer than this bridge knows is left out: the adapter cannot describe it.
        target.didUpdateDiscoveredReaders(readers.compactMap(StripeTerminalBridge.value(of:)))
    }
}

/// The connection configuration's `MobileReaderDelegate` (the SDK holds it weakly; the bridge strongly, until the next
/// connection): implements every callback, the optional ones included. It forwards each to the adapter's
/// ``Stripe/MobileReaderDelegate`` (the low-battery warning too), except the two QR-payment requests (5.1 preview),
/// which it answers itself. `Cancelable`s are wrapped; the reader event's `info` is dropped (see
/// ``StripeClient``).
final class StripeReaderObserver: NSObject, MobileReaderDelegate, Sendable {
    private let target: (any Stripe.MobileReaderDelegate)?
    private let registry: StripeObjectRegistry

    init(forwardingTo target: (any Stripe.MobileReaderDelegate)?, registry: StripeObjectRegistry) {
        self.target = target
        self.registry = registry
    }

    func reader(_ reader: Reader, didReportAvailableUpdate update: ReaderSoftwareUpdate) {
        target?.didReportAvailableUpdate(StripeTerminalBridge.value(of: update))
    }

    func reader(_ reader: Reader, didStartInstallingUpdate update: ReaderSoftwareUpdate, cancelable: Cancelable?) {
        target?.didStartInstallingUpdate(StripeTerminalBridge.value(of: update),
                                         cancelable: cancelable.map { StripeBridgeCancelable($0, registry: registry) })
    }

    func reader(_ reader: Reader, didReportReaderSoftwareUpdateProgress progress: Float) {
        target?.didReportReaderSoftwareUpdateProgress(progress)
    }

    func reader(_ reader: Reader, didFinishInstallingUpdate update: ReaderSoftwareUpdate?, error: (any Error)?) {
        target?.didFinishInstallingUpdate(update.map(StripeTerminalBridge.value(of:)),
                                          error: error.map { StripeBridgeErrors.translate($0, registry: registry) })
    }

    func reader(_ reader: Reader, didRequestReaderInput inputOptions: ReaderInputOptions) {
        target?.didRequestReaderInput(StripeTerminalBridge.value(of: inputOptions))
    }

    func reader(_ reader: Reader, didRequestReaderDisplayMessage displayMessage: ReaderDisplayMessage) {
        guard let message = StripeTerminalBridge.value(of: displayMessage) else { return }
        target?.didRequestReaderDisplayMessage(message)
    }

    func reader(_ reader: Reader, didReportReaderEvent event: ReaderEvent, info: [AnyHashable: Any]?) {
        guard let event = StripeTerminalBridge.value(of: event) else { return }
        target?.didReportReaderEvent(event)
    }

    func reader(_ reader: Reader, didReportBatteryLevel batteryLevel: Float, status: BatteryStatus, isCharging: Bool) {
        target?.didReportBatteryLevel(batteryLevel, status: StripeTerminalBridge.value(of: status),
                                      isCharging: isCharging)
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

    func readerDidReportLowBatteryWarning(_ reader: Reader) { target?.didReportLowBatteryWarning() }

    /// QR-based non-card payments (5.1 preview) are not Tender's: Tender's intents take card-present payments, so the
    /// card option is chosen when offered; without one the selection fails (`featureNotAvailable`) and the SDK ends
    /// the collection with that error rather than waiting for an answer that never comes.
    func reader(_ reader: Reader, didRequestPaymentMethodSelection paymentIntent: PaymentIntent,
                availablePaymentOptions: [PaymentOption],
                completion: @escaping PaymentMethodSelectionCompletionBlock) {
        if let card = availablePaymentOptions.first(where: { $0.type == .card }) {
            return completion(card, nil)
        }
        completion(nil, StripeBridgeErrors.sdkError(
            .featureNotAvailable, "Only card payments are supported; no card option was offered."))
    }

    /// Tender has no screen to show a payment's QR code on (non-card payments are not Tender's): the request fails at
    /// once (`featureNotAvailable`), so the SDK ends the collection instead of waiting.
    func reader(_ reader: Reader, didRequestQrCodeDisplay paymentIntent: PaymentIntent, qrData: QrCodeDisplayData,
                completion: @escaping QrCodeDisplayCompletionBlock) {
        completion(StripeBridgeErrors.sdkError(
            .featureNotAvailable, "QR-code payments are not supported; nothing was shown."))
    }
}
#endif
