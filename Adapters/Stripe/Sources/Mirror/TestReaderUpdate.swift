public import Foundation

/// `SCPTestReaderUpdate` (5.5.0): a simulated reader update for test mode, set with
/// `BluetoothConnectionConfigurationBuilder.setTestReaderUpdate(_:)`. It replaces the deprecated
/// `SimulatorConfiguration.availableReaderUpdate`. `init()`/`new` are unavailable: use the factory class methods.
public class TestReaderUpdate: NSObject, NSCopying {
    /// `SCPTestReaderUpdate.updateType`.
    public private(set) var updateType: TestReaderUpdateType

    /// `SCPTestReaderUpdate.components`: meaningful for `available`, `required` and `requiredOffline` only.
    public private(set) var components: UpdateComponent

    /// Creates an update (the factory methods do; `required` so that they can return `Self`, as `instancetype` does).
    required package init(surface: SurfaceConstruction, updateType: TestReaderUpdateType, components: UpdateComponent) {
        self.updateType = updateType
        self.components = components
        super.init()
    }

    /// `+availableWithComponents:`: an optional update with these components.
    @discardableResult
    public class func available(_ components: UpdateComponent) -> Self {
        self.init(surface: .backend, updateType: .available, components: components)
    }

    /// `+requiredWithComponents:`: a required update with these components.
    @discardableResult
    public class func required(_ components: UpdateComponent) -> Self {
        self.init(surface: .backend, updateType: .required, components: components)
    }

    /// `+requiredOfflineWithComponents:`: a required update that fails an offline connect.
    @discardableResult
    public class func requiredOffline(_ components: UpdateComponent) -> Self {
        self.init(surface: .backend, updateType: .requiredOffline, components: components)
    }

    /// `+lowBattery`: the update and the connect fail for low battery. (No components: the reference says they matter
    /// only for `available`, `required` and `requiredOffline`.)
    @discardableResult
    public class func lowBattery() -> Self {
        self.init(surface: .backend, updateType: .lowBattery, components: [])
    }

    /// `+lowBatterySucceedConnect`: the update fails for low battery, the connect succeeds.
    @discardableResult
    public class func lowBatterySucceedConnect() -> Self {
        self.init(surface: .backend, updateType: .lowBatterySucceedConnect, components: [])
    }

    /// `+random`: a random update, or nil for "no update" (the backend draws it).
    @discardableResult
    public class func random() -> Self? {
        guard let drawn = SurfaceRuntime.backend(for: "TestReaderUpdate.random()").randomTestReaderUpdate() else {
            return nil
        }
        return self.init(surface: .backend, updateType: drawn.updateType, components: drawn.components)
    }

    /// `NSCopying`: a new update with the same values.
    public func copy(with zone: NSZone? = nil) -> Any {
        Self(surface: .backend, updateType: updateType, components: components)
    }
}
