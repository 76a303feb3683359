// Generated once from ../shared/reference/sdk-surface/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0), then kept
// by hand. The mirror-vs-surface test checks every declaration here against that file.
public import Foundation

// Configurations are immutable once built; only their builders create them (`init()`/`new` are unavailable in the SDK).
// Deviation (all classes of this module): `public`, not `open` as imported Objective-C classes are (see PaymentIntent.swift).

/// `SCPCreateConfiguration`. init()/new unavailable: use CreateConfigurationBuilder.
public class CreateConfiguration: NSObject {
    /// `SCPCreateConfiguration.offlineBehavior`. Defaults to .preferOnline.
    public private(set) var offlineBehavior: OfflineBehavior

    /// Creates the configuration (its builder calls this).
    package init(surface: SurfaceConstruction, offlineBehavior: OfflineBehavior) {
        self.offlineBehavior = offlineBehavior
        super.init()
    }
}

/// `SCPCreateConfigurationBuilder`: builds ``CreateConfiguration``; `build()` throws when the backend rejects the
/// values.
public class CreateConfigurationBuilder: SCPBuilder<CreateConfiguration> {
    // Starting value: `offlineBehavior` preferOnline (the reference's default).
    private var offlineBehavior: OfflineBehavior = .preferOnline

    /// `-init (inherited from NSObject)`. Created as CreateConfigurationBuilder().
    public override init() {
        super.init()
    }

    /// `build:`: the configured ``CreateConfiguration``, or the error the backend reports for invalid values.
    @discardableResult
    public override func build() throws -> CreateConfiguration {
        let product = CreateConfiguration(surface: .backend, offlineBehavior: offlineBehavior)
        try SurfaceRuntime.backend(for: "CreateConfigurationBuilder.build()").validate(.createConfiguration(product))
        return product
    }

    /// `-setOfflineBehavior:`: sets `offlineBehavior`.
    @discardableResult
    public func setOfflineBehavior(_ offlineBehavior: OfflineBehavior) -> CreateConfigurationBuilder {
        self.offlineBehavior = offlineBehavior
        return self
    }
}

/// `SCPCollectPaymentIntentConfiguration`. 5.x name of the 4.x CollectConfiguration
/// (PublicHeaders/SCPCollectConfiguration.h is a stale 4.0.0 file not imported by the umbrella header). init()/new
/// unavailable.
public class CollectPaymentIntentConfiguration: NSObject, NSCopying {
    /// `SCPCollectPaymentIntentConfiguration.skipTipping`. Defaults to false.
    public private(set) var skipTipping: Bool
    /// `SCPCollectPaymentIntentConfiguration.tippingConfiguration`.
    public private(set) var tippingConfiguration: TippingConfiguration? = nil
    /// `SCPCollectPaymentIntentConfiguration.updatePaymentIntent`. Defaults to false; true with an offline-created
    /// intent fails with updatePaymentIntentUnavailableWhileOffline.
    public private(set) var updatePaymentIntent: Bool
    /// `SCPCollectPaymentIntentConfiguration.customerCancellation`. Defaults to .enableIfAvailable (was a BOOL before
    /// 5.0).
    public private(set) var customerCancellation: CustomerCancellation
    /// `SCPCollectPaymentIntentConfiguration.requestDynamicCurrencyConversion`. Defaults to false; needs
    /// updatePaymentIntent.
    public private(set) var requestDynamicCurrencyConversion: Bool
    /// `SCPCollectPaymentIntentConfiguration.surchargeNotice`.
    public private(set) var surchargeNotice: String? = nil
    /// `SCPCollectPaymentIntentConfiguration.allowRedisplay`. Defaults to .unspecified.
    public private(set) var allowRedisplay: AllowRedisplay
    /// `SCPCollectPaymentIntentConfiguration.motoConfiguration`.
    public private(set) var motoConfiguration: MotoConfiguration? = nil
    /// `SCPCollectPaymentIntentConfiguration.skipDonation`. Defaults to false (5.4.0 preview).
    public private(set) var skipDonation: Bool

    /// Creates the configuration (its builder calls this).
    package init(
        surface: SurfaceConstruction,
        skipTipping: Bool,
        tippingConfiguration: TippingConfiguration?,
        updatePaymentIntent: Bool,
        customerCancellation: CustomerCancellation,
        requestDynamicCurrencyConversion: Bool,
        surchargeNotice: String?,
        allowRedisplay: AllowRedisplay,
        motoConfiguration: MotoConfiguration?,
        skipDonation: Bool
    ) {
        self.skipTipping = skipTipping
        self.tippingConfiguration = tippingConfiguration
        self.updatePaymentIntent = updatePaymentIntent
        self.customerCancellation = customerCancellation
        self.requestDynamicCurrencyConversion = requestDynamicCurrencyConversion
        self.surchargeNotice = surchargeNotice
        self.allowRedisplay = allowRedisplay
        self.motoConfiguration = motoConfiguration
        self.skipDonation = skipDonation
        super.init()
    }

    /// `NSCopying`: a new object with the same values.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = CollectPaymentIntentConfiguration(
            surface: .backend,
            skipTipping: skipTipping,
            tippingConfiguration: tippingConfiguration,
            updatePaymentIntent: updatePaymentIntent,
            customerCancellation: customerCancellation,
            requestDynamicCurrencyConversion: requestDynamicCurrencyConversion,
            surchargeNotice: surchargeNotice,
            allowRedisplay: allowRedisplay,
            motoConfiguration: motoConfiguration,
            skipDonation: skipDonation
        )
        return copy
    }
}

/// `SCPCollectPaymentIntentConfigurationBuilder`: builds ``CollectPaymentIntentConfiguration``; `build()` throws when
/// the backend rejects the values.
public class CollectPaymentIntentConfigurationBuilder: SCPBuilder<CollectPaymentIntentConfiguration> {
    // Starting values are the reference's defaults: no tipping skip, `updatePaymentIntent` false, `customerCancellation`
    // enableIfAvailable (since 5.0), no DCC request, `allowRedisplay` unspecified, no donation skip.
    private var skipTipping: Bool = false
    private var tippingConfiguration: TippingConfiguration? = nil
    private var updatePaymentIntent: Bool = false
    private var customerCancellation: CustomerCancellation = .enableIfAvailable
    private var requestDynamicCurrencyConversion: Bool = false
    private var surchargeNotice: String? = nil
    private var allowRedisplay: AllowRedisplay = .unspecified
    private var motoConfiguration: MotoConfiguration? = nil
    private var skipDonation: Bool = false

    /// `-init (inherited from NSObject)`. Created as CollectPaymentIntentConfigurationBuilder().
    public override init() {
        super.init()
    }

    /// `build:`: the configured ``CollectPaymentIntentConfiguration``, or the error the backend reports for invalid
    /// values.
    @discardableResult
    public override func build() throws -> CollectPaymentIntentConfiguration {
        let product = CollectPaymentIntentConfiguration(
            surface: .backend,
            skipTipping: skipTipping,
            tippingConfiguration: tippingConfiguration,
            updatePaymentIntent: updatePaymentIntent,
            customerCancellation: customerCancellation,
            requestDynamicCurrencyConversion: requestDynamicCurrencyConversion,
            surchargeNotice: surchargeNotice,
            allowRedisplay: allowRedisplay,
            motoConfiguration: motoConfiguration,
            skipDonation: skipDonation
        )
        try SurfaceRuntime.backend(for: "CollectPaymentIntentConfigurationBuilder.build()").validate(.collectPaymentIntentConfiguration(product))
        return product
    }

    /// `-setSkipTipping:`: sets `skipTipping`.
    @discardableResult
    public func setSkipTipping(_ skipTipping: Bool) -> CollectPaymentIntentConfigurationBuilder {
        self.skipTipping = skipTipping
        return self
    }

    /// `-setTippingConfiguration:`: sets `tippingConfiguration`.
    @discardableResult
    public func setTippingConfiguration(_ tippingConfiguration: TippingConfiguration?) -> CollectPaymentIntentConfigurationBuilder {
        self.tippingConfiguration = tippingConfiguration
        return self
    }

    /// `-setUpdatePaymentIntent:`: sets `updatePaymentIntent`.
    @discardableResult
    public func setUpdatePaymentIntent(_ updatePaymentIntent: Bool) -> CollectPaymentIntentConfigurationBuilder {
        self.updatePaymentIntent = updatePaymentIntent
        return self
    }

    /// `-setCustomerCancellation:`: sets `customerCancellation`.
    @discardableResult
    public func setCustomerCancellation(_ customerCancellation: CustomerCancellation) -> CollectPaymentIntentConfigurationBuilder {
        self.customerCancellation = customerCancellation
        return self
    }

    /// `-setRequestDynamicCurrencyConversion:`: sets `requestDynamicCurrencyConversion`.
    @discardableResult
    public func setRequestDynamicCurrencyConversion(_ requestDynamicCurrencyConversion: Bool) -> CollectPaymentIntentConfigurationBuilder {
        self.requestDynamicCurrencyConversion = requestDynamicCurrencyConversion
        return self
    }

    /// `-setSurchargeNotice:`: sets `surchargeNotice`.
    @discardableResult
    public func setSurchargeNotice(_ surchargeNotice: String?) -> CollectPaymentIntentConfigurationBuilder {
        self.surchargeNotice = surchargeNotice
        return self
    }

    /// `-setAllowRedisplay:`: sets `allowRedisplay`.
    @discardableResult
    public func setAllowRedisplay(_ allowRedisplay: AllowRedisplay) -> CollectPaymentIntentConfigurationBuilder {
        self.allowRedisplay = allowRedisplay
        return self
    }

    /// `-setMotoConfiguration:`: sets `motoConfiguration`.
    @discardableResult
    public func setMotoConfiguration(_ motoConfiguration: MotoConfiguration?) -> CollectPaymentIntentConfigurationBuilder {
        self.motoConfiguration = motoConfiguration
        return self
    }

    /// `-setSkipDonation:`: sets `skipDonation`.
    @discardableResult
    public func setSkipDonation(_ skipDonation: Bool) -> CollectPaymentIntentConfigurationBuilder {
        self.skipDonation = skipDonation
        return self
    }
}

/// `SCPConfirmPaymentIntentConfiguration`. 5.x name of the 4.x ConfirmConfiguration (SCPConfirmConfiguration.h is
/// stale, outside the umbrella). init()/new unavailable.
public class ConfirmPaymentIntentConfiguration: NSObject, NSCopying {
    /// `SCPConfirmPaymentIntentConfiguration.returnUrl`.
    public private(set) var returnUrl: String? = nil
    /// `SCPConfirmPaymentIntentConfiguration.surcharge`.
    public private(set) var surcharge: SurchargeConfiguration? = nil

    /// Creates the configuration (its builder calls this).
    package init(surface: SurfaceConstruction, returnUrl: String?, surcharge: SurchargeConfiguration?) {
        self.returnUrl = returnUrl
        self.surcharge = surcharge
        super.init()
    }

    /// `NSCopying`: a new object with the same values.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = ConfirmPaymentIntentConfiguration(surface: .backend, returnUrl: returnUrl, surcharge: surcharge)
        return copy
    }
}

/// `SCPConfirmPaymentIntentConfigurationBuilder`: builds ``ConfirmPaymentIntentConfiguration``; `build()` throws when
/// the backend rejects the values.
public class ConfirmPaymentIntentConfigurationBuilder: SCPBuilder<ConfirmPaymentIntentConfiguration> {
    private var returnUrl: String? = nil
    private var surcharge: SurchargeConfiguration? = nil

    /// `-init (inherited from NSObject)`. Created as ConfirmPaymentIntentConfigurationBuilder().
    public override init() {
        super.init()
    }

    /// `build:`: the configured ``ConfirmPaymentIntentConfiguration``, or the error the backend reports for invalid
    /// values.
    @discardableResult
    public override func build() throws -> ConfirmPaymentIntentConfiguration {
        let product = ConfirmPaymentIntentConfiguration(surface: .backend, returnUrl: returnUrl, surcharge: surcharge)
        try SurfaceRuntime.backend(for: "ConfirmPaymentIntentConfigurationBuilder.build()").validate(.confirmPaymentIntentConfiguration(product))
        return product
    }

    /// `-setReturnUrl:`: sets `returnUrl`.
    @discardableResult
    public func setReturnUrl(_ returnUrl: String) -> ConfirmPaymentIntentConfigurationBuilder {
        self.returnUrl = returnUrl
        return self
    }

    /// `-setSurchargeConfiguration:`: sets `surcharge`.
    @discardableResult
    public func setSurchargeConfiguration(_ surchargeConfiguration: SurchargeConfiguration) -> ConfirmPaymentIntentConfigurationBuilder {
        self.surcharge = surchargeConfiguration
        return self
    }
}
