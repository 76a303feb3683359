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

    private struct Mailbox {
        var buffer: [Event] = []
        var waiter: CheckedContinuation<Event?, Never>?
        var closed = false
    }

    private let mailbox = Locked(Mailbox())

    /// The next callback, or `nil` once the payment ended and everything was read. Not cancellable.
    func next() async -> Event? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Event?, Never>) in
            let ready: Event?? = mailbox.withLock { box in
                if !box.buffer.isEmpty { return .some(box.buffer.removeFirst()) }
                if box.closed { return .some(nil) }
                box.waiter = continuation
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// `startPayment` returned `nil`: no callback will come after those already delivered.
    func noMoreEvents() { deliver(nil, closing: true) }

    private func deliver(_ event: Event?, closing: Bool) {
        let resumed: (CheckedContinuation<Event?, Never>, Event?)? = mailbox.withLock { box in
            guard !box.closed else { return nil }
            if closing { box.closed = true }
            if let waiter = box.waiter {
                box.waiter = nil
                if let event { return (waiter, event) }
                return (waiter, nil)
            }
            if let event { box.buffer.append(event) }
            return nil
        }
        if let (waiter, event) = resumed { waiter.resume(returning: event) }
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didStart payment: any Square.Payment) {
        deliver(.started(payment), closing: false)
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didFinish payment: any Square.Payment) {
        deliver(.finished(payment), closing: true)
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didFail payment: any Square.Payment,
                        withError error: any Error) {
        deliver(.failed(payment, error), closing: true)
    }

    func paymentManager(_ paymentManager: any Square.PaymentManager, didCancel payment: any Square.Payment) {
        deliver(.canceled(payment), closing: true)
    }
}

/// Receives one pairing's `ReaderPairingDelegate` callbacks: success (which names no reader) or the failure.
final class PairingDelegateBridge: Square.ReaderPairingDelegate {
    /// `startPairing(with:)` returned `nil` without saying why.
    struct PairingDidNotStart: Error {}

    private struct Box {
        var outcome: (any Error)??
        var waiter: CheckedContinuation<(any Error)?, Never>?
    }

    private let box = Locked(Box())

    /// `nil` once a reader paired, or the error the pairing failed with (`CancellationError` if cancelled).
    func outcome() async -> (any Error)? {
        await withCheckedContinuation { (continuation: CheckedContinuation<(any Error)?, Never>) in
            let ready: (any Error)?? = box.withLock { box in
                if let outcome = box.outcome { return .some(outcome) }
                box.waiter = continuation
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Pairing did not start and the delegate said nothing.
    func didNotStart() { resolve(PairingDidNotStart()) }

    /// The task waiting for the pairing was cancelled.
    func cancel() { resolve(CancellationError()) }

    private func resolve(_ outcome: (any Error)?) {
        let waiter = box.withLock { box -> CheckedContinuation<(any Error)?, Never>? in
            guard box.outcome == nil else { return nil }
            box.outcome = .some(outcome)
            defer { box.waiter = nil }
            return box.waiter
        }
        waiter?.resume(returning: outcome)
    }

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
