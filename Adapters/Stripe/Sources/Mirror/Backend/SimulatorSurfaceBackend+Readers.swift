import Foundation
package import StripeTerminalSurface
import TenderStripe
import TenderStripeSimulator

extension SimulatorSurfaceBackend {
    /// `discoverReaders`: the simulator's discovery with the configuration's method, `simulated` and (Bluetooth scan)
    /// `timeout`; the readers reach `delegate` as SDK objects. USB (no simulator model) completes with
    /// `invalidDiscoveryConfiguration`.
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
        let timeout = (configuration as? BluetoothScanDiscoveryConfiguration)?.timeout ?? 0
        let value = Stripe.DiscoveryConfiguration(method: method, timeout: timeout, simulated: configuration.simulated)
        let relay = SimulatorDiscoveryRelay(self, terminal: terminal, delegate: delegate)
        let done = UncheckedSendableBox(completion)
        let cancelable = waitForSimulator { [self] simulator in
            await simulator.discoverReaders(value, delegate: relay) { [self] error in done.value(error.map(sdkError)) }
        }
        return sdkCancelable(cancelable)
    }

    /// `connectReader`: the simulator's Bluetooth connection with the configuration's location, automatic reconnection
    /// and (if set) test update; its reader callbacks reach the configuration's delegate, held weakly.
    package func connectReader(_ terminal: Terminal, reader: Reader, connectionConfig: ConnectionConfiguration,
                               completion: @escaping ReaderCompletionBlock) {
        arrive("connectReader")
        guard let bluetooth = connectionConfig as? BluetoothConnectionConfiguration else {
            return completion(nil, ErrorCode(.invalidConnectionConfiguration, userInfo: [ErrorKey.message.rawValue:
                "The simulator connects Bluetooth readers only."]))
        }
        let update = bluetooth.testReaderUpdate.flatMap {
            SurfaceCaseNames.adapter($0.updateType, as: Stripe.TestReaderUpdate.self)
        }
        let relay = SimulatorReaderRelay(self, delegate: bluetooth.delegate as? any MobileReaderDelegate,
                                         serialNumber: reader.serialNumber)
        let value = Stripe.BluetoothConnectionConfiguration(
            locationId: bluetooth.locationId, autoReconnectOnUnexpectedDisconnect: bluetooth.autoReconnectOnUnexpectedDisconnect,
            delegate: relay)
        let target = simulatorReader(for: reader)
        let done = UncheckedSendableBox(completion)
        onSimulator { [self] simulator in
            if let update { await simulator.configure { $0.testReaderUpdate = update } }
            do throws(Stripe.ErrorCode) {
                let connected = try await simulator.connectReader(target, connectionConfig: value)
                done.value(sdkReader(connected), nil)
            } catch {
                done.value(nil, sdkError(error))
            }
        }
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
        let done = UncheckedSendableBox(completion)
        onSimulator { [self] simulator in
            do throws(Stripe.ErrorCode) {
                try await simulator.rebootReader()
                done.value(nil)
            } catch {
                done.value(sdkError(error))
            }
        }
    }

    /// `disconnectReader(_:)`: the simulator's.
    package func disconnectReader(_ terminal: Terminal, completion: @escaping ErrorCompletionBlock) {
        arrive("disconnectReader")
        let done = UncheckedSendableBox(completion)
        onSimulator { [self] simulator in
            do throws(Stripe.ErrorCode) {
                try await simulator.disconnectReader()
                done.value(nil)
            } catch {
                done.value(sdkError(error))
            }
        }
    }
}
