// Generated once from ../shared/reference/sdk-surface/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0), then kept
// by hand. The mirror-vs-surface test checks every declaration here against that file.
public import Foundation

// Configurations are immutable once built; only their builders create them (`init()`/`new` are unavailable in the SDK).
// Deviation (all classes of this module): `public`, not `open` as imported Objective-C classes are (see PaymentIntent.swift).

/// `SCPBluetoothScanDiscoveryConfiguration`. init()/new unavailable (5.0): use the builder.
public class BluetoothScanDiscoveryConfiguration: NSObject, DiscoveryConfiguration {
    /// `SCPBluetoothScanDiscoveryConfiguration.discoveryMethod`.
    public private(set) var discoveryMethod: DiscoveryMethod
    /// `SCPBluetoothScanDiscoveryConfiguration.simulated`.
    public private(set) var simulated: Bool
    /// `SCPBluetoothScanDiscoveryConfiguration.timeout`. Seconds; 0 (the default) means no timeout.
    public private(set) var timeout: UInt

    /// Creates the configuration (its builder calls this).
    package init(surface: SurfaceConstruction, discoveryMethod: DiscoveryMethod, simulated: Bool, timeout: UInt) {
        self.discoveryMethod = discoveryMethod
        self.simulated = simulated
        self.timeout = timeout
        super.init()
    }
}

/// `SCPBluetoothScanDiscoveryConfigurationBuilder`: builds ``BluetoothScanDiscoveryConfiguration``; `build()` throws
/// when the backend rejects the values.
public class BluetoothScanDiscoveryConfigurationBuilder: SCPBuilder<BluetoothScanDiscoveryConfiguration> {
    // Starting values: real (not simulated) readers, `timeout` 0 = no timeout (the reference's default).
    private var simulated: Bool = false
    private var timeout: UInt = 0

    /// `-init (inherited from NSObject)`. Created as BluetoothScanDiscoveryConfigurationBuilder().
    public override init() {
        super.init()
    }

    /// `build:`: the configured ``BluetoothScanDiscoveryConfiguration``, or the error the backend reports for invalid
    /// values.
    @discardableResult
    public override func build() throws -> BluetoothScanDiscoveryConfiguration {
        let product = BluetoothScanDiscoveryConfiguration(
            surface: .backend,
            discoveryMethod: .bluetoothScan,
            simulated: simulated,
            timeout: timeout
        )
        try SurfaceRuntime.backend(for: "BluetoothScanDiscoveryConfigurationBuilder.build()").validate(.bluetoothScanDiscoveryConfiguration(product))
        return product
    }

    /// `-setSimulated:`: sets `simulated`.
    @discardableResult
    public func setSimulated(_ simulated: Bool) -> BluetoothScanDiscoveryConfigurationBuilder {
        self.simulated = simulated
        return self
    }

    /// `-setTimeout:`: sets `timeout`.
    @discardableResult
    public func setTimeout(_ timeout: UInt) -> BluetoothScanDiscoveryConfigurationBuilder {
        self.timeout = timeout
        return self
    }
}

/// `SCPBluetoothProximityDiscoveryConfiguration`. init()/new unavailable (5.0): use the builder.
public class BluetoothProximityDiscoveryConfiguration: NSObject, DiscoveryConfiguration {
    /// `SCPBluetoothProximityDiscoveryConfiguration.discoveryMethod`.
    public private(set) var discoveryMethod: DiscoveryMethod
    /// `SCPBluetoothProximityDiscoveryConfiguration.simulated`.
    public private(set) var simulated: Bool

    /// Creates the configuration (its builder calls this).
    package init(surface: SurfaceConstruction, discoveryMethod: DiscoveryMethod, simulated: Bool) {
        self.discoveryMethod = discoveryMethod
        self.simulated = simulated
        super.init()
    }
}

/// `SCPBluetoothProximityDiscoveryConfigurationBuilder`: builds ``BluetoothProximityDiscoveryConfiguration``;
/// `build()` throws when the backend rejects the values.
public class BluetoothProximityDiscoveryConfigurationBuilder: SCPBuilder<BluetoothProximityDiscoveryConfiguration> {
    // Starting value: real (not simulated) readers.
    private var simulated: Bool = false

    /// `-init (inherited from NSObject)`. Created as BluetoothProximityDiscoveryConfigurationBuilder().
    public override init() {
        super.init()
    }

    /// `build:`: the configured ``BluetoothProximityDiscoveryConfiguration``, or the error the backend reports for
    /// invalid values.
    @discardableResult
    public override func build() throws -> BluetoothProximityDiscoveryConfiguration {
        let product = BluetoothProximityDiscoveryConfiguration(
            surface: .backend,
            discoveryMethod: .bluetoothProximity,
            simulated: simulated
        )
        try SurfaceRuntime.backend(for: "BluetoothProximityDiscoveryConfigurationBuilder.build()").validate(.bluetoothProximityDiscoveryConfiguration(product))
        return product
    }

    /// `-setSimulated:`: sets `simulated`.
    @discardableResult
    public func setSimulated(_ simulated: Bool) -> BluetoothProximityDiscoveryConfigurationBuilder {
        self.simulated = simulated
        return self
    }
}

/// `SCPDiscoveryConfiguration`: what `discoverReaders` is asked to find. Not for apps to implement: use the
/// configurations built by the builders.
public protocol DiscoveryConfiguration: NSObjectProtocol {
    /// The discovery method.
    var discoveryMethod: DiscoveryMethod { get }

    /// Whether to discover simulated readers.
    var simulated: Bool { get }
}
