import Foundation
import Tender
package import TenderStripe
package import TenderTesting

/// The simulator's state for the other reader kinds: reader faults waiting for the operation they apply to, and
/// what a smart reader's screen shows.
struct ReaderKindState {
    var faults: [ReaderFault] = []
    var displayedCart: Stripe.Cart?
    /// Whether the account accepted Apple's Tap to Pay terms (once, during a connection that permits it).
    var tapToPayTermsAccepted = false
}

extension StripeSimulator {
    /// Makes a reader fault happen to the next operation it applies to: the next Tap to Pay discovery fails on an
    /// unsupported device (`unsupportedMobileDeviceConfiguration`, 2910); the next Tap to Pay connection cannot get
    /// the terms accepted (`tapToPayReaderTOSAcceptanceFailed`, 3940, or 3930 when acceptance is not permitted);
    /// the next smart reader connection times out on the local network (`internetConnectTimeOut`, 3870); an update
    /// becomes required: on the connected reader at once (its `availableUpdate` is due now, reported to its
    /// delegate, and it takes no payment until installed), or during the next connection (`testReaderUpdate`
    /// `required`).
    package func injectReaderFault(_ fault: ReaderFault) {
        normalize()
        guard fault == .updateRequired else { return readerKinds.faults.append(fault) }
        guard var current = connection else {
            configuration.testReaderUpdate = .required
            return
        }
        let update = Stripe.ReaderSoftwareUpdate(
            deviceSoftwareVersion: (current.reader.deviceSoftwareVersion ?? "0") + ".1",
            durationEstimate: .estimate1To2Minutes, requiredAt: clock.now())
        current.reader.availableUpdate = update
        connection = current
        current.delegate?.didReportAvailableUpdate(update)
    }

    /// Takes one waiting fault.
    func takeReaderFault(_ fault: ReaderFault) -> Bool {
        guard let index = readerKinds.faults.firstIndex(of: fault) else { return false }
        readerKinds.faults.remove(at: index)
        return true
    }

    /// `connectReader(_:connectionConfig:)` for Tap to Pay: Apple's terms are accepted during the first connection
    /// that permits it; then the same rules as a mobile reader (location, online session or the offline rules,
    /// required updates).
    package func connectReader(_ reader: Stripe.Reader, connectionConfig: Stripe.TapToPayConnectionConfiguration)
        async throws -> Stripe.Reader {
        normalize()
        guard reader.deviceType == .tapToPay else {
            throw Stripe.ErrorCode(.init("invalidConnectionConfiguration"),
                                   message: "A Tap to Pay configuration connects only the Tap to Pay reader.")
        }
        if takeReaderFault(.tapToPayNotLinked) {
            readerKinds.tapToPayTermsAccepted = false
            throw connectionConfig.tosAcceptancePermitted
                ? Stripe.ErrorCode(.init("tapToPayReaderTOSAcceptanceFailed"),
                                   message: "Tap to Pay terms of service acceptance failed for the signed-in Apple ID.")
                : Stripe.ErrorCode(.init("tapToPayReaderTOSNotYetAccepted"),
                                   message: "The Tap to Pay terms of service are not accepted yet.")
        }
        if !readerKinds.tapToPayTermsAccepted {
            guard connectionConfig.tosAcceptancePermitted else {
                throw Stripe.ErrorCode(.init("tapToPayReaderTOSNotYetAccepted"),
                                       message: "The Tap to Pay terms of service are not accepted yet.")
            }
            readerKinds.tapToPayTermsAccepted = true
            log("Tap to Pay terms accepted")
            connectionConfig.delegate?.didAcceptTermsOfService()
        }
        return try await connectReader(reader, connectionConfig: Stripe.BluetoothConnectionConfiguration(
            locationId: connectionConfig.locationId,
            autoReconnectOnUnexpectedDisconnect: connectionConfig.autoReconnectOnUnexpectedDisconnect,
            delegate: connectionConfig.delegate.map { KindReaderDelegate($0, kind: .tapToPay) }))
    }

    /// `connectReader(_:connectionConfig:)` for a smart reader, at the location it is registered to, over the local
    /// network (a reader the network cannot reach fails with 3870). Offline it follows seed 000: an online connection
    /// to a reader of the same type at the same location within 30 days. Smart readers do not reconnect on their own.
    package func connectReader(_ reader: Stripe.Reader, connectionConfig: Stripe.InternetConnectionConfiguration)
        async throws -> Stripe.Reader {
        normalize()
        guard reader.deviceType.kind == .internet else {
            throw Stripe.ErrorCode(.init("invalidConnectionConfiguration"),
                                   message: "An internet configuration connects only smart readers.")
        }
        if takeReaderFault(.internetReaderUnreachable) {
            throw Stripe.ErrorCode(.init("internetConnectTimeOut"),
                                   message: "Connecting to the smart reader timed out: is it on the same local network?")
        }
        let location = configuration.readersInRange.first { $0.serialNumber == reader.serialNumber }?.locationId
            ?? configuration.smartReaderLocationId ?? Stripe.SimulatorConfiguration.defaultSmartReaderLocationId
        return try await connectReader(reader, connectionConfig: Stripe.BluetoothConnectionConfiguration(
            locationId: location, autoReconnectOnUnexpectedDisconnect: false,
            delegate: connectionConfig.delegate.map { KindReaderDelegate($0, kind: .internet) }))
    }

    /// `setReaderDisplay(_:completion:)`: a smart reader shows the cart; other readers refuse (1880).
    package func setReaderDisplay(_ cart: Stripe.Cart) async throws {
        normalize()
        guard let current = connection else {
            throw Stripe.ErrorCode(.notConnectedToReader, message: "No reader is connected.")
        }
        guard current.reader.deviceType.kind == .internet else {
            throw Stripe.ErrorCode(.init("featureNotAvailableWithConnectedReader"),
                                   message: "setReaderDisplay is available on smart readers only.")
        }
        readerKinds.displayedCart = cart
        log("showing a cart of \(cart.lineItems.count) line(s), total \(cart.total)")
    }

    /// `clearReaderDisplay(_:)`.
    package func clearReaderDisplay() async throws {
        normalize()
        guard connection != nil else { throw Stripe.ErrorCode(.notConnectedToReader, message: "No reader is connected.") }
        readerKinds.displayedCart = nil
    }

    /// What the smart reader shows now.
    package var displayedCart: Stripe.Cart? { readerKinds.displayedCart }

    /// Whether a discovery is running (not finished, canceled or timed out).
    package var isDiscovering: Bool {
        normalize()
        return pendingDiscovery != nil
    }
}

/// A reader delegate as the SDK calls it for a reader kind: the SDK's `TapToPayReaderDelegate` has no battery, reader
/// event, available-update or low-battery callbacks (Apple's reader configuration installs during the connection),
/// and its `InternetReaderDelegate` has only the disconnect and reconnection callbacks (a smart reader prompts the
/// customer on its own screen). The simulator reports to a connection's delegate through this, so that it tells an
/// adapter no more than the SDK would.
struct KindReaderDelegate: Stripe.MobileReaderDelegate {
    let base: any Stripe.MobileReaderDelegate
    let kind: ReaderKind

    init(_ base: any Stripe.MobileReaderDelegate, kind: ReaderKind) {
        self.base = base
        self.kind = kind
    }

    private var prompts: Bool { kind != .internet }
    private var mobile: Bool { kind == .bluetooth || kind == .usb }

    func didReportAvailableUpdate(_ update: Stripe.ReaderSoftwareUpdate) {
        if mobile { base.didReportAvailableUpdate(update) }
    }
    func didStartInstallingUpdate(_ update: Stripe.ReaderSoftwareUpdate, cancelable: (any Stripe.Cancelable)?) {
        if prompts { base.didStartInstallingUpdate(update, cancelable: cancelable) }
    }
    func didReportReaderSoftwareUpdateProgress(_ progress: Float) {
        if prompts { base.didReportReaderSoftwareUpdateProgress(progress) }
    }
    func didFinishInstallingUpdate(_ update: Stripe.ReaderSoftwareUpdate?, error: Stripe.ErrorCode?) {
        if prompts { base.didFinishInstallingUpdate(update, error: error) }
    }
    func didRequestReaderInput(_ inputOptions: Stripe.ReaderInputOptions) {
        if prompts { base.didRequestReaderInput(inputOptions) }
    }
    func didRequestReaderDisplayMessage(_ displayMessage: Stripe.ReaderDisplayMessage) {
        if prompts { base.didRequestReaderDisplayMessage(displayMessage) }
    }
    func didReportReaderEvent(_ event: Stripe.ReaderEvent) {
        if mobile { base.didReportReaderEvent(event) }
    }
    func didReportBatteryLevel(_ batteryLevel: Float, status: Stripe.BatteryStatus, isCharging: Bool) {
        if mobile { base.didReportBatteryLevel(batteryLevel, status: status, isCharging: isCharging) }
    }
    func didReportLowBatteryWarning() {
        if mobile { base.didReportLowBatteryWarning() }
    }
    func didAcceptTermsOfService() {
        if kind == .tapToPay { base.didAcceptTermsOfService() }
    }
    func didDisconnect(_ reason: Stripe.DisconnectReason) { base.didDisconnect(reason) }
    func didStartReconnect(_ cancelable: any Stripe.Cancelable, disconnectReason: Stripe.DisconnectReason) {
        base.didStartReconnect(cancelable, disconnectReason: disconnectReason)
    }
    func didSucceedReconnect() { base.didSucceedReconnect() }
    func didFailReconnect() { base.didFailReconnect() }
}
