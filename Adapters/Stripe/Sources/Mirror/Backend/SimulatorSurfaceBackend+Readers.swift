import Foundation
package import StripeTerminalSurface
import TenderStripe
import TenderStripeSimulator

extension SimulatorSurfaceBackend {
    /// `discoverReaders`: the simulator's discovery with the configuration's method, `simulated` and `timeout` (the
    /// Bluetooth scan's and the internet discovery's; Tap to Pay discovery has none); the readers reach `delegate` as
    /// SDK objects. USB (no simulator model) completes with `invalidDiscoveryConfiguration`.
    package func discoverReaders(_ terminal: Terminal, configuration: any DiscoveryConfiguration,
                                 delegate: any DiscoveryDelegate, completion: @escaping ErrorCompletionBlock)
        -> Cancelable {
        arrive("discoverReaders")
        guard let method = SurfaceCaseNames.adapter(configuration.discoveryMethod, as: Stripe.DiscoveryMethod.self) else {
            completion(ErrorCode(.invalidDiscoveryConfiguration, userInfo: [ErrorKey.message.rawValue:
                "The simulator does not model \(SurfaceCaseNames.name(of: configuration.discoveryMethod)) discovery."]))
            return Cancelable(surface: .backend, isCompleted: { true }, cancel: { done in
                done(ErrorCode(.cancelFailedAlreadyCompleted))
            })
        }
        let timeout = (configuration as? BluetoothScanDiscoveryConfiguration)?.timeout
            ?? (configuration as? InternetDiscoveryConfiguration)?.timeout ?? 0
        let value = Stripe.DiscoveryConfiguration(method: method, timeout: timeout, simulated: configuration.simulated)
        let relay = SimulatorDiscoveryRelay(self, terminal: terminal, delegate: delegate)
        let done = UncheckedSendableBox(completion)
        let cancelable = waitForSimulator { [self] simulator in
            await simulator.discoverReaders(value, delegate: relay) { [self] error in deliver { done.value(error.map(sdkError)) } }
        }
        return sdkCancelable(cancelable)
    }

    /// `connectReader`: the simulator's connection for the configuration's class: Bluetooth (location, automatic
    /// reconnection and, if set, a test update), Tap to Pay (location, terms of service, automatic reconnection, test
    /// update) or internet (a smart reader at its registered location). The reader callbacks reach the configuration's
    /// delegate, held weakly, with the callbacks its protocol has (`reader(…)`, `tapToPayReader(…)`, or only
    /// `ReaderDelegate`'s for a smart reader). Any other configuration (USB) fails with `invalidConnectionConfiguration`.
    package func connectReader(_ terminal: Terminal, reader: Reader, connectionConfig: ConnectionConfiguration,
                               completion: @escaping ReaderCompletionBlock) {
        arrive("connectReader")
        let relay = SimulatorReaderRelay(self, delegate: connectionConfig.delegate, serialNumber: reader.serialNumber)
        let target = simulatorReader(for: reader)
        let testUpdate: TestReaderUpdate?
        let connect: @Sendable (StripeSimulator) async throws -> Stripe.Reader
        switch connectionConfig {
        case let bluetooth as BluetoothConnectionConfiguration:
            testUpdate = bluetooth.testReaderUpdate
            let value = Stripe.BluetoothConnectionConfiguration(
                locationId: bluetooth.locationId,
                autoReconnectOnUnexpectedDisconnect: bluetooth.autoReconnectOnUnexpectedDisconnect, delegate: relay)
            connect = { try await $0.connectReader(target, connectionConfig: value) }
        case let tapToPay as TapToPayConnectionConfiguration:
            testUpdate = tapToPay.testReaderUpdate
            let value = Stripe.TapToPayConnectionConfiguration(
                locationId: tapToPay.locationId, merchantDisplayName: tapToPay.merchantDisplayName,
                tosAcceptancePermitted: tapToPay.isTOSAcceptancePermitted,
                autoReconnectOnUnexpectedDisconnect: tapToPay.isAutoReconnectOnUnexpectedDisconnect, delegate: relay)
            connect = { try await $0.connectReader(target, connectionConfig: value) }
        case let internet as InternetConnectionConfiguration:
            testUpdate = nil
            let value = Stripe.InternetConnectionConfiguration(
                failIfInUse: internet.failIfInUse, allowCustomerCancel: internet.allowCustomerCancel, delegate: relay)
            connect = { try await $0.connectReader(target, connectionConfig: value) }
        default:
            return completion(nil, ErrorCode(.invalidConnectionConfiguration, userInfo: [ErrorKey.message.rawValue:
                "The simulator connects Bluetooth, Tap to Pay and internet readers only."]))
        }
        let update = testUpdate.flatMap { SurfaceCaseNames.adapter($0.updateType, as: Stripe.TestReaderUpdate.self) }
        let done = UncheckedSendableBox(completion)
        onSimulator { [self] simulator in
            if let update { await simulator.configure { $0.testReaderUpdate = update } }
            do {
                let connected = try await connect(simulator)
                deliver { done.value(sdkReader(connected), nil) }
            } catch let error as Stripe.ErrorCode {
                deliver { done.value(nil, sdkError(error)) }
            } catch {
                deliver { done.value(nil, error) }
            }
        }
    }

    /// `setReaderDisplay(_:completion:)`: the simulator shows the cart (a smart reader only; others refuse, 1880).
    package func setReaderDisplay(_ terminal: Terminal, cart: Cart, completion: @escaping ErrorCompletionBlock) {
        arrive("setReaderDisplay")
        let value = Stripe.Cart(currency: cart.currency, tax: cart.tax, total: cart.total, lineItems: cart.lineItems.map {
            Stripe.CartLineItem(displayName: $0.displayName, quantity: $0.quantity, amount: $0.amount)
        })
        completeOnSimulator(completion) { try await $0.setReaderDisplay(value) }
    }

    /// `clearReaderDisplay(_:)`: the simulator's.
    package func clearReaderDisplay(_ terminal: Terminal, completion: @escaping ErrorCompletionBlock) {
        arrive("clearReaderDisplay")
        completeOnSimulator(completion) { try await $0.clearReaderDisplay() }
    }

    /// The SDK's error for a simulator error (a ``Stripe/ErrorCode``), or the error as it came.
    func sdkErrorOrAsItCame(_ error: any Error) -> any Error {
        (error as? Stripe.ErrorCode).map(sdkError) ?? error
    }

    /// Not modelled: the simulator has no locations.
    package func listLocations(_ terminal: Terminal, parameters: ListLocationsParameters?,
                               completion: @escaping LocationsCompletionBlock) {
        arrive("listLocations")
        completion(nil, false, ErrorCode(.featureNotAvailable, userInfo: [ErrorKey.message.rawValue:
            "The simulator has no locations."]))
    }

    /// `installAvailableUpdate()`: the simulator installs the reported update, reporting to the reader delegate.
    package func installAvailableUpdate(_ terminal: Terminal) {
        arrive("installAvailableUpdate")
        waitForSimulator { await $0.installAvailableUpdate() }
    }

    /// `rebootReader(_:)`: the simulator's (the reader disconnects and, with automatic reconnection, reconnects).
    package func rebootReader(_ terminal: Terminal, completion: @escaping ErrorCompletionBlock) {
        arrive("rebootReader")
        completeOnSimulator(completion) { try await $0.rebootReader() }
    }

    /// `disconnectReader(_:)`: the simulator's.
    package func disconnectReader(_ terminal: Terminal, completion: @escaping ErrorCompletionBlock) {
        arrive("disconnectReader")
        completeOnSimulator(completion) { try await $0.disconnectReader() }
    }
}
