import Foundation

/// What the facade knows now, in one read: what a screen needs before the first event arrives.
///
/// Events (``PaymentTerminal/events``) report changes from the moment of subscription; a screen that appears later
/// starts from ``PaymentTerminal/snapshot()`` and then applies the events, so it never shows a stale "no reader" while
/// one is connected. The reader fields follow the processor's events, which ``PaymentTerminal/run()`` handles: keep
/// it running.
public struct TerminalSnapshot: Hashable, Sendable {
    /// The network status as last learned from the processor.
    public var networkStatus: NetworkStatus
    /// The connected reader, `nil` when none is.
    public var reader: Reader?
    /// The reader's connection status.
    public var readerStatus: ReaderConnectionStatus
    /// The software update the reader offers or requires, `nil` when none is known.
    public var softwareUpdate: ReaderSoftwareUpdate?
    /// The offline queue as the ledger records it.
    public var queue: OfflineQueueSnapshot
    /// The payments in progress on this facade now (normally at most one), as last recorded.
    public var paymentsInProgress: [PaymentSession]
}

extension PaymentTerminal {
    /// The facade's current state: network, reader, pending software update, offline queue and payments in
    /// progress. Start a screen from it, then follow ``events``.
    public func snapshot() async throws -> TerminalSnapshot {
        let queue = try await queueStatus()
        let inProgress = live.values.filter { inFlight.contains($0.reference) }.sorted { $0.createdAt < $1.createdAt }
        return TerminalSnapshot(networkStatus: networkStatus, reader: readerState.reader,
                                readerStatus: readerState.status, softwareUpdate: readerState.update,
                                queue: queue, paymentsInProgress: inProgress)
    }
}

/// The reader side of the facade, as learned from connection calls and the processor's events.
struct ReaderState: Sendable {
    var reader: Reader?
    var status: ReaderConnectionStatus = .notConnected
    var update: ReaderSoftwareUpdate?

    mutating func connected(_ reader: Reader) {
        self.reader = reader
        status = .connected
    }

    mutating func disconnected() {
        reader = nil
        status = .notConnected
    }

    /// Applies a processor event that says something about the reader.
    mutating func learn(_ event: ProcessorEvent) {
        switch event {
        case .readerConnectionChanged(let newStatus):
            status = newStatus
            if newStatus == .notConnected { reader = nil }
        case .readerDisconnected:
            disconnected()
        case .readerReconnectStarted:
            status = .reconnecting
        case .readerReconnectSucceeded:
            status = reader == nil ? status : .connected
        case .readerReconnectFailed:
            disconnected()
        case .softwareUpdateAvailable(let available):
            update = available
        case .softwareUpdateFinished(nil):
            update = nil
        case .batteryLevelChanged(let level, let isCharging):
            reader?.batteryLevel = level
            reader?.isCharging = isCharging
        default:
            break
        }
    }
}
