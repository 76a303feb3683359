// Generated once from ../shared/reference/sdk-surface/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0), then kept
// by hand. The mirror-vs-surface test checks every declaration here against that file.
public import Foundation

// Configurations are immutable once built; only their builders create them (`init()`/`new` are unavailable in the SDK).
// Deviation (all classes of this module): `public`, not `open` as imported Objective-C classes are (see PaymentIntent.swift).

/// `SCPConnectionConfiguration`. Abstract base of BluetoothConnectionConfiguration, InternetConnectionConfiguration,
/// TapToPayConnectionConfiguration and UsbConnectionConfiguration; init()/new unavailable. Declaration written from
/// the header (jazzy has no page for it).
public class ConnectionConfiguration: NSObject {
    /// `SCPConnectionConfiguration.delegate`. Subclasses redeclare it with their specific delegate protocol.
    public private(set) weak var delegate: (any ReaderDelegate)? = nil

    /// Creates the configuration (its builder calls this).
    package init(surface: SurfaceConstruction, delegate: (any ReaderDelegate)?) {
        self.delegate = delegate
        super.init()
    }
}

/// `SCPBluetoothConnectionConfiguration`. init()/new unavailable: use
/// BluetoothConnectionConfigurationBuilder(delegate:locationId:). Deviation: the SDK redeclares `delegate` here as
/// `weak var delegate: (any MobileReaderDelegate)? { get }`. Swift source cannot override a read-only property with a
/// narrower type, so the mirror keeps only the base class's `(any ReaderDelegate)?` declaration; code that compiles
/// against it also compiles on iOS.
public class BluetoothConnectionConfiguration: ConnectionConfiguration {
    /// `SCPBluetoothConnectionConfiguration.locationId`.
    public private(set) var locationId: String
    /// `SCPBluetoothConnectionConfiguration.autoReconnectOnUnexpectedDisconnect`. When true the SDK attempts
    /// Bluetooth auto-reconnect on unexpected disconnects (ReaderDelegate reconnect callbacks); when false it reports
    /// the disconnect at once.
    public private(set) var autoReconnectOnUnexpectedDisconnect: Bool
    /// `SCPBluetoothConnectionConfiguration.testReaderUpdate`. 5.5.0: test-mode simulated update; connect fails with
    /// invalidConnectionConfiguration for live-mode readers. Defaults to nil.
    public private(set) var testReaderUpdate: TestReaderUpdate? = nil

    /// Creates the configuration (its builder calls this).
    package init(
        surface: SurfaceConstruction,
        locationId: String,
        autoReconnectOnUnexpectedDisconnect: Bool,
        testReaderUpdate: TestReaderUpdate?,
        delegate: (any MobileReaderDelegate)?
    ) {
        self.locationId = locationId
        self.autoReconnectOnUnexpectedDisconnect = autoReconnectOnUnexpectedDisconnect
        self.testReaderUpdate = testReaderUpdate
        super.init(surface: surface, delegate: delegate)
    }
}

/// `SCPBluetoothConnectionConfigurationBuilder`: builds ``BluetoothConnectionConfiguration``; `build()` throws when
/// the backend rejects the values.
public class BluetoothConnectionConfigurationBuilder: SCPBuilder<BluetoothConnectionConfiguration> {
    // Starting values: `autoReconnectOnUnexpectedDisconnect` true (the reference: the default since 4.0), no test update.
    private var locationId: String
    private var autoReconnectOnUnexpectedDisconnect: Bool = true
    private var testReaderUpdate: TestReaderUpdate? = nil
    private let delegate: any MobileReaderDelegate

    /// `build:`: the configured ``BluetoothConnectionConfiguration``, or the error the backend reports for invalid
    /// values.
    @discardableResult
    public override func build() throws -> BluetoothConnectionConfiguration {
        let product = BluetoothConnectionConfiguration(
            surface: .backend,
            locationId: locationId,
            autoReconnectOnUnexpectedDisconnect: autoReconnectOnUnexpectedDisconnect,
            testReaderUpdate: testReaderUpdate,
            delegate: delegate
        )
        try SurfaceRuntime.backend(for: "BluetoothConnectionConfigurationBuilder.build()").validate(.bluetoothConnectionConfiguration(product))
        return product
    }

    /// `-initWithDelegate:locationId:`. Designated initializer; init() and new are unavailable on this builder.
    public init(delegate: any MobileReaderDelegate, locationId: String) {
        self.delegate = delegate
        self.locationId = locationId
        super.init()
    }

    /// `-setLocationId:`: sets `locationId`.
    @discardableResult
    public func setLocationId(_ locationId: String) -> BluetoothConnectionConfigurationBuilder {
        self.locationId = locationId
        return self
    }

    /// `-setAutoReconnectOnUnexpectedDisconnect:`: sets `autoReconnectOnUnexpectedDisconnect`.
    @discardableResult
    public func setAutoReconnectOnUnexpectedDisconnect(_ autoReconnectOnUnexpectedDisconnect: Bool) -> BluetoothConnectionConfigurationBuilder {
        self.autoReconnectOnUnexpectedDisconnect = autoReconnectOnUnexpectedDisconnect
        return self
    }

    /// `-setTestReaderUpdate:`: sets `testReaderUpdate`.
    @discardableResult
    public func setTestReaderUpdate(_ testReaderUpdate: TestReaderUpdate?) -> BluetoothConnectionConfigurationBuilder {
        self.testReaderUpdate = testReaderUpdate
        return self
    }
}
