import Foundation
public import Tender

/// The in-memory processor's readers: one of each kind, with the features a vendor documents for it, and the reader
/// faults every adapter's simulator can make (``InMemoryPaymentProcessor/injectReaderFault(_:)``).
struct ReaderSide {
    /// Faults waiting for the next discovery or connection.
    var faults: [ReaderFault] = []
    /// A required update the connected reader reported and has not installed.
    var requiredUpdate: ReaderSoftwareUpdate?
    /// What the connected reader shows.
    var cart: ReaderCart?
    /// The tip the next customer chooses on a reader that asks for one, in minor units.
    var nextOnReaderTip: Int64 = 0
}

/// A reader fault, in terms every adapter's simulator can express (Tap to Pay on an unsupported device or with an
/// unlinked account, a smart reader the local network cannot reach, an update required before connecting).
public enum ReaderFault: Hashable, Sendable {
    /// The next Tap to Pay discovery runs on a device that cannot do Tap to Pay.
    case tapToPayUnsupportedDevice
    /// The next Tap to Pay connection finds the merchant's account not linked (Square: no Apple account linked;
    /// Stripe: the terms of service not accepted) and the linking fails.
    case tapToPayNotLinked
    /// The next smart (internet) reader connection cannot reach the reader on the local network.
    case internetReaderUnreachable
    /// The connected reader (or the next one connected) reports an update that must be installed before it takes
    /// payments.
    case updateRequired
}

extension InMemoryPaymentProcessor {
    /// The simulated readers, one per kind.
    public static let simulatedReaders: [Reader] = [
        Reader(id: "memory-reader-1", serialNumber: "MEM-0001", model: "memory", kind: .bluetooth,
               features: [.offline], isSimulated: true),
        Reader(id: "memory-smart-1", serialNumber: "MEM-S-0001", model: "memory-smart", kind: .internet,
               features: [.offline, .onReaderTipping, .cartDisplay], isSimulated: true),
        Reader(id: "memory-tap-1", model: "memory-tap-to-pay", kind: .tapToPay, features: [.tapToPay],
               isSimulated: true),
    ]

    /// Makes `fault` happen to the next reader operation it applies to (``ReaderFault/updateRequired`` applies to
    /// the connected reader at once).
    public func injectReaderFault(_ fault: ReaderFault) {
        state.withLock { state in
            if fault == .updateRequired, session.current.reader != nil {
                state.readers.requiredUpdate = ReaderSoftwareUpdate(version: "memory-2", isRequired: true)
            } else {
                state.readers.faults.append(fault)
            }
        }
        if fault == .updateRequired, let update = state.current.readers.requiredUpdate {
            emitter.emit(.softwareUpdateAvailable(update))
        }
    }

    /// The tip the next customer chooses on a reader that asks for one (``PaymentRequest/tipEligibleAmount``).
    public func setNextOnReaderTip(minorUnits: Int64) { state.withLock { $0.readers.nextOnReaderTip = minorUnits } }

    /// What the connected reader shows (``PaymentProcessor/setReaderDisplay(_:)``).
    public var displayedCart: ReaderCart? { state.current.readers.cart }

    private func takeFault(_ fault: ReaderFault) -> Bool {
        state.withLock { state in
            guard let index = state.readers.faults.firstIndex(of: fault) else { return false }
            state.readers.faults.remove(at: index)
            return true
        }
    }

    // MARK: PaymentProcessor: readers

    /// The simulated reader of `kind`, found at once; none for ``ReaderKind/usb``.
    public func readerDiscovery(_ kind: ReaderKind, timeout: Double) -> AsyncThrowingStream<Reader, any Error> {
        AsyncThrowingStream { continuation in
            if kind == .tapToPay, takeFault(.tapToPayUnsupportedDevice) {
                continuation.finish(throwing: PaymentError(.featureUnavailable, recovery: .fixIntegration,
                                                           phase: .readerConnection,
                                                           message: "This device cannot do Tap to Pay on iPhone."))
                return
            }
            for reader in Self.simulatedReaders where reader.kind == kind { continuation.yield(reader) }
            continuation.finish()
        }
    }

    /// Connects the reader (a saved one too: the simulated readers are always in range).
    public func connectReader(_ reader: Reader, locationID: String) async throws -> Reader {
        guard var connected = Self.simulatedReaders.first(where: { $0.id == reader.id }) else {
            throw PaymentError(.readerConnectionFailed, recovery: .reconnectReader, phase: .readerConnection,
                               message: "Reader \(reader.id) is not in range.")
        }
        if connected.kind == .tapToPay, takeFault(.tapToPayNotLinked) {
            throw PaymentError(.configurationError, recovery: .fixIntegration, phase: .readerConnection,
                               message: "Tap to Pay is not linked to this merchant account.")
        }
        if connected.kind == .internet, takeFault(.internetReaderUnreachable) {
            throw PaymentError(.readerConnectionFailed, recovery: .reconnectReader, phase: .readerConnection,
                               message: "The smart reader cannot be reached on the local network.")
        }
        if takeFault(.updateRequired) {
            state.withLock { $0.readers.requiredUpdate = ReaderSoftwareUpdate(version: "memory-2", isRequired: true) }
        }
        connected.locationID = locationID
        connected.availableUpdate = state.current.readers.requiredUpdate
        session.withLock { $0.reader = connected }
        emitter.emit(.readerConnectionChanged(.connected))
        if let update = connected.availableUpdate { emitter.emit(.softwareUpdateAvailable(update)) }
        return connected
    }

    /// Disconnects the reader.
    public func disconnectReader() async throws {
        session.withLock { $0.reader = nil }
        state.withLock { $0.readers.cart = nil }
        emitter.emit(.readerDisconnected(.requested))
    }

    /// The connected reader, with the update it has not installed.
    public func connectedReader() async -> Reader? {
        guard var reader = session.current.reader else { return nil }
        reader.availableUpdate = state.current.readers.requiredUpdate
        return reader
    }

    /// Installs the reported update, reporting progress.
    public func installReaderUpdate() async throws {
        guard session.current.reader != nil else {
            throw PaymentError(.readerNotConnected, recovery: .reconnectReader, phase: .softwareUpdate,
                               message: "No reader is connected.")
        }
        guard state.current.readers.requiredUpdate != nil else {
            emitter.emit(.softwareUpdateFinished(nil))
            return
        }
        for progress in [0.5, 1.0] { emitter.emit(.softwareUpdateProgress(progress)) }
        state.withLock { $0.readers.requiredUpdate = nil }
        emitter.emit(.softwareUpdateFinished(nil))
    }

    /// Reboots: the reader disconnects and reconnects at once.
    public func rebootReader() async throws {
        guard session.current.reader != nil else {
            throw PaymentError(.readerNotConnected, recovery: .reconnectReader, phase: .readerConnection,
                               message: "No reader is connected.")
        }
        emitter.emit(.readerDisconnected(.rebooted))
        emitter.emit(.readerConnectionChanged(.connected))
    }

    /// Shows the cart on a reader with a screen.
    public func setReaderDisplay(_ cart: ReaderCart?) async throws {
        guard let reader = session.current.reader, reader.features.contains(.cartDisplay) else {
            throw PaymentError(.featureUnavailable, recovery: .fixRequest, phase: .collection,
                               message: "The connected reader has no screen for a cart.")
        }
        state.withLock { $0.readers.cart = cart }
    }
}
