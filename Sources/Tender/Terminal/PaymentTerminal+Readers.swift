import Foundation

extension PaymentTerminal {
    // MARK: Readers

    /// Looks for readers of `kind`, reporting each as it is found; a reader reported again (Stripe's Bluetooth
    /// proximity first reports only the serial number) has the same ``Reader/id``: update it in place. Ends after
    /// `timeout` seconds; cancel the consuming task to stop looking sooner. Throws
    /// ``PaymentError/Code/featureUnavailable`` for a kind the processor does not offer.
    /// ```swift
    /// for try await reader in terminal.readerDiscovery(.bluetooth, timeout: 30) {
    ///     found[reader.id] = reader          // the list the cashier picks from
    /// }
    /// ```
    public nonisolated func readerDiscovery(_ kind: ReaderKind = .bluetooth, timeout: Double = 10)
        -> AsyncThrowingStream<Reader, any Error> {
        processor.readerDiscovery(kind, timeout: timeout)
    }

    /// Every reader of `kind` found within `timeout` seconds, each in its latest form: a convenience over
    /// ``readerDiscovery(_:timeout:)``.
    public func discoverReaders(_ kind: ReaderKind = .bluetooth, timeout: Double = 10) async throws -> [Reader] {
        try await processor.discoverReaders(kind, timeout: timeout)
    }

    /// Connects a reader at the scope's location, whatever its kind. Pass a reader saved from an earlier launch to
    /// reconnect to it: the processor looks for it first. Tap to Pay set-up (the vendor's terms or Apple account
    /// linking) happens here; a required software update installs during the connection.
    public func connectReader(_ reader: Reader) async throws -> Reader {
        readerState.status = .connecting
        do {
            let connected = try await processor.connectReader(reader, locationID: scope.locationID)
            readerState.status = .connected
            return connected
        } catch {
            readerState.status = await processor.connectedReader() == nil ? .notConnected : .connected
            throw error
        }
    }

    /// Disconnects the reader.
    public func disconnectReader() async throws {
        try await processor.disconnectReader()
        readerState.status = .notConnected
    }

    /// The connected reader, with what it can do (``Reader/features``) and any update it has not installed; `nil`
    /// when none is connected.
    public func connectedReader() async -> Reader? { await processor.connectedReader() }

    /// Installs the software update the connected reader reported (``Reader/availableUpdate``). Progress arrives
    /// as ``TenderEvent`` reader events. A required update blocks payments until it is installed.
    public func installReaderUpdate() async throws {
        guard await processor.connectedReader() != nil else { throw Self.noReader(.softwareUpdate) }
        try await processor.installReaderUpdate()
    }

    /// Reboots the connected reader: it disconnects, and reconnects on its own where the vendor does so.
    public func rebootReader() async throws {
        guard await processor.connectedReader() != nil else { throw Self.noReader(.readerConnection) }
        try await processor.rebootReader()
    }

    /// Shows `cart` on the connected reader while the cashier rings up, or clears the screen with `nil`. Needs a
    /// reader with ``ReaderFeature/cartDisplay`` (Stripe's smart readers).
    public func setReaderDisplay(_ cart: ReaderCart?) async throws {
        if let cart { _ = try cart.total() }
        try await requireReader(.cartDisplay, phase: .collection, for: "showing a cart")
        try await processor.setReaderDisplay(cart)
    }

    // MARK: Reader rules

    /// Refuses what the connected reader cannot do: a required update not installed, on-reader tipping on a reader
    /// without it. Says nothing when no reader is known (the processor reports its own error then).
    func checkReader(for request: PaymentRequest) async throws {
        guard let reader = await processor.connectedReader() else { return }
        if let update = reader.availableUpdate, update.isRequired {
            throw PaymentError(.readerUpdateRequired, recovery: .updateReader, phase: .softwareUpdate,
                               message: "The reader must install the required update \(update.version) before it takes payments: call installReaderUpdate().")
        }
        if request.tipEligibleAmount != nil, !reader.features.contains(.onReaderTipping) {
            throw Self.lacks(.onReaderTipping, reader: reader, phase: .validation, for: "an on-reader tip")
        }
    }

    /// Throws unless a reader is connected and has `feature`.
    func requireReader(_ feature: ReaderFeature, phase: PaymentError.Phase, for what: String) async throws {
        guard let reader = await processor.connectedReader() else { throw Self.noReader(phase) }
        guard reader.features.contains(feature) else { throw Self.lacks(feature, reader: reader, phase: phase, for: what) }
    }

    static func noReader(_ phase: PaymentError.Phase) -> PaymentError {
        PaymentError(.readerNotConnected, recovery: .reconnectReader, phase: phase, message: "No reader is connected.")
    }

    static func lacks(_ feature: ReaderFeature, reader: Reader, phase: PaymentError.Phase, for what: String)
        -> PaymentError {
        PaymentError(.featureUnavailable, recovery: .fixRequest, phase: phase,
                     message: "The connected \(reader.kind.label) reader (\(reader.model)) cannot do \(what): it lacks \(feature.rawValue).")
    }
}
