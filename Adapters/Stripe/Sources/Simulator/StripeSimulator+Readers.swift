import Foundation
import Tender
package import TenderStripe

extension StripeSimulator {
    /// `connectionStatus`.
    package var connectionStatus: Stripe.ConnectionStatus {
        normalize()
        return currentConnectionStatus
    }

    /// `paymentStatus`.
    package var paymentStatus: Stripe.PaymentStatus {
        normalize()
        return currentPaymentStatus
    }

    /// `connectedReader`.
    package var connectedReader: Stripe.Reader? {
        normalize()
        return currentConnectionStatus == .connected ? connection?.reader : nil
    }

    /// `discoverReaders`. Only simulated readers exist here: a discovery that is not `simulated` (the SDK's default,
    /// for real readers) finds none. Bluetooth proximity reports the closest Chipper 2X twice (serial number first,
    /// details after); a scan reports every reader in range. With a timeout a scan or an internet discovery ends at
    /// once in simulated time (`bluetoothScanTimedOut` if nothing was found); without one, and always for proximity
    /// and Tap to Pay (whose configurations have no timeout), it runs until a connection or a cancel.
    package func discoverReaders(_ configuration: Stripe.DiscoveryConfiguration, delegate: any Stripe.DiscoveryDelegate,
                                completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void) -> any Stripe.Cancelable {
        normalize()
        let cancelable = SimulatedCancelable()
        let once = OneShot(completion)
        guard connection == nil else {
            cancelable.markCompleted()
            once.fire(Stripe.ErrorCode(.alreadyConnectedToReader, message: "Already connected to a reader."))
            return cancelable
        }
        if let previous = pendingDiscovery {
            pendingDiscovery = nil
            previous.cancelable.markCompleted()
            previous.completion.fire(nil)
        }
        if configuration.method == .tapToPay, takeReaderFault(.tapToPayUnsupportedDevice) {
            cancelable.markCompleted()
            once.fire(Stripe.ErrorCode(.init("unsupportedMobileDeviceConfiguration"),
                                       message: "This device cannot do Tap to Pay on iPhone."))
            return cancelable
        }
        setConnectionStatus(.discovering)
        let readers = configuration.simulated ? self.configuration.readersInRange : []
        var found: [Stripe.Reader]
        switch configuration.method {
        case .bluetoothProximity:
            found = Array(readers.filter { $0.deviceType == .chipper2X }.prefix(1))
            if let closest = found.first {
                delegate.didUpdateDiscoveredReaders([Stripe.Reader(serialNumber: closest.serialNumber,
                                                                   deviceType: closest.deviceType, simulated: true)])
            }
        case .bluetoothScan:
            found = readers.filter(\.deviceType.isMobileReader)
        case .internet:
            found = readers.filter { !$0.deviceType.isMobileReader && $0.deviceType != .tapToPay }
        case .tapToPay:
            found = readers.filter { $0.deviceType == .tapToPay }
        }
        delegate.didUpdateDiscoveredReaders(found)
        log("discovered \(found.count) reader(s)")
        // Only the Bluetooth scan and internet discovery have a timeout in the SDK (their configurations' `timeout`);
        // proximity and Tap to Pay discovery have none: they run until a connection or a cancellation, whatever the
        // configuration value says.
        if configuration.timeout > 0, configuration.method == .bluetoothScan || configuration.method == .internet {
            setConnectionStatus(.notConnected)
            cancelable.markCompleted()
            once.fire(found.isEmpty
                ? Stripe.ErrorCode(.bluetoothScanTimedOut, message: "Scanning for bluetooth devices timed out.")
                : nil)
        } else {
            pendingDiscovery = PendingDiscovery(cancelable: cancelable, completion: once)
            cancelable.setCancelAction {
                once.fire(nil)
                return nil
            }
        }
        return cancelable
    }

    /// `connectReader(_:connectionConfig:)`. Online it asks the token provider for a session and records the
    /// connection; offline it applies Stripe's rules: the SDK must have connected online, within 30 days,
    /// to a reader of the same type at the same location, and the reader's software must be known to have been
    /// current within 30 days. Required updates install during the connection; optional ones are reported after it.
    package func connectReader(_ reader: Stripe.Reader, connectionConfig: Stripe.BluetoothConnectionConfiguration)
        async throws(Stripe.ErrorCode) -> Stripe.Reader {
        await runDueWork()
        normalize()
        guard connection == nil else {
            throw Stripe.ErrorCode(.alreadyConnectedToReader, message: "Already connected to a reader.")
        }
        guard !connectionConfig.locationId.isEmpty else {
            throw Stripe.ErrorCode(.bluetoothConnectionInvalidLocationIdParameter,
                                   message: "The Bluetooth connection configuration needs a locationId.")
        }
        guard var target = configuration.readersInRange.first(where: { $0.serialNumber == reader.serialNumber }) else {
            throw Stripe.ErrorCode(.bluetoothConnectTimedOut,
                                   message: "Bluetooth connect timed out: reader \(reader.serialNumber) is not in range.")
        }
        let previousStatus = currentConnectionStatus
        setConnectionStatus(.connecting)
        do throws(Stripe.ErrorCode) {
            let online = attemptRequest() == .reached
            if online {
                try await ensureSessionToken()
            } else {
                try checkOfflineConnection(target, locationId: connectionConfig.locationId)
            }
            let delegate = connectionConfig.delegate
            if let required = requiredUpdate(for: target, online: online) {
                try install(required, on: &target, required: true, delegate: delegate)
            }
            if online {
                state.onlineConnections.append(OnlineConnection(
                    serialNumber: target.serialNumber, deviceType: target.deviceType,
                    locationId: connectionConfig.locationId, at: clock.now()))
                if optionalUpdate(for: target) == nil || state.updatedReaders.contains(target.serialNumber) {
                    state.softwareCurrentAt[target.serialNumber] = clock.now()
                }
            }
            target.locationId = connectionConfig.locationId
            if let optional = optionalUpdate(for: target) { target.availableUpdate = optional }
            connection = Connection(reader: target, autoReconnect: connectionConfig.autoReconnectOnUnexpectedDisconnect,
                                    delegate: delegate)
            setConnectionStatus(.connected)
            setPaymentStatus(.ready)
            if let pending = pendingDiscovery {
                pendingDiscovery = nil
                pending.cancelable.markCompleted()
                pending.completion.fire(nil)
            }
            if let update = target.availableUpdate { delegate?.didReportAvailableUpdate(update) }
            delegate?.didReportBatteryLevel(target.batteryLevel ?? 0, status: target.batteryStatus,
                                            isCharging: target.isCharging ?? false)
            // A reader that connects on a low or critical battery warns (`readerDidReportLowBatteryWarning`).
            if target.batteryStatus == .low || target.batteryStatus == .critical, target.isCharging != true {
                delegate?.didReportLowBatteryWarning()
            }
            log("connected \(target.serialNumber) at \(connectionConfig.locationId) (\(online ? "online" : "offline"))")
            return target
        } catch {
            setConnectionStatus(pendingDiscovery == nil ? .notConnected : previousStatus)
            log("connect failed: \(error)")
            throw error
        }
    }

    /// `disconnectReader()`.
    package func disconnectReader() async throws(Stripe.ErrorCode) {
        normalize()
        guard let current = connection else {
            throw Stripe.ErrorCode(.notConnectedToReader, message: "No reader is connected.")
        }
        if let pending = pendingCollection {
            pendingCollection = nil
            pending.cancelable.markCompleted()
            pending.completion.fire((nil, Stripe.ErrorCode(.canceled, message: "The reader was disconnected.")))
        }
        connection = nil
        setConnectionStatus(.notConnected)
        setPaymentStatus(.notReady)
        current.delegate?.didDisconnect(.disconnectRequested)
    }

    /// `rebootReader()`: disconnects with `rebootRequested`; with automatic reconnection on, it reconnects.
    package func rebootReader() async throws(Stripe.ErrorCode) {
        normalize()
        guard connection != nil else {
            throw Stripe.ErrorCode(.notConnectedToReader, message: "No reader is connected.")
        }
        guard currentPaymentStatus == .ready else { throw Stripe.ErrorCode(.readerBusy, message: "The reader is busy.") }
        dropConnection(reason: .rebootRequested)
    }

    /// `installAvailableUpdate()`: installs the reported update, reporting start, progress and the end to the
    /// reader's delegate (an error, or a nil update when there is nothing to install). Seed 004: "the reader's
    /// battery level must be higher than 50%".
    package func installAvailableUpdate() async {
        normalize()
        guard var current = connection else { return }
        guard let update = current.reader.availableUpdate else {
            current.delegate?.didFinishInstallingUpdate(nil, error: nil)
            return
        }
        do throws(Stripe.ErrorCode) {
            try install(update, on: &current.reader, required: false, delegate: current.delegate)
            current.reader.availableUpdate = nil
            state.softwareCurrentAt[current.reader.serialNumber] = clock.now()
        } catch {
            // Reported to the delegate by `install`.
        }
        connection = current
    }

    /// The reader disconnects unexpectedly (out of range, powered off…). A waiting collection fails with
    /// `bluetoothDisconnected`; with automatic reconnection on, reconnection starts and succeeds or fails
    /// (``Stripe/SimulatorConfiguration/reconnectionSucceeds``, or the delegate cancels it).
    package func simulateUnexpectedDisconnect(reason: Stripe.DisconnectReason = .bluetoothSignalLost) {
        normalize()
        guard connection != nil else { return }
        if let pending = pendingCollection {
            pendingCollection = nil
            pending.cancelable.markCompleted()
            pending.completion.fire((nil, Stripe.ErrorCode(
                .bluetoothDisconnected, message: "Bluetooth device was disconnected unexpectedly.")))
            setPaymentStatus(.notReady)
        }
        dropConnection(reason: reason)
    }

    // MARK: - Internals

    private func ensureSessionToken() async throws(Stripe.ErrorCode) {
        guard !hasSessionToken else { return }
        let token: String
        do {
            token = try await tokenProvider.fetchConnectionToken()
        } catch {
            throw Stripe.ErrorCode(.connectionTokenProviderCompletedWithError,
                                   message: "The connection token provider failed: \(error)")
        }
        guard !token.isEmpty else {
            throw Stripe.ErrorCode(.connectionTokenProviderCompletedWithNothing,
                                   message: "The connection token provider returned neither a token nor an error.")
        }
        hasSessionToken = true
    }

    /// Seed 000's connect-while-offline rules. Which `ErrorCode` goes with each of the seed's three messages is an
    /// inference from the reference's descriptions of 9000, 2870/2871, 2872 and 2873.
    private func checkOfflineConnection(_ reader: Stripe.Reader, locationId: String) throws(Stripe.ErrorCode) {
        let now = clock.now()
        let recent = state.onlineConnections.filter { now.timeIntervalSince($0.at) <= Self.offlineWindow }
        guard configuration.offlineEnabled, !recent.isEmpty else {
            throw Stripe.ErrorCode(.notConnectedToInternet, message: "The SDK isn’t connected to the internet")
        }
        let pairedMessage = "The selected reader must be paired online at this location before it can be used to collect payments offline."
        let sameType = recent.filter { $0.deviceType == reader.deviceType }
        guard !sameType.isEmpty else {
            throw Stripe.ErrorCode(.readerConnectionNotAvailableOffline, message: pairedMessage)
        }
        guard sameType.contains(where: { $0.locationId == locationId }) else {
            throw Stripe.ErrorCode(.readerConnectionOfflineLocationMismatch, message: pairedMessage)
        }
        if !configuration.offlinePairingOfUnseenReaders,
           !recent.contains(where: { $0.serialNumber == reader.serialNumber && $0.locationId == locationId }) {
            throw Stripe.ErrorCode(.readerConnectionOfflinePairingUnseenDisabled,
                                   message: "Offline connections to readers never connected online here are disabled.")
        }
        let updateMessage = "The selected reader requires a software update before it can be used to collect payments offline."
        if configuration.testReaderUpdate == .requiredOffline, !state.updatedReaders.contains(reader.serialNumber) {
            throw Stripe.ErrorCode(.readerConnectionOfflineNeedsUpdate, message: updateMessage)
        }
        // Seed 000: "have updated your reader's software within that time". No record of it being current is not
        // proof that it is.
        guard let current = state.softwareCurrentAt[reader.serialNumber],
              now.timeIntervalSince(current) <= Self.offlineWindow else {
            throw Stripe.ErrorCode(.readerConnectionOfflineNeedsUpdate, message: updateMessage)
        }
    }

    private func testUpdate(for reader: Stripe.Reader) -> Stripe.ReaderSoftwareUpdate? {
        guard configuration.testReaderUpdate != .none, !state.updatedReaders.contains(reader.serialNumber) else {
            return nil
        }
        let reportedAt = optionalUpdateReportedAt[reader.serialNumber] ?? clock.now()
        let required = configuration.testReaderUpdate != .available
        return Stripe.ReaderSoftwareUpdate(
            deviceSoftwareVersion: (reader.deviceSoftwareVersion ?? "0") + ".1",
            durationEstimate: required ? .estimate1To2Minutes : .estimateLessThan1Minute,
            requiredAt: required ? clock.now() : reportedAt.addingTimeInterval(Self.optionalUpdateGrace))
    }

    private func requiredUpdate(for reader: Stripe.Reader, online: Bool) -> Stripe.ReaderSoftwareUpdate? {
        guard let update = testUpdate(for: reader) else { return nil }
        if configuration.testReaderUpdate == .requiredOffline { return online ? update : nil }
        return update.requiredAt <= clock.now() ? update : nil
    }

    private func optionalUpdate(for reader: Stripe.Reader) -> Stripe.ReaderSoftwareUpdate? {
        guard configuration.testReaderUpdate == .available, let update = testUpdate(for: reader),
              update.requiredAt > clock.now() else { return nil }
        if optionalUpdateReportedAt[reader.serialNumber] == nil { optionalUpdateReportedAt[reader.serialNumber] = clock.now() }
        return update
    }

    private func install(_ update: Stripe.ReaderSoftwareUpdate, on reader: inout Stripe.Reader, required: Bool,
                         delegate: (any Stripe.MobileReaderDelegate)?) throws(Stripe.ErrorCode) {
        let cancelable = SimulatedCancelable()
        delegate?.didStartInstallingUpdate(update, cancelable: cancelable)
        let testType = configuration.testReaderUpdate
        let battery = testType == .lowBattery || testType == .lowBatterySucceedConnect ? 0.3 : (reader.batteryLevel ?? 1)
        if battery <= 0.5 {
            cancelable.markCompleted()
            let error = Stripe.ErrorCode(.readerSoftwareUpdateFailedBatteryLow,
                                         message: "The reader's battery must be higher than 50% to install the update.")
            delegate?.didFinishInstallingUpdate(update, error: error)
            // Seed 004: a failed required update still connects if the reader ran the latest software within
            // 30 days; `lowBatterySucceedConnect` simulates exactly that.
            let recent = state.softwareCurrentAt[reader.serialNumber].map {
                clock.now().timeIntervalSince($0) <= Self.offlineWindow } ?? false
            if required, testType == .lowBatterySucceedConnect || (testType != .lowBattery && recent) { return }
            throw error
        }
        for progress: Float in [0.25, 0.5, 0.75, 1.0] {
            if cancelable.isCanceled {
                cancelable.markCompleted()
                let canceled = Stripe.ErrorCode(.canceled, message: "The update was canceled.")
                delegate?.didFinishInstallingUpdate(update, error: canceled)
                if required {
                    throw Stripe.ErrorCode(.unsupportedReaderVersion,
                                           message: "The required update was canceled; the reader cannot be used.")
                }
                throw canceled
            }
            delegate?.didReportReaderSoftwareUpdateProgress(progress)
        }
        cancelable.markCompleted()
        reader.deviceSoftwareVersion = update.deviceSoftwareVersion
        state.updatedReaders.insert(reader.serialNumber)
        state.softwareCurrentAt[reader.serialNumber] = clock.now()
        delegate?.didFinishInstallingUpdate(update, error: nil)
        log("installed \(update.deviceSoftwareVersion) on \(reader.serialNumber)")
    }

    func dropConnection(reason: Stripe.DisconnectReason) {
        guard let current = connection else { return }
        let delegate = current.delegate
        setPaymentStatus(.notReady)
        if current.autoReconnect {
            setConnectionStatus(.reconnecting)
            let cancelable = SimulatedCancelable()
            delegate?.didStartReconnect(cancelable, disconnectReason: reason)
            let inRange = configuration.readersInRange.contains { $0.serialNumber == current.reader.serialNumber }
            let canceled = cancelable.isCanceled
            cancelable.markCompleted()
            if !canceled, configuration.reconnectionSucceeds, inRange {
                setConnectionStatus(.connected)
                setPaymentStatus(.ready)
                delegate?.didSucceedReconnect()
                return
            }
            connection = nil
            setConnectionStatus(.notConnected)
            delegate?.didFailReconnect()
            delegate?.didDisconnect(reason)
        } else {
            connection = nil
            setConnectionStatus(.notConnected)
            delegate?.didDisconnect(reason)
        }
    }
}
