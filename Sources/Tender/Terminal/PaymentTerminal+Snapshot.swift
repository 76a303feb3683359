import Foundation

/// What the facade knows now, in one read: what a screen needs before the first event arrives.
///
/// Events (``PaymentTerminal/events``) report changes from the moment of subscription; a screen that appears later
/// starts from ``PaymentTerminal/snapshot()`` and then applies the events, so it never shows a stale "no reader" while
/// one is connected. The connection status follows the processor's events, which ``PaymentTerminal/run()`` handles:
/// keep it running.
public struct TerminalSnapshot: Hashable, Sendable {
    /// The network status as last learned from the processor.
    public var networkStatus: NetworkStatus
    /// The connected reader, with what it can do and any update it has not installed; `nil` when none is connected.
    public var reader: Reader?
    /// The reader's connection status (connecting and reconnecting included).
    public var readerStatus: ReaderConnectionStatus
    /// The offline queue as the ledger records it.
    public var queue: OfflineQueueSnapshot
    /// The payments in progress on this facade now (normally at most one), as last recorded.
    public var paymentsInProgress: [PaymentSession]
}

extension PaymentTerminal {
    /// The facade's current state: network, reader, offline queue and payments in progress. Start a screen from
    /// it, then follow ``events``.
    public func snapshot() async throws -> TerminalSnapshot {
        let reader = await processor.connectedReader()
        let queue = try await queueStatus()
        // The processor knows whether a reader is connected; the events say how a connection in progress goes (an
        // event handled late never turns a connected reader back into "connecting").
        let status: ReaderConnectionStatus = switch readerState.status {
        case .connected, .notConnected, .connecting, .discovering: reader == nil
            ? (readerState.status == .connected ? .notConnected : readerState.status) : .connected
        case .reconnecting: .reconnecting
        }
        let inProgress = live.values.filter { inFlight.contains($0.reference) }.sorted { $0.createdAt < $1.createdAt }
        return TerminalSnapshot(networkStatus: networkStatus, reader: reader, readerStatus: status, queue: queue,
                                paymentsInProgress: inProgress)
    }
}

/// The reader's connection status as learned from connection calls and the processor's events (the reader itself
/// is the processor's to tell: ``PaymentProcessor/connectedReader()``).
struct ReaderState: Sendable {
    var status: ReaderConnectionStatus = .notConnected

    /// Applies a processor event that says something about the connection.
    mutating func learn(_ event: ProcessorEvent) {
        switch event {
        case .readerConnectionChanged(let newStatus): status = newStatus
        case .readerDisconnected, .readerReconnectFailed: status = .notConnected
        case .readerReconnectStarted: status = .reconnecting
        case .readerReconnectSucceeded: status = .connected
        default: break
        }
    }
}
