// Generated once from ../shared/reference/sdk-surface/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0), then kept
// by hand. The mirror-vs-surface test checks every declaration here against that file.
public import Foundation

// Value objects the SDK creates and hands out. Their public properties are read-only, as in the SDK; a backend creates
// them with the `package` initializer and may update them through the `package` setters.
// Deviation (all classes of this module): `public`, not `open` as imported Objective-C classes are. Subclassing the SDK's
// classes is no bridge's business; code that does would fail to compile here first, never only on iOS.

/// `SCPReader`.
public class Reader: NSObject {
    /// `SCPReader.deviceType`.
    public package(set) var deviceType: DeviceType
    /// `SCPReader.simulated`.
    public package(set) var simulated: Bool
    /// `SCPReader.stripeId`.
    public package(set) var stripeId: String? = nil
    /// `SCPReader.locationId`.
    public package(set) var locationId: String? = nil
    /// `SCPReader.locationStatus`.
    public package(set) var locationStatus: LocationStatus
    /// `SCPReader.location`. nil during discovery for Bluetooth readers never connected before.
    public package(set) var location: Location? = nil
    /// `SCPReader.serialNumber`.
    public package(set) var serialNumber: String
    /// `SCPReader.livemode`.
    public package(set) var livemode: Bool
    /// `SCPReader.deviceSoftwareVersion`.
    public package(set) var deviceSoftwareVersion: String? = nil
    /// `SCPReader.availableUpdate`. nil when no update is available.
    public package(set) var availableUpdate: ReaderSoftwareUpdate? = nil
    /// `SCPReader.batteryLevel`. Boxed Float 0...1; nil if unknown or no battery (Bluetooth readers).
    public package(set) var batteryLevel: NSNumber? = nil
    /// `SCPReader.batteryStatus`.
    public package(set) var batteryStatus: BatteryStatus
    /// `SCPReader.isCharging`. Boxed BOOL; nil if unknown (Bluetooth readers).
    public package(set) var isCharging: NSNumber? = nil
    /// `SCPReader.ipAddress`.
    public package(set) var ipAddress: String? = nil
    /// `SCPReader.status`. Non-internet readers always report .offline.
    public package(set) var status: ReaderNetworkStatus
    /// `SCPReader.label`.
    public package(set) var label: String? = nil

    /// Creates the object as the SDK would hand it out (for a backend); optional properties start nil.
    package init(
        surface: SurfaceConstruction,
        deviceType: DeviceType,
        simulated: Bool,
        locationStatus: LocationStatus,
        serialNumber: String,
        livemode: Bool,
        batteryStatus: BatteryStatus,
        status: ReaderNetworkStatus
    ) {
        self.deviceType = deviceType
        self.simulated = simulated
        self.locationStatus = locationStatus
        self.serialNumber = serialNumber
        self.livemode = livemode
        self.batteryStatus = batteryStatus
        self.status = status
        super.init()
    }
}

/// `SCPReaderSoftwareUpdate`.
public class ReaderSoftwareUpdate: NSObject {
    /// `SCPReaderSoftwareUpdate.durationEstimate`.
    public package(set) var durationEstimate: UpdateTimeEstimate
    /// `SCPReaderSoftwareUpdate.deviceSoftwareVersion`.
    public package(set) var deviceSoftwareVersion: String
    /// `SCPReaderSoftwareUpdate.components`.
    public package(set) var components: UpdateComponent
    /// `SCPReaderSoftwareUpdate.requiredAt`.
    public package(set) var requiredAt: Date
    /// `SCPReaderSoftwareUpdate.isTestUpdate`.
    public package(set) var isTestUpdate: Bool

    /// Creates the object as the SDK would hand it out (for a backend); optional properties start nil.
    package init(
        surface: SurfaceConstruction,
        durationEstimate: UpdateTimeEstimate,
        deviceSoftwareVersion: String,
        components: UpdateComponent,
        requiredAt: Date,
        isTestUpdate: Bool
    ) {
        self.durationEstimate = durationEstimate
        self.deviceSoftwareVersion = deviceSoftwareVersion
        self.components = components
        self.requiredAt = requiredAt
        self.isTestUpdate = isTestUpdate
        super.init()
    }

    /// `+stringFromUpdateDurationEstimate:` (Swift prunes it to `string(from:)`): the estimate as display text, from the
    /// backend.
    @discardableResult
    public class func string(from estimate: UpdateTimeEstimate) -> String {
        SurfaceRuntime.backend(for: "ReaderSoftwareUpdate.string(from:)").describe(.updateTimeEstimate(estimate))
    }
}

/// `SCPLocation`.
public class Location: NSObject {
    /// `SCPLocation.stripeId`.
    public package(set) var stripeId: String
    /// `SCPLocation.address`.
    public package(set) var address: Address? = nil
    /// `SCPLocation.addressKanji`.
    public package(set) var addressKanji: Address? = nil
    /// `SCPLocation.addressKana`.
    public package(set) var addressKana: Address? = nil
    /// `SCPLocation.displayName`.
    public package(set) var displayName: String? = nil
    /// `SCPLocation.displayNameKanji`.
    public package(set) var displayNameKanji: String? = nil
    /// `SCPLocation.displayNameKana`.
    public package(set) var displayNameKana: String? = nil
    /// `SCPLocation.phone`.
    public package(set) var phone: String? = nil
    /// `SCPLocation.livemode`.
    public package(set) var livemode: Bool
    /// `SCPLocation.metadata`.
    public package(set) var metadata: [String: String]? = nil

    /// Creates the object as the SDK would hand it out (for a backend); optional properties start nil.
    package init(surface: SurfaceConstruction, stripeId: String, livemode: Bool) {
        self.stripeId = stripeId
        self.livemode = livemode
        super.init()
    }
}
