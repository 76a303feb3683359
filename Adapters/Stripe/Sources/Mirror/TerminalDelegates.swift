public import Foundation

// Deviation, for every `optional` requirement below: Linux has no Objective-C runtime, so `optional` requirements
// (which need `@objc`) cannot be declared. Each is a plain requirement with an empty default implementation in an
// extension, which a conformer may leave out exactly as on iOS; a backend calls it where the SDK would first ask
// `respondsToSelector:`. The mirror-vs-surface test checks that every `optional` requirement, and only those, has a
// default implementation.

/// `SCPTerminalDelegate`: connection and payment status changes. Both methods are optional.
public protocol TerminalDelegate: NSObjectProtocol {
    /// `-terminal:didChangeConnectionStatus:` (optional). For unexpected disconnects the header advises
    /// ``ReaderDelegate/reader(_:didDisconnect:)`` instead.
    func terminal(_ terminal: Terminal, didChangeConnectionStatus status: ConnectionStatus)

    /// `-terminal:didChangePaymentStatus:` (optional).
    func terminal(_ terminal: Terminal, didChangePaymentStatus status: PaymentStatus)
}

extension TerminalDelegate {
    /// Stands for the `optional` requirement: does nothing.
    public func terminal(_ terminal: Terminal, didChangeConnectionStatus status: ConnectionStatus) {}

    /// Stands for the `optional` requirement: does nothing.
    public func terminal(_ terminal: Terminal, didChangePaymentStatus status: PaymentStatus) {}
}

/// `SCPOfflineDelegate`: offline status and forwarding of stored payments. All three methods are required.
public protocol OfflineDelegate: NSObjectProtocol {
    /// `-terminal:didChangeOfflineStatus:` (Swift prunes it to `terminal(_:didChange:)`): a field of
    /// `Terminal.offlineStatus` changed.
    func terminal(_ terminal: Terminal, didChange offlineStatus: OfflineStatus)

    /// `-terminal:didForwardPaymentIntent:error:`: a stored intent was forwarded. On error `intent` is the local copy,
    /// identifiable through `offlineDetails` or its metadata.
    func terminal(_ terminal: Terminal, didForwardPaymentIntent intent: PaymentIntent, error: (any Error)?)

    /// `-terminal:didReportForwardingError:`: a forwarding error not tied to one intent (e.g. a token failure).
    func terminal(_ terminal: Terminal, didReportForwardingError error: any Error)
}

/// `SCPDiscoveryDelegate`: readers found during discovery.
public protocol DiscoveryDelegate: NSObjectProtocol {
    /// `-terminal:didUpdateDiscoveredReaders:`: the full current list, each time.
    func terminal(_ terminal: Terminal, didUpdateDiscoveredReaders readers: [Reader])
}
