import Foundation
import Tender
package import TenderSquare

extension SquareSimulator {
    /// Square's `PairingHandle` for a simulated pairing (which completes at once: see ``startPairing(with:)``).
    package struct PairingHandle: Square.PairingHandle {
        /// Stops the pairing; `false`, since a simulated pairing has always finished by the time it returns.
        package func stop() async -> Bool { false }
    }

    // MARK: ReaderManager

    /// The paired readers. The offline window and the device cap are applied first: past them, readers stop.
    package var readers: [Square.ReaderInfo] {
        enforceOfflineLimits()
        progressFirmwareUpdates()
        return store.readers.map(\.info)
    }

    /// Whether a pairing is running (never, between calls: a simulated pairing completes inside
    /// ``startPairing(with:)``).
    package var isPairingInProgress: Bool { pairingDelegate != nil }

    /// Adds a reader observer.
    package func add(_ observer: any Square.ReaderObserver) { readerObservers.append(observer) }

    /// Removes a reader observer.
    package func remove(_ observer: any Square.ReaderObserver) { readerObservers.removeAll { $0 === observer } }

    /// Pairs the first reader in range: `readerPairingDidBegin`, then `readerPairingDidSucceed` (no reader in the
    /// callback; the reader appears in ``readers`` and through `readerWasAdded`), or `readerPairingDidFail`. A
    /// reader that has never connected online cannot get ready offline (`readerUnavailable` /
    /// `notConnectedToInternet`). With no reader in range the SDK times out after a minute; the simulator reports
    /// the timeout at once.
    package func startPairing(with delegate: any Square.ReaderPairingDelegate) async -> (any Square.PairingHandle)? {
        guard pairingDelegate == nil else {
            delegate.readerPairingDidFail(with: Square.ReaderPairingError.readerAlreadyPairing)
            return nil
        }
        guard let seller = authorized?.seller else {
            delegate.readerPairingDidFail(with: Square.ReaderPairingError.notAuthorized)
            return nil
        }
        if seller.environment == .sandbox {
            delegate.readerPairingDidFail(with: Square.ReaderPairingError.sandboxNotSupported)
            return nil
        }
        pairingDelegate = delegate
        defer { pairingDelegate = nil }
        delegate.readerPairingDidBegin()
        guard !store.nearbyReaders.isEmpty else {
            delegate.readerPairingDidFail(with: Square.ReaderPairingError.timedOut)
            return PairingHandle()
        }
        var info = store.nearbyReaders.removeFirst()
        let online = requestReachesSquare()
        info.statusInfo = online ? .ready : Square.ReaderStatusInfo(status: .readerUnavailable,
                                                                     unavailableReason: .notConnectedToInternet)
        store.readers.append(SimulatedReader(info: info, hasConnectedOnline: online))
        for observer in readerObservers { observer.readerWasAdded(info) }
        announceInputMethods()
        delegate.readerPairingDidSucceed()
        return PairingHandle()
    }

    /// Retries a reader's connection: it gets ready unless it is updating, or is new and the device is offline.
    package func retryConnection(_ readerInfo: Square.ReaderInfo) async -> Square.RetryConnectionResult {
        guard let index = store.readers.firstIndex(where: { $0.info.id == readerInfo.id }) else { return .readerNotFound }
        let info = store.readers[index].info
        if info.statusInfo.status == .connectingToSquare { return .readerAlreadyConnectingToSquare }
        if info.statusInfo.unavailableReasonInfo?.reason == .blockingFirmwareUpdate || info.statusInfo.status == .faulty {
            return .unableToRetry
        }
        let online = network.reportedStatus == .online && requestReachesSquare()
        guard online || (store.readers[index].hasConnectedOnline && !offlineLimitsReached()) else {
            setReaderStatus(readerInfo.id, .readerUnavailable, reason: .notConnectedToInternet)
            return .startingReconnection
        }
        if online { store.readers[index].hasConnectedOnline = true }
        setReaderStatus(readerInfo.id, .ready)
        return .startingReconnection
    }

    /// Forgets a reader.
    package func forget(_ readerInfo: Square.ReaderInfo) async {
        guard let index = store.readers.firstIndex(where: { $0.info.id == readerInfo.id }) else { return }
        let removed = store.readers.remove(at: index)
        for observer in readerObservers { observer.readerWasRemoved(removed.info) }
        announceInputMethods()
    }

    // MARK: Test controls

    /// Puts a reader in range, to be paired by ``startPairing(with:)``; `isRebootable`: whether `rebootReader(_:)`
    /// works on it (Square does not say which models are, so a test chooses).
    @discardableResult
    package func addNearbyReader(model: Square.ReaderModel = .contactlessAndChip, batteryPercentage: UInt = 80,
                                 isRebootable: Bool = false) -> Square.ReaderInfo {
        let id = store.nextReaderID
        store.nextReaderID += 1
        let methods: Square.CardInputMethods = model == .magstripe ? [.swipe] : [.chip, .contactless, .swipe]
        let info = Square.ReaderInfo(
            id: id, name: "Square Reader \(id)", serialNumber: "SQR-\(1000 + id)", model: model,
            supportedInputMethods: methods, firmwareInfo: Square.ReaderFirmwareInfo(version: "2.5.0"),
            statusInfo: Square.ReaderStatusInfo(status: .connectingToDevice),
            batteryStatus: Square.ReaderBatteryStatus(isCharging: false, percentage: batteryPercentage),
            cardInsertionStatus: model == .magstripe ? .unknown : .notInserted, isRebootable: isRebootable)
        store.nearbyReaders.append(info)
        return info
    }

    /// Sets a reader's status and tells the observers (`readerStatusDidChange`).
    package func setReaderStatus(_ readerID: UInt, _ status: Square.ReaderStatus,
                                reason: Square.ReaderUnavailableReason? = nil) {
        updateReader(readerID, change: .readerStatusDidChange) {
            $0.statusInfo = Square.ReaderStatusInfo(status: status, unavailableReason: reason)
        }
    }

    /// The first ready reader becomes unavailable for `reason`. A payment waiting for a card then fails with
    /// `timedOut`, the SDK's payment timeout, with nothing charged: how the SDK reports a reader lost mid-payment
    /// is unverified.
    package func disconnectReader(reason: Square.ReaderUnavailableReason = .bluetoothFailure) {
        guard let reader = store.readers.first(where: { $0.info.statusInfo.status == .ready }) else { return }
        setReaderStatus(reader.info.id, .readerUnavailable, reason: reason)
        if current != nil { failCurrent(.timedOut, outcome: .ended) }
    }

    /// Sets the battery of a reader and tells the observers.
    package func setBattery(_ readerID: UInt, percentage: UInt, isCharging: Bool) {
        let wasCharging = store.readers.first { $0.info.id == readerID }?.info.batteryStatus?.isCharging
        let change: Square.ReaderChange = wasCharging == isCharging ? .batteryLevelDidChange
            : (isCharging ? .batteryDidBeginCharging : .batteryDidEndCharging)
        updateReader(readerID, change: change) {
            $0.batteryStatus = Square.ReaderBatteryStatus(isCharging: isCharging, percentage: percentage)
        }
    }

    /// Announces a firmware update (`firmwareUpdateStatusDidChange`: none → pending); a blocking one makes the
    /// reader unavailable (`blockingFirmwareUpdate`) until it finishes.
    package func announceFirmwareUpdate(_ readerID: UInt, blocking: Bool) {
        if blocking { setReaderStatus(readerID, .readerUnavailable, reason: .blockingFirmwareUpdate) }
        updateReader(readerID, change: .firmwareUpdateStatusDidChange) { $0.firmwareInfo?.updateStatus = .pending }
    }

    /// Moves a firmware update to `percent`; at 100 the reader installs it and becomes ready.
    package func advanceFirmwareUpdate(_ readerID: UInt, toPercent percent: UInt) {
        updateReader(readerID, change: .firmwareUpdatePercentDidChange) {
            $0.firmwareInfo?.updateStatus = .inProgress
            $0.firmwareInfo?.updatePercentage = min(100, percent)
        }
        guard percent >= 100 else { return }
        updateReader(readerID, change: .firmwareUpdateStatusDidChange) {
            $0.firmwareInfo = Square.ReaderFirmwareInfo(version: "2.5.1")
        }
        setReaderStatus(readerID, .ready)
    }

    /// Fails a blocking firmware update (`firmwareUpdateDidFail`); the reader stays unavailable.
    package func failFirmwareUpdate(_ readerID: UInt) {
        updateReader(readerID, change: .firmwareUpdateDidFail) {
            $0.firmwareInfo?.updateStatus = .failed
            $0.firmwareInfo?.failureReason = "firmwareFailure"
        }
    }

    /// Changes a paired reader and tells the observers.
    func updateReader(_ readerID: UInt, change: Square.ReaderChange, _ body: (inout Square.ReaderInfo) -> Void) {
        guard let index = store.readers.firstIndex(where: { $0.info.id == readerID }) else { return }
        body(&store.readers[index].info)
        let info = store.readers[index].info
        for observer in readerObservers { observer.readerDidChange(info, change: change) }
        if change == .readerStatusDidChange { announceInputMethods() }
    }

    /// Whether a paired reader is ready.
    var hasReadyReader: Bool { store.readers.contains { $0.info.statusInfo.status == .ready } }
}
