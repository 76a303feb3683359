import Foundation
import StripeTerminalSurface
import func Tender.awaitCallback
import TenderStripe

// The simulator's delegates, relaying each callback to the app's SDK delegate with the SDK's sender-first signature
// (`terminal(_:…)` with `Terminal.shared`, `reader(_:…)` with the connected reader's object), on the thread the
// simulator calls from, as the SDK calls from any thread.

/// The simulator's `TerminalDelegate`: relays to `Terminal.shared.delegate`.
final class SimulatorTerminalRelay: Stripe.TerminalDelegate, @unchecked Sendable {
    private weak var backend: SimulatorSurfaceBackend?

    init(_ backend: SimulatorSurfaceBackend) { self.backend = backend }

    func didChangeConnectionStatus(_ status: Stripe.ConnectionStatus) {
        guard let backend, let terminal = backend.currentTerminal else { return }
        terminal.delegate?.terminal(terminal, didChangeConnectionStatus: backend.surfaceCase(status))
    }

    func didChangePaymentStatus(_ status: Stripe.PaymentStatus) {
        guard let backend, let terminal = backend.currentTerminal else { return }
        terminal.delegate?.terminal(terminal, didChangePaymentStatus: backend.surfaceCase(status))
    }
}

/// The simulator's `OfflineDelegate`: relays to `Terminal.shared.offlineDelegate` (a forwarded intent is a new SDK
/// object, as the simulator hands it out under a new handle).
final class SimulatorOfflineRelay: Stripe.OfflineDelegate, @unchecked Sendable {
    private weak var backend: SimulatorSurfaceBackend?

    init(_ backend: SimulatorSurfaceBackend) { self.backend = backend }

    func didChangeOfflineStatus(_ offlineStatus: Stripe.OfflineStatus) {
        guard let backend, let terminal = backend.currentTerminal else { return }
        terminal.offlineDelegate?.terminal(terminal, didChange: backend.sdkOfflineStatus(offlineStatus))
    }

    func didForwardPaymentIntent(_ intent: Stripe.PaymentIntent, error: Stripe.ErrorCode?) {
        guard let backend, let terminal = backend.currentTerminal else { return }
        terminal.offlineDelegate?.terminal(terminal, didForwardPaymentIntent: backend.sdkIntent(intent),
                                           error: error.map(backend.sdkError))
    }

    func didReportForwardingError(_ error: Stripe.ErrorCode) {
        guard let backend, let terminal = backend.currentTerminal else { return }
        terminal.offlineDelegate?.terminal(terminal, didReportForwardingError: backend.sdkError(error))
    }
}

/// One discovery's delegate: relays each list to the app's `DiscoveryDelegate` (held for the discovery's duration).
final class SimulatorDiscoveryRelay: Stripe.DiscoveryDelegate, @unchecked Sendable {
    private weak var backend: SimulatorSurfaceBackend?
    private let delegate: any DiscoveryDelegate
    private let terminal: Terminal

    init(_ backend: SimulatorSurfaceBackend, terminal: Terminal, delegate: any DiscoveryDelegate) {
        self.backend = backend
        self.terminal = terminal
        self.delegate = delegate
    }

    func didUpdateDiscoveredReaders(_ readers: [Stripe.Reader]) {
        guard let backend else { return }
        delegate.terminal(terminal, didUpdateDiscoveredReaders: readers.map(backend.sdkReader))
    }
}

/// One connection's reader delegate: relays to the connection configuration's delegate, which it holds weakly as the
/// SDK does (an app that lets it go gets no more reader callbacks), with the callbacks that delegate's protocol has: a
/// `MobileReaderDelegate` gets every one (`reader(_:…)`), a `TapToPayReaderDelegate` the `tapToPayReader(_:…)` ones
/// (Apple's reader reports no battery, events or available updates), an `InternetReaderDelegate` only the
/// disconnect and reconnection callbacks of `ReaderDelegate`.
final class SimulatorReaderRelay: Stripe.MobileReaderDelegate, @unchecked Sendable {
    private weak var backend: SimulatorSurfaceBackend?
    private weak var delegate: (any ReaderDelegate)?
    private let serialNumber: String

    init(_ backend: SimulatorSurfaceBackend, delegate: (any ReaderDelegate)?, serialNumber: String) {
        self.backend = backend
        self.delegate = delegate
        self.serialNumber = serialNumber
    }

    /// The app's delegate (if still alive), the connected reader's SDK object and the backend.
    private var target: (any ReaderDelegate, Reader, SimulatorSurfaceBackend)? {
        guard let backend, let delegate, let reader = backend.knownReader(serialNumber) else { return nil }
        return (delegate, reader, backend)
    }

    func didReportAvailableUpdate(_ update: Stripe.ReaderSoftwareUpdate) {
        guard let (delegate, reader, backend) = target, let mobile = delegate as? any MobileReaderDelegate else { return }
        mobile.reader(reader, didReportAvailableUpdate: backend.sdkUpdate(update))
    }

    func didStartInstallingUpdate(_ update: Stripe.ReaderSoftwareUpdate, cancelable: (any Stripe.Cancelable)?) {
        guard let (delegate, reader, backend) = target else { return }
        let (update, cancelable) = (backend.sdkUpdate(update), cancelable.map(backend.sdkCancelable))
        if let mobile = delegate as? any MobileReaderDelegate {
            mobile.reader(reader, didStartInstallingUpdate: update, cancelable: cancelable)
        } else if let tapToPay = delegate as? any TapToPayReaderDelegate {
            tapToPay.tapToPayReader(reader, didStartInstallingUpdate: update, cancelable: cancelable)
        }
    }

    func didReportReaderSoftwareUpdateProgress(_ progress: Float) {
        guard let (delegate, reader, _) = target else { return }
        if let mobile = delegate as? any MobileReaderDelegate {
            mobile.reader(reader, didReportReaderSoftwareUpdateProgress: progress)
        } else if let tapToPay = delegate as? any TapToPayReaderDelegate {
            tapToPay.tapToPayReader(reader, didReportReaderSoftwareUpdateProgress: progress)
        }
    }

    func didFinishInstallingUpdate(_ update: Stripe.ReaderSoftwareUpdate?, error: Stripe.ErrorCode?) {
        guard let (delegate, reader, backend) = target else { return }
        let (update, error) = (update.map(backend.sdkUpdate), error.map(backend.sdkError))
        if let mobile = delegate as? any MobileReaderDelegate {
            mobile.reader(reader, didFinishInstallingUpdate: update, error: error)
        } else if let tapToPay = delegate as? any TapToPayReaderDelegate {
            tapToPay.tapToPayReader(reader, didFinishInstallingUpdate: update, error: error)
        }
    }

    func didRequestReaderInput(_ inputOptions: Stripe.ReaderInputOptions) {
        guard let (delegate, reader, backend) = target else { return }
        let options = backend.sdkInputOptions(inputOptions)
        if let mobile = delegate as? any MobileReaderDelegate {
            mobile.reader(reader, didRequestReaderInput: options)
        } else if let tapToPay = delegate as? any TapToPayReaderDelegate {
            tapToPay.tapToPayReader(reader, didRequestReaderInput: options)
        }
    }

    func didRequestReaderDisplayMessage(_ displayMessage: Stripe.ReaderDisplayMessage) {
        guard let (delegate, reader, backend) = target else { return }
        let message: ReaderDisplayMessage = backend.surfaceCase(displayMessage)
        if let mobile = delegate as? any MobileReaderDelegate {
            mobile.reader(reader, didRequestReaderDisplayMessage: message)
        } else if let tapToPay = delegate as? any TapToPayReaderDelegate {
            tapToPay.tapToPayReader(reader, didRequestReaderDisplayMessage: message)
        }
    }

    func didReportReaderEvent(_ event: Stripe.ReaderEvent) {
        guard let (delegate, reader, backend) = target, let mobile = delegate as? any MobileReaderDelegate else { return }
        mobile.reader(reader, didReportReaderEvent: backend.surfaceCase(event), info: nil)
    }

    func didReportBatteryLevel(_ batteryLevel: Float, status: Stripe.BatteryStatus, isCharging: Bool) {
        guard let (delegate, reader, backend) = target, let mobile = delegate as? any MobileReaderDelegate else { return }
        mobile.reader(reader, didReportBatteryLevel: batteryLevel, status: backend.surfaceCase(status),
                      isCharging: isCharging)
    }

    func didReportLowBatteryWarning() {
        guard let (delegate, reader, _) = target, let mobile = delegate as? any MobileReaderDelegate else { return }
        mobile.readerDidReportLowBatteryWarning(reader)
    }

    func didAcceptTermsOfService() {
        guard let (delegate, reader, _) = target, let tapToPay = delegate as? any TapToPayReaderDelegate else { return }
        tapToPay.tapToPayReaderDidAcceptTermsOfService(reader)
    }

    func didDisconnect(_ reason: Stripe.DisconnectReason) {
        guard let (delegate, reader, backend) = target else { return }
        delegate.reader(reader, didDisconnect: backend.surfaceCase(reason))
    }

    func didStartReconnect(_ cancelable: any Stripe.Cancelable, disconnectReason: Stripe.DisconnectReason) {
        guard let (delegate, reader, backend) = target else { return }
        delegate.reader(reader, didStartReconnect: backend.sdkCancelable(cancelable),
                        disconnectReason: backend.surfaceCase(disconnectReason))
    }

    func didSucceedReconnect() {
        guard let (delegate, reader, _) = target else { return }
        delegate.readerDidSucceedReconnect(reader)
    }

    func didFailReconnect() {
        guard let (delegate, reader, _) = target else { return }
        delegate.readerDidFailReconnect(reader)
    }
}

/// The simulator's connection-token provider: asks the provider the app gave `Terminal.initWithTokenProvider…`, with
/// the completion form, as the SDK does. A `(nil, nil)` answer reaches the simulator as an empty token, which it
/// reports as the SDK does (`connectionTokenProviderCompletedWithNothing`, or `…WhileForwarding`). Test support.
package final class SimulatorTokenRelay: Stripe.ConnectionTokenProvider, @unchecked Sendable {
    private let provider = LockedState<UncheckedSendableBox<any ConnectionTokenProvider>?>(nil)
    private let requestCount = LockedState(0)

    /// A relay with no provider yet (the backend installs the app's at `Terminal.initWithTokenProvider…`).
    package init() {}

    /// How many tokens the simulator asked for.
    package var requests: Int { requestCount.withLock { $0 } }

    /// Installs the provider the app gave the SDK.
    func install(_ provider: any ConnectionTokenProvider) {
        self.provider.withLock { $0 = UncheckedSendableBox(provider) }
    }

    /// Asks the app's provider (completion form) and returns its token, "" for `(nil, nil)`, or throws its error.
    package func fetchConnectionToken() async throws -> String {
        requestCount.withLock { $0 += 1 }
        guard let provider = provider.withLock({ $0 }) else {
            throw ErrorCode(.connectionTokenProviderCompletedWithNothing,
                            userInfo: [ErrorKey.message.rawValue: "Terminal.initWithTokenProvider was never called."])
        }
        let answer: Result<String?, any Error> = await awaitCallback { resume in
            provider.value.fetchConnectionToken { token, error in resume(error.map { .failure($0) } ?? .success(token)) }
        }
        return try answer.get() ?? ""
    }
}
