import Foundation

// Reader discovery, connection, updates and locations: the completion-block forms the SDK declares, and the `async`
// forms Swift imports for the `void` ones (`discoverReaders` returns a `Cancelable`, so Swift imports no `async` form;
// the overlay's stream is in Terminal+SwiftOverlay.swift).
extension Terminal {
    /// `-discoverReaders:delegate:completion:`. Readers arrive through `delegate`; the completion runs when discovery
    /// stops (a connection, cancellation, or an error). The returned `Cancelable` stops it.
    @discardableResult
    public func discoverReaders(
        _ configuration: any DiscoveryConfiguration, delegate: any DiscoveryDelegate,
        completion: @escaping ErrorCompletionBlock
    ) -> Cancelable {
        backend.discoverReaders(self, configuration: configuration, delegate: delegate, completion: completion)
    }

    /// `-connectReader:connectionConfig:completion:`. For Bluetooth readers pass a ``BluetoothConnectionConfiguration``.
    public func connectReader(
        _ reader: Reader, connectionConfig: ConnectionConfiguration, completion: @escaping ReaderCompletionBlock
    ) {
        backend.connectReader(self, reader: reader, connectionConfig: connectionConfig, completion: completion)
    }

    /// `-connectReader:connectionConfig:completion:` as Swift imports it `async`.
    public func connectReader(_ reader: Reader, connectionConfig: ConnectionConfiguration) async throws -> Reader {
        try await surfaceAsync("connectReader(_:connectionConfig:)") { completion in
            connectReader(reader, connectionConfig: connectionConfig, completion: completion)
        }
    }

    /// `-listLocations:completion:`: `(locations?, hasMore, error?)`; nil parameters mean the default list.
    public func listLocations(parameters: ListLocationsParameters?, completion: @escaping LocationsCompletionBlock) {
        backend.listLocations(self, parameters: parameters, completion: completion)
    }

    /// `-listLocations:completion:` as Swift imports it `async`: the locations and whether there are more.
    public func listLocations(parameters: ListLocationsParameters?) async throws -> ([Location], Bool) {
        let box: UncheckedSendableBox<([Location], Bool)> = try await withUnsafeThrowingContinuation { continuation in
            listLocations(parameters: parameters) { locations, hasMore, error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let locations {
                    continuation.resume(returning: UncheckedSendableBox((locations, hasMore)))
                } else {
                    preconditionFailure(
                        "StripeTerminalSurface: listLocations(parameters:) completed with neither locations nor an error"
                    )
                }
            }
        }
        return box.value
    }

    /// `-installAvailableUpdate`: progress and result go to the reader's `MobileReaderDelegate`.
    public func installAvailableUpdate() {
        backend.installAvailableUpdate(self)
    }

    /// `-rebootReader:` (Bluetooth readers). The completion gets nil on success.
    public func rebootReader(_ completion: @escaping ErrorCompletionBlock) {
        backend.rebootReader(self, completion: completion)
    }

    /// `-rebootReader:` as Swift imports it `async`.
    public func rebootReader() async throws {
        try await surfaceAsync { completion in rebootReader(completion) }
    }

    /// `-disconnectReader:`. The completion gets nil on success.
    public func disconnectReader(_ completion: @escaping ErrorCompletionBlock) {
        backend.disconnectReader(self, completion: completion)
    }

    /// `-disconnectReader:` as Swift imports it `async`.
    public func disconnectReader() async throws {
        try await surfaceAsync { completion in disconnectReader(completion) }
    }
}
