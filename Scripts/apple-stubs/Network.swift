// Stand-in for Network.framework (Scripts/check-apple-gated.py): only what the library targets'
// `#if canImport(Network)` blocks use. Shapes as in the iOS 17 SDK's interface.
public import Dispatch

/// `NWPath` (Network): a value describing the current path.
public struct NWPath: Sendable, Equatable {
    /// `NWPath.Status`.
    public enum Status: Sendable, Equatable, Hashable {
        case satisfied
        case unsatisfied
        case requiresConnection
    }

    /// Whether the path can be used to send and receive data.
    public let status: Status
}

/// `NWPathMonitor` (Network): reports path changes on the queue it was started on.
final public class NWPathMonitor: @unchecked Sendable {
    /// Called with each new path.
    @preconcurrency final public var pathUpdateHandler: (@Sendable (_ newPath: NWPath) -> Void)?
    /// The current path.
    final public var currentPath: NWPath { NWPath(status: .unsatisfied) }

    public init() {}

    /// Starts monitoring on `queue`.
    final public func start(queue: DispatchQueue) {}

    /// Stops monitoring.
    final public func cancel() {}
}
