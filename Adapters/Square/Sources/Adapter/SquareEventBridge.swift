import Foundation
import Tender

/// Receives one payment's `PaymentManagerDelegate` callbacks and hands them to the adapter's `startPayment` in
/// order. Waiting for the next callback ignores task cancellation on purpose: a cancelled Swift task does not stop
/// Square's payment UI, so the adapter keeps waiting for Square's own answer (see ``PaymentProcessor``).
final class PaymentDelegateBridge: Square.PaymentManagerDelegate {
    enum Event: Sendable {
        case started(any Square.Payment)
        case finished(any Square.Payment)
        case failed(any Square.Payment, any Error)
        case canceled(any Square.Payment)
    }

    private let mailbox = CallbackMailbox<Event>()

    /// The next callback, or `nil` once the payment ended and everything was read. Not cancellable.
    func next() async -> Event? { await mailbox.next() }

    /// `startPayment` returned `nil`: no callback will come after those already delivered.
    func noMoreEvents() { mailbox.finish() }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didStart payment: any Square.Payment) {
        mailbox.send(.started(payment))
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didFinish payment: any Square.Payment) {
        mailbox.finish(with: .finished(payment))
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didFail payment: any Square.Payment,
                        withError error: any Error) {
        mailbox.finish(with: .failed(payment, error))
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didCancel payment: any Square.Payment) {
        mailbox.finish(with: .canceled(payment))
    }
}

/// Receives one pairing's `ReaderPairingDelegate` callbacks: success (which names no reader) or the failure.
final class PairingDelegateBridge: Square.ReaderPairingDelegate {
    /// `startPairing(with:)` returned `nil` without saying why.
    struct PairingDidNotStart: Error {}

    private let result = CallbackResult<(any Error)?>()

    /// `nil` once a reader paired, or the error the pairing failed with (`CancellationError` if cancelled).
    func outcome() async -> (any Error)? { await result.value }

    /// Pairing did not start and the delegate said nothing.
    func didNotStart() { resolve(PairingDidNotStart()) }

    /// The task waiting for the pairing was cancelled.
    func cancel() { resolve(CancellationError()) }

    private func resolve(_ outcome: (any Error)?) { result.resume(outcome) }

    func readerPairingDidBegin() {}
    func readerPairingDidSucceed() { resolve(nil) }
    func readerPairingDidFail(with error: any Error) { resolve(error) }
}

/// Turns the SDK's reader and network callbacks into ``ProcessorEvent``s.
final class SquareEventObserver: Square.ReaderObserver, Square.NetworkObserver {
    private let emitter: ProcessorEventEmitter
    private let lastStatus = Locked<[UInt: Square.ReaderStatus]>([:])

    init(emitter: ProcessorEventEmitter) { self.emitter = emitter }

    /// Records the readers' statuses at registration, so a later drop from `ready` is reported as a disconnect.
    func remember(_ readers: [Square.ReaderInfo]) {
        lastStatus.withLock { last in
            for reader in readers where last[reader.id] == nil { last[reader.id] = reader.statusInfo.status }
        }
    }

    func readerWasAdded(_ readerInfo: Square.ReaderInfo) {
        lastStatus.withLock { $0[readerInfo.id] = readerInfo.statusInfo.status }
        emitter.emit(.readerConnectionChanged(SquareMapping.connectionStatus(readerInfo.statusInfo.status)))
    }

    func readerWasRemoved(_ readerInfo: Square.ReaderInfo) {
        lastStatus.withLock { $0[readerInfo.id] = nil }
        emitter.emit(.readerDisconnected(.requested))
        emitter.emit(.readerConnectionChanged(.notConnected))
    }

    func readerDidChange(_ readerInfo: Square.ReaderInfo, change: Square.ReaderChange) {
        switch change {
        case .readerStatusDidChange:
            let status = readerInfo.statusInfo.status
            let previous = lastStatus.withLock { last in
                defer { last[readerInfo.id] = status }
                return last[readerInfo.id]
            }
            if previous == .ready, status != .ready {
                let reason = readerInfo.statusInfo.unavailableReasonInfo?.reason
                emitter.emit(.readerDisconnected(reason.map(SquareMapping.disconnectReason) ?? .unknown))
            }
            emitter.emit(.readerConnectionChanged(SquareMapping.connectionStatus(status)))
        case .batteryDidBeginCharging, .batteryDidEndCharging, .batteryLevelDidChange:
            guard let battery = readerInfo.batteryStatus else { return }
            emitter.emit(.batteryLevelChanged(level: Double(battery.percentage) / 100, isCharging: battery.isCharging))
        case .cardInserted:
            emitter.emit(.readerMessage(.cardInserted))
        case .cardRemoved:
            emitter.emit(.readerMessage(.cardRemoved))
        case .firmwareUpdateStatusDidChange:
            switch readerInfo.firmwareInfo?.updateStatus {
            case .pending?:
                let blocking = readerInfo.statusInfo.unavailableReasonInfo?.reason == .blockingFirmwareUpdate
                emitter.emit(.softwareUpdateAvailable(ReaderSoftwareUpdate(
                    version: readerInfo.firmwareInfo?.version ?? "unknown", isRequired: blocking)))
            case .none?:
                emitter.emit(.softwareUpdateFinished(nil))
            case .inProgress?, .failed?, nil:
                break
            }
        case .firmwareUpdatePercentDidChange:
            emitter.emit(.softwareUpdateProgress(Double(readerInfo.firmwareInfo?.updatePercentage ?? 0) / 100))
        case .firmwareUpdateDidFail:
            emitter.emit(.softwareUpdateFinished(PaymentError(
                .readerUpdateFailed, recovery: .updateReader, phase: .softwareUpdate,
                message: "The Square reader's firmware update failed.",
                vendor: .init(processor: SquareErrorTable.processor, name: "ReaderChange.firmwareUpdateDidFail"))))
        case .firmwareUpdateTimeDidChange:
            break
        }
    }

    func networkDidChange(isConnected: Bool) {
        emitter.emit(.networkStatusChanged(isConnected ? .online : .offline))
    }
}
