import Foundation
public import Tender

// MARK: - Readers

extension SquareProcessor {
    /// Square's readers of `kind`: ``ReaderKind/bluetooth`` yields the paired readers, Bluetooth first (a Stand or
    /// magstripe reader paired too is listed after them: Square's pairing names no reader), and, when there are
    /// none, pairs the first one in range (`startPairing(with:)`; the new one is yielded from `readers`); ``ReaderKind/usb`` yields the Stand and magstripe readers plugged in;
    /// ``ReaderKind/tapToPay`` yields the iPhone's own reader when `tapToPaySettings.isDeviceCapable`
    /// (otherwise ``PaymentError/Code/featureUnavailable``). Square has no internet readers
    /// (``PaymentError/Code/featureUnavailable``). A pairing stops (`PairingHandle.stop()`) after `timeout` seconds
    /// (Square's own limit is a minute) or when the consuming task is cancelled.
    public nonisolated func readerDiscovery(_ kind: ReaderKind, timeout: Double) -> AsyncThrowingStream<Reader, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Reader.self, throwing: (any Error).self)
        let task = Task {
            do {
                try await self.discover(kind, timeout: timeout) { continuation.yield($0) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// The iPhone's Tap to Pay reader as Tender describes it before Square lists it (it appears in `readers` once
    /// the merchant's Apple account is linked).
    static let tapToPayReaderID = "tap-to-pay"

    private func discover(_ kind: ReaderKind, timeout: Double, yield: (Reader) -> Void) async throws {
        await startObserving()
        let locationID = await client.authorizationManager.location?.id
        func mapped(_ info: Square.ReaderInfo) -> Reader {
            SquareMapping.reader(info, locationID: locationID, isSimulated: configuration.simulatedReaders)
        }
        switch kind {
        case .internet:
            throw PaymentError(.featureUnavailable, recovery: .fixIntegration, phase: .readerConnection,
                               message: "Square has no internet (smart) readers.")
        case .tapToPay:
            guard await client.readerManager.tapToPaySettings.isDeviceCapable else {
                throw Square.TapToPayReaderError.unsupportedDeviceModel.tenderError
            }
            if let listed = await client.readerManager.readers.first(where: { $0.model == .tapToPay }) {
                yield(mapped(listed))
            } else {
                yield(Reader(id: Self.tapToPayReaderID, model: Square.ReaderModel.tapToPay.caseName, kind: .tapToPay,
                             features: Square.ReaderModel.tapToPay.features, locationID: locationID,
                             isSimulated: configuration.simulatedReaders))
            }
        case .usb:
            for info in await client.readerManager.readers where info.model.kind == .usb { yield(mapped(info)) }
        case .bluetooth:
            // Square's pairing names no reader, and a Stand or magstripe reader shows up in the same list: the paired
            // readers are listed (Bluetooth first) and a pairing runs only when there are none.
            var readers = await client.readerManager.readers.filter { $0.model != .tapToPay }
            if readers.isEmpty {
                try await pair(timeout: timeout)
                readers = await client.readerManager.readers.filter { $0.model != .tapToPay }
            }
            for info in readers.sorted(by: { ($0.model.kind == .bluetooth ? 0 : 1) < ($1.model.kind == .bluetooth ? 0 : 1) }) {
                yield(mapped(info))
            }
        }
    }

    /// Pairs the first reader in range, stopping the pairing after `timeout` seconds or when the task is
    /// cancelled; a stop ends the discovery with nothing found, not an error.
    private func pair(timeout: Double) async throws {
        let pairing = PairingDelegateBridge()
        let handle = await client.readerManager.startPairing(with: pairing)
        if handle == nil { pairing.didNotStart() }
        let timer = timeout > 0 ? Task { [clock] in
            try await clock.sleep(seconds: timeout)
            pairing.cancel()
            if let handle { _ = await handle.stop() }
        } : nil
        let outcome = await withTaskCancellationHandler {
            await pairing.outcome()
        } onCancel: {
            pairing.cancel()
            if let handle { Task { _ = await handle.stop() } }
        }
        timer?.cancel()
        guard let error = outcome else { return }
        if error is CancellationError { return }
        throw SquareMapping.pairingError(error)
    }

    /// Makes a reader ready at the authorized location, retrying its connection when it is unavailable. For Tap to
    /// Pay it first links the merchant's Apple account when it is not linked (`linkAppleAccount`, which shows
    /// Apple's terms). A new reader cannot get ready while the device is offline (`notConnectedToInternet` →
    /// ``PaymentError/Code/readerOfflineConnectionRefused``).
    public func connectReader(_ reader: Reader, locationID: String) async throws -> Reader {
        await startObserving()
        guard let location = await client.authorizationManager.location else {
            throw Square.PaymentError.notAuthorized.tenderError.inPhase(.readerConnection)
        }
        guard location.id == locationID else {
            throw PaymentError(.configurationError, recovery: .fixIntegration, phase: .readerConnection,
                               message: "Square is authorized at location \(location.id), not \(locationID).")
        }
        if reader.kind == .tapToPay { try await linkTapToPay() }
        let readers = await client.readerManager.readers
        let found = reader.kind == .tapToPay && reader.id == Self.tapToPayReaderID
            ? readers.first(where: { $0.model == .tapToPay }) : readers.first(where: { String($0.id) == reader.id })
        guard var info = found else {
            throw PaymentError(.readerConnectionFailed, recovery: .reconnectReader, phase: .readerConnection,
                               message: "Square has no paired reader \(reader.id).")
        }
        if info.statusInfo.status != .ready {
            _ = await client.readerManager.retryConnection(info)
            info = await client.readerManager.readers.first(where: { $0.id == info.id }) ?? info
        }
        // A reader whose only trouble is a blocking firmware update is connected: the update shows on the reader,
        // and payments wait for it.
        if info.statusInfo.unavailableReasonInfo?.reason != .blockingFirmwareUpdate,
           let error = SquareMapping.readerError(info.statusInfo) { throw error }
        state.connectedReaderID = info.id
        return SquareMapping.reader(info, locationID: locationID, isSimulated: configuration.simulatedReaders)
    }

    private func linkTapToPay() async throws {
        let settings = client.readerManager.tapToPaySettings
        guard await settings.isDeviceCapable else { throw Square.TapToPayReaderError.unsupportedDeviceModel.tenderError }
        do {
            if try await settings.isAppleAccountLinked() { return }
            try await settings.linkAppleAccount()
        } catch let error as Square.TapToPayReaderError where error != .alreadyLinked {
            throw error.tenderError
        } catch let error as Square.TapToPayReaderError {
            _ = error  // already linked: nothing to do
        }
    }

    /// Square has no "disconnect": the paired readers are forgotten (`forget(_:)`).
    public func disconnectReader() async throws {
        for reader in await client.readerManager.readers { await client.readerManager.forget(reader) }
        state.connectedReaderID = nil
    }

    /// The reader last connected, as Square lists it now (a blocking firmware update is its required update).
    public func connectedReader() async -> Reader? {
        guard let id = state.connectedReaderID,
              let info = await client.readerManager.readers.first(where: { $0.id == id }) else { return nil }
        let locationID = await client.authorizationManager.location?.id
        return SquareMapping.reader(info, locationID: locationID, isSimulated: configuration.simulatedReaders)
    }

    /// Square installs firmware itself (the app cannot start it): this waits until the connected reader's blocking
    /// update is installed, reporting its progress, and throws ``PaymentError/Code/readerUpdateFailed`` when it
    /// fails. Returns at once when nothing is pending.
    public func installReaderUpdate() async throws {
        while true {
            guard let id = state.connectedReaderID,
                  let info = await client.readerManager.readers.first(where: { $0.id == id }) else {
                throw PaymentError(.readerNotConnected, recovery: .reconnectReader, phase: .softwareUpdate,
                                   message: "No reader is connected.")
            }
            if info.firmwareInfo?.updateStatus == .failed {
                let error = PaymentError(.readerUpdateFailed, recovery: .updateReader, phase: .softwareUpdate,
                                         message: "The Square reader's firmware update failed.")
                emitter.emit(.softwareUpdateFinished(error))
                throw error
            }
            guard info.statusInfo.unavailableReasonInfo?.reason == .blockingFirmwareUpdate else {
                emitter.emit(.softwareUpdateFinished(nil))
                return
            }
            emitter.emit(.softwareUpdateProgress(Double(info.firmwareInfo?.updatePercentage ?? 0) / 100))
            try await clock.sleep(seconds: 5)
        }
    }

    /// `rebootReader(_:)` on the connected reader.
    public func rebootReader() async throws {
        guard let id = state.connectedReaderID,
              let info = await client.readerManager.readers.first(where: { $0.id == id }) else {
            throw PaymentError(.readerNotConnected, recovery: .reconnectReader, phase: .readerConnection,
                               message: "No reader is connected.")
        }
        guard info.isRebootable else {
            throw PaymentError(.featureUnavailable, recovery: .none, phase: .readerConnection,
                               message: "This Square reader cannot be rebooted from the app.")
        }
        try await client.readerManager.rebootReader(info)
    }

    /// Square's readers have no screen for a cart.
    public func setReaderDisplay(_ cart: ReaderCart?) async throws {
        throw PaymentError(.featureUnavailable, recovery: .fixRequest, phase: .collection,
                           message: "Square's readers cannot show a cart.")
    }
}
