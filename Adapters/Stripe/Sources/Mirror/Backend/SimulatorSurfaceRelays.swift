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

/// One connection's reader delegate: relays to the connection configuration's `MobileReaderDelegate`, which it holds
/// weakly as the SDK does (an app that lets it go gets no more reader callbacks).
final class SimulatorReaderRelay: Stripe.MobileReaderDelegate, @unchecked Sendable {
    private weak var backend: SimulatorSurfaceBackend?
    private weak var delegate: (any MobileReaderDelegate)?
    private let serialNumber: String

    init(_ backend: SimulatorSurfaceBackend, delegate: (any MobileReaderDelegate)?, serialNumber: String) {
        self.backend = backend
        self.delegate = delegate
        self.serialNumber = serialNumber
    }

    /// The app's delegate (if still alive), the connected reader's SDK object and the backend.
    private var target: (any MobileReaderDelegate, Reader, SimulatorSurfaceBackend)? {
        guard let backend, let delegate, let reader = backend.knownReader(serialNumber) else { return nil }
        return (delegate, reader, backend)
    }

    func didReportAvailableUpdate(_ update: Stripe.ReaderSoftwareUpdate) {
        guard let (delegate, reader, backend) = target else { return }
        delegate.reader(reader, didReportAvailableUpdate: backend.sdkUpdate(update))
    }

    func didStartInstallingUpdate(_ update: Stripe.ReaderSoftwareUpdate, cancelable: (any Stripe.Cancelable)?) {
        guard let (delegate, reader, backend) = target else { return }
        delegate.reader(reader, didStartInstallingUpdate: backend.sdkUpdate(update),
                        cancelable: cancelable.map(backend.sdkCancelable))
    }

    func didReportReaderSoftwareUpdateProgress(_ progress: Float) {
        guard let (delegate, reader, _) = target else { return }
        delegate.reader(reader, didReportReaderSoftwareUpdateProgress: progress)
    }

    func didFinishInstallingUpdate(_ update: Stripe.ReaderSoftwareUpdate?, error: Stripe.ErrorCode?) {
        guard let (delegate, reader, backend) = target else { return }
        delegate.reader(reader, didFinishInstallingUpdate: update.map(backend.sdkUpdate), error: error.map(backend.sdkError))
    }

    func didRequestReaderInput(_ inputOptions: Stripe.ReaderInputOptions) {
        guard let (delegate, reader, backend) = target else { return }
        delegate.reader(reader, didRequestReaderInput: backend.sdkInputOptions(inputOptions))
    }

    func didRequestReaderDisplayMessage(_ displayMessage: Stripe.ReaderDisplayMessage) {
        guard let (delegate, reader, backend) = target else { return }
        delegate.reader(reader, didRequestReaderDisplayMessage: backend.surfaceCase(displayMessage))
    }

    func didReportReaderEvent(_ event: Stripe.ReaderEvent) {
        guard let (delegate, reader, backend) = target else { return }
        delegate.reader(reader, didReportReaderEvent: backend.surfaceCase(event), info: nil)
    }

    func didReportBatteryLevel(_ batteryLevel: Float, status: Stripe.BatteryStatus, isCharging: Bool) {
        guard let (delegate, reader, backend) = target else { return }
        delegate.reader(reader, didReportBatteryLevel: batteryLevel, status: backend.surfaceCase(status),
                        isCharging: isCharging)
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
