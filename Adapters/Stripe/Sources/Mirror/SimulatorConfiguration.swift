// Generated once from ../shared/reference/sdk-surface/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0), then kept
// by hand. The mirror-vs-surface test checks every declaration here against that file.
public import Foundation

/// `SCPSimulatorConfiguration`. Reached as Terminal.shared.simulatorConfiguration; init()/new unavailable.
public class SimulatorConfiguration: NSObject {
    /// `SCPSimulatorConfiguration.simulatedCard`.
    public var simulatedCard: SimulatedCard
    /// `SCPSimulatorConfiguration.simulatedTipAmount`.
    public var simulatedTipAmount: NSNumber? = nil
    /// `SCPSimulatorConfiguration.offlineEnabled`.
    public var offlineEnabled: Bool
    /// `SCPSimulatorConfiguration.simulatedCollectInputsResult`.
    public var simulatedCollectInputsResult: SimulatedCollectInputsResult? = nil

    /// Creates the object as the SDK would hand it out (for a backend); optional properties start nil.
    package init(
        surface: SurfaceConstruction,
        simulatedCard: SimulatedCard,
        offlineEnabled: Bool,
        availableReaderUpdate: SimulateReaderUpdate
    ) {
        self.simulatedCard = simulatedCard
        self.offlineEnabled = offlineEnabled
        self.storedAvailableReaderUpdate = availableReaderUpdate
        super.init()
    }

    /// Storage behind the deprecated ``availableReaderUpdate`` (so the module itself never uses a deprecated member).
    package var storedAvailableReaderUpdate: SimulateReaderUpdate

    /// `SCPSimulatorConfiguration.availableReaderUpdate`. Deprecated in 5.5.0 in favour of `testReaderUpdate` on the
    /// connection configuration.
    @available(*, deprecated, message: "Use BluetoothConnectionConfigurationBuilder.setTestReaderUpdate(_:).")
    public var availableReaderUpdate: SimulateReaderUpdate {
        get { storedAvailableReaderUpdate }
        set { storedAvailableReaderUpdate = newValue }
    }
}
