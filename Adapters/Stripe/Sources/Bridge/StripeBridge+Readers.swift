#if TENDER_SURFACE_MIRROR
import StripeTerminalSurface
#elseif StripeTerminalSDK
import StripeTerminal
#endif

#if StripeTerminalSDK || TENDER_SURFACE_MIRROR
import Foundation
import class Tender.CallbackResult
package import TenderStripe

extension StripeTerminalBridge {
    // MARK: Discovery and connection

    /// `discoverReaders(_:delegate:completion:)` with the configuration built by the SDK's builder for its method
    /// (`BluetoothScanDiscoveryConfigurationBuilder` with `setSimulated(_:)` and `setTimeout(_:)`,
    /// `BluetoothProximityDiscoveryConfigurationBuilder`, `InternetDiscoveryConfigurationBuilder` with
    /// `setSimulated(_:)` and `setTimeout(_:)` (the list-readers request's), or
    /// `TapToPayDiscoveryConfigurationBuilder`, which has no timeout). A builder's error completes at once with the
    /// error, without discovering.
    package func discoverReaders(_ configuration: Stripe.DiscoveryConfiguration, delegate: any Stripe.DiscoveryDelegate,
                                completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void) async
        -> any Stripe.Cancelable {
        await startDiscovery(configuration, delegate: delegate, completion: completion)
    }

    @MainActor private func startDiscovery(_ configuration: Stripe.DiscoveryConfiguration,
                                           delegate: any Stripe.DiscoveryDelegate,
                                           completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void)
        -> any Stripe.Cancelable {
        let registry = registry
        let sdkConfiguration: any DiscoveryConfiguration
        do {
            sdkConfiguration = try Self.discoveryConfiguration(configuration)
        } catch {
            completion(StripeBridgeErrors.translate(error, registry: registry))
            return StripeBridgeRefusal()
        }
        let observer = StripeDiscoveryObserver(forwardingTo: delegate, registry: registry)
        activeObservers.withLock { $0.discovery = observer }
        let active = activeObservers
        let cancelable = terminal.discoverReaders(sdkConfiguration, delegate: observer) { @Sendable error in
            active.withLock { if $0.discovery === observer { $0.discovery = nil } }
            completion(error.map { StripeBridgeErrors.translate($0, registry: registry) })
        }
        return StripeBridgeCancelable(cancelable, registry: registry)
    }

    /// The SDK's discovery configuration for `configuration`, from its builder (`build()` throws).
    @MainActor static func discoveryConfiguration(_ configuration: Stripe.DiscoveryConfiguration) throws
        -> any DiscoveryConfiguration {
        switch configuration.method {
        case .bluetoothScan:
            return try BluetoothScanDiscoveryConfigurationBuilder()
                .setSimulated(configuration.simulated).setTimeout(configuration.timeout).build()
        case .bluetoothProximity:
            return try BluetoothProximityDiscoveryConfigurationBuilder().setSimulated(configuration.simulated).build()
        case .internet:
            return try InternetDiscoveryConfigurationBuilder()
                .setSimulated(configuration.simulated).setTimeout(configuration.timeout).build()
        case .tapToPay:
            return try TapToPayDiscoveryConfigurationBuilder().setSimulated(configuration.simulated).build()
        }
    }

    /// `connectReader(_:connectionConfig:completion:)` with the SDK's reader object of the last discovery (by serial
    /// number) and a `BluetoothConnectionConfigurationBuilder(delegate:locationId:)` configuration whose delegate
    /// forwards to `connectionConfig.delegate` (held by the bridge until the next connection). A serial number no
    /// discovery reported is refused (`invalidRequiredParameter`) without calling the SDK; a builder's error is thrown.
    package func connectReader(_ reader: Stripe.Reader, connectionConfig: Stripe.BluetoothConnectionConfiguration) async
        throws(Stripe.ErrorCode) -> Stripe.Reader {
        let answer = CallbackResult<Result<Stripe.Reader, Stripe.ErrorCode>>()
        await startConnection(reader, connectionConfig: connectionConfig, answer: answer)
        return try await answer.value.get()
    }

    @MainActor private func startConnection(_ reader: Stripe.Reader,
                                            connectionConfig: Stripe.BluetoothConnectionConfiguration,
                                            answer: CallbackResult<Result<Stripe.Reader, Stripe.ErrorCode>>) {
        let observer = StripeReaderObserver(forwardingTo: connectionConfig.delegate, registry: registry)
        startConnection(reader, observer: observer, answer: answer) {
            try BluetoothConnectionConfigurationBuilder(delegate: observer, locationId: connectionConfig.locationId)
                .setAutoReconnectOnUnexpectedDisconnect(connectionConfig.autoReconnectOnUnexpectedDisconnect)
                .build()
        }
    }

    /// `connectReader(_:connectionConfig:completion:)` for the SDK's reader object of the last discovery (by serial
    /// number) with the configuration `build` makes, whose delegate is `observer` (held by the bridge until the next
    /// connection, as the SDK holds it weakly). A serial number no discovery reported is refused
    /// (`invalidRequiredParameter`) without calling the SDK; a builder's error is the answer.
    @MainActor func startConnection(_ reader: Stripe.Reader, observer: any ReaderDelegate & Sendable,
                                    answer: CallbackResult<Result<Stripe.Reader, Stripe.ErrorCode>>,
                                    build: () throws -> ConnectionConfiguration) {
        let registry = registry
        guard let object = registry.reader(serialNumber: reader.serialNumber) else {
            let refusal = StripeBridgeErrors.sdkError(
                .invalidRequiredParameter,
                "Reader \(reader.serialNumber) was not reported by a discovery: discover readers before connecting.")
            return answer.resume(.failure(StripeBridgeErrors.translate(refusal, registry: registry)))
        }
        let configuration: ConnectionConfiguration
        do {
            configuration = try build()
        } catch {
            return answer.resume(.failure(StripeBridgeErrors.translate(error, registry: registry)))
        }
        // The SDK holds the configuration's delegate weakly: the bridge keeps it for the connection's lifetime.
        activeObservers.withLock { $0.reader = observer }
        terminal.connectReader(object, connectionConfig: configuration) { @Sendable connected, error in
            if let connected {
                registry.register(connected)
                if let value = Self.value(of: connected) { return answer.resume(.success(value)) }
            }
            let failure = error ?? StripeBridgeErrors.sdkError(
                .unexpectedSdkError, "connectReader completed without a reader this bridge can describe.")
            answer.resume(.failure(StripeBridgeErrors.translate(failure, registry: registry)))
        }
    }

    /// `disconnectReader(_:)`.
    package func disconnectReader() async throws(Stripe.ErrorCode) {
        let answer = CallbackResult<Stripe.ErrorCode?>()
        await startDisconnect(answer)
        if let error = await answer.value { throw error }
    }

    @MainActor private func startDisconnect(_ answer: CallbackResult<Stripe.ErrorCode?>) {
        let registry = registry
        terminal.disconnectReader { @Sendable error in
            answer.resume(error.map { StripeBridgeErrors.translate($0, registry: registry) })
        }
    }

    /// `rebootReader(_:)`.
    package func rebootReader() async throws(Stripe.ErrorCode) {
        let answer = CallbackResult<Stripe.ErrorCode?>()
        await startReboot(answer)
        if let error = await answer.value { throw error }
    }

    @MainActor private func startReboot(_ answer: CallbackResult<Stripe.ErrorCode?>) {
        let registry = registry
        terminal.rebootReader { @Sendable error in
            answer.resume(error.map { StripeBridgeErrors.translate($0, registry: registry) })
        }
    }

    /// `installAvailableUpdate()`: progress and the outcome go to the connection's reader delegate.
    package func installAvailableUpdate() async { await startUpdate() }

    @MainActor private func startUpdate() { terminal.installAvailableUpdate() }

    // MARK: Reader values

    /// An SDK reader as the adapter's value; nil for a device type newer than this bridge (the adapter cannot
    /// describe it). The boxed `batteryLevel` (`Float`) and `isCharging` (`BOOL`) are unboxed.
    static func value(of reader: Reader) -> Stripe.Reader? {
        guard let deviceType = value(of: reader.deviceType) else { return nil }
        return Stripe.Reader(serialNumber: reader.serialNumber, deviceType: deviceType,
                             deviceSoftwareVersion: reader.deviceSoftwareVersion,
                             batteryLevel: reader.batteryLevel?.floatValue, batteryStatus: value(of: reader.batteryStatus),
                             isCharging: reader.isCharging?.boolValue, locationId: reader.locationId,
                             availableUpdate: reader.availableUpdate.map(value(of:)), simulated: reader.simulated)
    }

    /// `ReaderSoftwareUpdate` as the adapter's value.
    static func value(of update: ReaderSoftwareUpdate) -> Stripe.ReaderSoftwareUpdate {
        let estimate: Stripe.UpdateTimeEstimate = switch update.durationEstimate {
        case .estimateLessThan1Minute: .estimateLessThan1Minute
        case .estimate1To2Minutes: .estimate1To2Minutes
        case .estimate2To5Minutes: .estimate2To5Minutes
        case .estimate5To15Minutes: .estimate5To15Minutes
        // A newer SDK's estimate: the longest one this bridge knows.
        @unknown default: .estimate5To15Minutes
        }
        return Stripe.ReaderSoftwareUpdate(deviceSoftwareVersion: update.deviceSoftwareVersion, durationEstimate: estimate,
                                           requiredAt: update.requiredAt, isTestUpdate: update.isTestUpdate)
    }

    /// `DeviceType` by case; nil for a case a newer SDK adds.
    static func value(of type: DeviceType) -> Stripe.DeviceType? {
        switch type {
        case .chipper2X: .chipper2X
        case .wisePad3: .wisePad3
        case .stripeM2: .stripeM2
        case .stripeU200: .stripeU200
        case .wisePosE: .wisePosE
        case .wisePosEDevKit: .wisePosEDevKit
        case .etna: .etna
        case .chipper1X: .chipper1X
        case .wiseCube: .wiseCube
        case .stripeS700: .stripeS700
        case .stripeS700DevKit: .stripeS700DevKit
        case .stripeS710: .stripeS710
        case .stripeS710DevKit: .stripeS710DevKit
        case .verifoneV660p: .verifoneV660p
        case .verifoneV660pDevKit: .verifoneV660pDevKit
        case .verifoneM425: .verifoneM425
        case .verifoneM450: .verifoneM450
        case .verifoneP630: .verifoneP630
        case .verifoneUX700: .verifoneUX700
        case .verifoneUX700DevKit: .verifoneUX700DevKit
        case .verifoneVM100: .verifoneVM100
        case .verifoneVP100: .verifoneVP100
        case .verifoneVL110: .verifoneVL110
        case .verifoneVM110: .verifoneVM110
        case .verifoneVP110: .verifoneVP110
        case .tapToPay: .tapToPay
        case .stripeT600: .stripeT600
        case .stripeT600DevKit: .stripeT600DevKit
        case .stripeT610: .stripeT610
        case .stripeT610DevKit: .stripeT610DevKit
        @unknown default: nil
        }
    }

    /// `BatteryStatus` by case (a newer SDK's status is unknown).
    static func value(of status: BatteryStatus) -> Stripe.BatteryStatus {
        switch status {
        case .unknown: .unknown
        case .critical: .critical
        case .low: .low
        case .nominal: .nominal
        @unknown default: .unknown
        }
    }

    /// `ReaderInputOptions`, option by option (the bits are the SDK's own; the adapter's are its own).
    static func value(of options: ReaderInputOptions) -> Stripe.ReaderInputOptions {
        var value: Stripe.ReaderInputOptions = []
        if options.contains(.swipeCard) { value.insert(.swipeCard) }
        if options.contains(.insertCard) { value.insert(.insertCard) }
        if options.contains(.tapCard) { value.insert(.tapCard) }
        return value
    }

    /// `ReaderDisplayMessage` by case; nil (not forwarded) for a case a newer SDK adds.
    static func value(of message: ReaderDisplayMessage) -> Stripe.ReaderDisplayMessage? {
        switch message {
        case .retryCard: .retryCard
        case .insertCard: .insertCard
        case .insertOrSwipeCard: .insertOrSwipeCard
        case .swipeCard: .swipeCard
        case .removeCard: .removeCard
        case .multipleContactlessCardsDetected: .multipleContactlessCardsDetected
        case .tryAnotherReadMethod: .tryAnotherReadMethod
        case .tryAnotherCard: .tryAnotherCard
        case .cardRemovedTooEarly: .cardRemovedTooEarly
        @unknown default: nil
        }
    }

    /// `ReaderEvent` by case; nil (not forwarded) for a case a newer SDK adds.
    static func value(of event: ReaderEvent) -> Stripe.ReaderEvent? {
        switch event {
        case .cardInserted: .cardInserted
        case .cardRemoved: .cardRemoved
        @unknown default: nil
        }
    }

    /// `DisconnectReason` by case (a newer SDK's reason is `unknown`, the SDK's own "unexpected").
    static func value(of reason: DisconnectReason) -> Stripe.DisconnectReason {
        switch reason {
        case .unknown: .unknown
        case .disconnectRequested: .disconnectRequested
        case .rebootRequested: .rebootRequested
        case .securityReboot: .securityReboot
        case .criticallyLowBattery: .criticallyLowBattery
        case .poweredOff: .poweredOff
        case .bluetoothDisabled: .bluetoothDisabled
        case .idlePowerDown: .idlePowerDown
        case .usbDisconnected: .usbDisconnected
        case .bluetoothSignalLost: .bluetoothSignalLost
        case .peerRemovedPairingInformation: .peerRemovedPairingInformation
        @unknown default: .unknown
        }
    }
}

/// The ``Stripe/Cancelable`` of a command the bridge refused before calling the SDK: already completed, so canceling
/// it fails with `cancelFailedAlreadyCompleted`, as the SDK's does once its command finished.
final class StripeBridgeRefusal: Stripe.Cancelable {
    /// Always true.
    var completed: Bool { true }

    func cancel(_ completion: @escaping @Sendable (Stripe.ErrorCode?) -> Void) {
        let error = StripeBridgeErrors.sdkError(.cancelFailedAlreadyCompleted, "The command already completed.")
        completion(StripeBridgeErrors.translate(error, registry: StripeObjectRegistry(capacity: 1)))
    }
}
#endif
