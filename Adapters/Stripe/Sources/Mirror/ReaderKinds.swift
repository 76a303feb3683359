// Written from ../shared/reference/sdk-surface/full/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0: the "Reader"
// group: SCPInternetDiscoveryConfiguration.h, SCPTapToPayDiscoveryConfiguration.h, SCPInternetConnectionConfiguration.h,
// SCPDiscoveryFilter.h). The bridge discovers smart readers and the Tap to Pay reader and connects smart readers with
// these, so they are mirrored completely. `InternetConnectionConfiguration.delegate` (narrowed to
// `InternetReaderDelegate`) is not declared, for the reason given at `BluetoothConnectionConfiguration`; the base
// class's `delegate` stands in. Tap to Pay's connection configuration and delegate are in TapToPayConnection.swift.
public import Foundation

/// `SCPDiscoveryFilter` (5.1.0): narrows internet discovery to one reader. `init()` is unavailable in the SDK: use the
/// class factories.
public class DiscoveryFilter: NSObject {
    enum Kind: Equatable {
        case none
        case serialNumber(String)
        case readerId(String)
    }

    let kind: Kind

    required init(kind: Kind) {
        self.kind = kind
        super.init()
    }

    /// `+filterBySerialNumber:`: nil when `serialNumber` is empty.
    public class func bySerialNumber(_ serialNumber: String) -> Self? {
        serialNumber.isEmpty ? nil : self.init(kind: .serialNumber(serialNumber))
    }

    /// `+filterByReaderId:`: nil unless `readerId` looks like a reader ID (`tmr_` prefix).
    public class func byReaderId(_ readerId: String) -> Self? {
        readerId.hasPrefix("tmr_") ? self.init(kind: .readerId(readerId)) : nil
    }

    /// `+none`: no filtering (the default).
    public class func none() -> Self {
        self.init(kind: .none)
    }
}

/// `SCPInternetDiscoveryConfiguration`: smart readers registered to the account, through the Stripe API.
public class InternetDiscoveryConfiguration: NSObject, DiscoveryConfiguration {
    /// `.internet`.
    public private(set) var discoveryMethod: DiscoveryMethod
    /// `SCPInternetDiscoveryConfiguration.simulated`.
    public private(set) var simulated: Bool
    /// `SCPInternetDiscoveryConfiguration.locationId`: readers of this location only; nil = all.
    public private(set) var locationId: String?
    /// `SCPInternetDiscoveryConfiguration.timeout`, in seconds.
    public private(set) var timeout: UInt
    /// `SCPInternetDiscoveryConfiguration.discoveryFilter` (5.1.0), ``DiscoveryFilter/none()`` by default.
    public private(set) var discoveryFilter: DiscoveryFilter

    init(simulated: Bool, locationId: String?, timeout: UInt, discoveryFilter: DiscoveryFilter) {
        self.discoveryMethod = .internet
        self.simulated = simulated
        self.locationId = locationId
        self.timeout = timeout
        self.discoveryFilter = discoveryFilter
        super.init()
    }
}

/// `SCPInternetDiscoveryConfigurationBuilder`.
public class InternetDiscoveryConfigurationBuilder: SCPBuilder<InternetDiscoveryConfiguration> {
    private var simulated = false
    private var locationId: String?
    private var timeout: UInt = 0
    private var discoveryFilter = DiscoveryFilter.none()

    /// `init`.
    public override init() {
        super.init()
    }

    /// `build:`: the configured ``InternetDiscoveryConfiguration``, or the error the backend reports.
    @discardableResult
    public override func build() throws -> InternetDiscoveryConfiguration {
        let product = InternetDiscoveryConfiguration(simulated: simulated, locationId: locationId, timeout: timeout,
                                                     discoveryFilter: discoveryFilter)
        try SurfaceRuntime.backend(for: "InternetDiscoveryConfigurationBuilder.build()")
            .validate(.internetDiscoveryConfiguration(product))
        return product
    }

    /// `-setSimulated:`.
    @discardableResult
    public func setSimulated(_ simulated: Bool) -> InternetDiscoveryConfigurationBuilder {
        self.simulated = simulated
        return self
    }

    /// `-setLocationId:`.
    @discardableResult
    public func setLocationId(_ locationId: String?) -> InternetDiscoveryConfigurationBuilder {
        self.locationId = locationId
        return self
    }

    /// `-setTimeout:`.
    @discardableResult
    public func setTimeout(_ timeout: UInt) -> InternetDiscoveryConfigurationBuilder {
        self.timeout = timeout
        return self
    }

    /// `-setDiscoveryFilter:` (5.1.0).
    @discardableResult
    public func setDiscoveryFilter(_ discoveryFilter: DiscoveryFilter) -> InternetDiscoveryConfigurationBuilder {
        self.discoveryFilter = discoveryFilter
        return self
    }
}

/// `SCPTapToPayDiscoveryConfiguration`: the iPhone's own Tap to Pay reader.
public class TapToPayDiscoveryConfiguration: NSObject, DiscoveryConfiguration {
    /// `.tapToPay`.
    public private(set) var discoveryMethod: DiscoveryMethod
    /// `SCPTapToPayDiscoveryConfiguration.simulated`.
    public private(set) var simulated: Bool

    init(simulated: Bool) {
        self.discoveryMethod = .tapToPay
        self.simulated = simulated
        super.init()
    }
}

/// `SCPTapToPayDiscoveryConfigurationBuilder`.
public class TapToPayDiscoveryConfigurationBuilder: SCPBuilder<TapToPayDiscoveryConfiguration> {
    private var simulated = false

    /// `init`.
    public override init() {
        super.init()
    }

    /// `build:`: the configured ``TapToPayDiscoveryConfiguration``, or the error the backend reports.
    @discardableResult
    public override func build() throws -> TapToPayDiscoveryConfiguration {
        let product = TapToPayDiscoveryConfiguration(simulated: simulated)
        try SurfaceRuntime.backend(for: "TapToPayDiscoveryConfigurationBuilder.build()")
            .validate(.tapToPayDiscoveryConfiguration(product))
        return product
    }

    /// `-setSimulated:`.
    @discardableResult
    public func setSimulated(_ simulated: Bool) -> TapToPayDiscoveryConfigurationBuilder {
        self.simulated = simulated
        return self
    }
}

/// `SCPInternetReaderDelegate`: the reader delegate of an internet (smart) reader; only ``ReaderDelegate``'s
/// requirements.
public protocol InternetReaderDelegate: ReaderDelegate {}

/// `SCPInternetConnectionConfiguration`: for `connectReader` with a smart reader. Its `delegate` (narrowed to
/// ``InternetReaderDelegate`` in the SDK) is the base class's here (see the file's header).
public class InternetConnectionConfiguration: ConnectionConfiguration {
    /// `SCPInternetConnectionConfiguration.failIfInUse`: true fails the connect when the reader is busy.
    public private(set) var failIfInUse: Bool
    /// `SCPInternetConnectionConfiguration.allowCustomerCancel` (private beta), false by default.
    public private(set) var allowCustomerCancel: Bool

    init(delegate: any InternetReaderDelegate, failIfInUse: Bool, allowCustomerCancel: Bool) {
        self.failIfInUse = failIfInUse
        self.allowCustomerCancel = allowCustomerCancel
        super.init(surface: .backend, delegate: delegate)
    }
}

/// `SCPInternetConnectionConfigurationBuilder`.
public class InternetConnectionConfigurationBuilder: SCPBuilder<InternetConnectionConfiguration> {
    private let delegate: any InternetReaderDelegate
    private var failIfInUse = false
    private var allowCustomerCancel = false

    /// `-initWithDelegate:`.
    public init(delegate: any InternetReaderDelegate) {
        self.delegate = delegate
        super.init()
    }

    /// `build:`: the configured ``InternetConnectionConfiguration``, or the error the backend reports.
    @discardableResult
    public override func build() throws -> InternetConnectionConfiguration {
        let product = InternetConnectionConfiguration(delegate: delegate, failIfInUse: failIfInUse,
                                                      allowCustomerCancel: allowCustomerCancel)
        try SurfaceRuntime.backend(for: "InternetConnectionConfigurationBuilder.build()")
            .validate(.internetConnectionConfiguration(product))
        return product
    }

    /// `-setFailIfInUse:`.
    @discardableResult
    public func setFailIfInUse(_ failIfInUse: Bool) -> InternetConnectionConfigurationBuilder {
        self.failIfInUse = failIfInUse
        return self
    }

    /// `-setAllowCustomerCancel:`.
    @discardableResult
    public func setAllowCustomerCancel(_ allowCustomerCancel: Bool) -> InternetConnectionConfigurationBuilder {
        self.allowCustomerCancel = allowCustomerCancel
        return self
    }
}
