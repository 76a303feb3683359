public import Foundation

// Types the SDK's API names that no bridge file names (refund configuration aside, see Refunds.swift): set-up intents,
// collect inputs and data, tipping, MO/TO, surcharging, the other payment-method details, addresses,
// simulated offline mode, list parameters, reader display and settings, printing, easy connect, QR-code payments.
//
// Written from ../shared/reference/sdk-surface/full/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0). Each is
// declared with the reference's exact shape (kind, superclass, conformances) so that every member of a type a bridge
// does name (`Terminal`, `PaymentIntent`, `Reader`…) can be declared with its exact signature. Their own members are
// the SDK's but are not mirrored: no bridge uses them, and a bridge that starts to would name the type, which makes the
// mirror-vs-surface check require the type complete. Less API than the SDK's, never different API. None can be created
// outside this package.

/// `SCPAddress`. Shape only: no bridge names it, so its members are not mirrored.
public class Address: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPAffirmDetails`. Shape only: no bridge names it, so its members are not mirrored.
public class AffirmDetails: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPCardDetails`. Shape only: no bridge names it, so its members are not mirrored.
public class CardDetails: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPCollectInputsResult`. Shape only: no bridge names it, so its members are not mirrored.
public class CollectInputsResult: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPCollectedData`. Shape only: no bridge names it, so its members are not mirrored.
public class CollectedData: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPConfirmSetupIntentError`. Shape only: no bridge names it, so its members are not mirrored.
public class ConfirmSetupIntentError: NSError, @unchecked Sendable {
    /// Creates the error (for a backend).
    package convenience init(surface: SurfaceConstruction, code: ErrorCode.Code, userInfo: [String: Any] = [:]) {
        self.init(domain: ErrorDomain, code: code.rawValue, userInfo: userInfo)
    }
}

/// `SCPDynamicCurrencyConversion`. Shape only: no bridge names it, so its members are not mirrored.
public class DynamicCurrencyConversion: NSObject, NSCopying {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }

    /// `NSCopying`: immutable here, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// `SCPGeneratedFrom`. Shape only: no bridge names it, so its members are not mirrored.
public class GeneratedFrom: NSObject, NSCopying {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }

    /// `NSCopying`: immutable here, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// `SCPKlarnaDetails`. Shape only: no bridge names it, so its members are not mirrored.
public class KlarnaDetails: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPListLocationsParameters`. Shape only: no bridge names it, so its members are not mirrored.
public class ListLocationsParameters: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPMotoConfiguration`. Shape only: no bridge names it, so its members are not mirrored.
public class MotoConfiguration: NSObject, NSCopying {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }

    /// `NSCopying`: immutable here, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// `SCPNextAction`. Shape only: no bridge names it, so its members are not mirrored.
public class NextAction: NSObject, NSCopying {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }

    /// `NSCopying`: immutable here, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// `SCPPaymentMethodOptionsParameters`. Shape only: no bridge names it, so its members are not mirrored.
public class PaymentMethodOptionsParameters: NSObject, NSCopying {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }

    /// `NSCopying`: immutable here, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// `SCPPaynowDetails`. Shape only: no bridge names it, so its members are not mirrored.
public class PaynowDetails: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPPaypayDetails`. Shape only: no bridge names it, so its members are not mirrored.
public class PaypayDetails: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPReaderSettings`. Shape only: no bridge names it, so its members are not mirrored.
public class ReaderSettings: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPNetworks`. Shape only: no bridge names it, so its members are not mirrored.
public class SCPNetworks: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPWallet`. Shape only: no bridge names it, so its members are not mirrored.
public class SCPWallet: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPSetupIntent`. Shape only: no bridge names it, so its members are not mirrored.
public class SetupIntent: NSObject, NSCopying {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }

    /// `NSCopying`: immutable here, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// `SCPSimulatedCollectInputsResult`. Shape only: no bridge names it, so its members are not mirrored.
public class SimulatedCollectInputsResult: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPSimulatedOfflineModeConfiguration`. Shape only: no bridge names it, so its members are not mirrored.
public class SimulatedOfflineModeConfiguration: NSObject, NSCopying {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }

    /// `NSCopying`: immutable here, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// `SCPSurchargeConfiguration`. Shape only: no bridge names it, so its members are not mirrored.
public class SurchargeConfiguration: NSObject, NSCopying {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }

    /// `NSCopying`: immutable here, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// `SCPWechatPayDetails`. Shape only: no bridge names it, so its members are not mirrored.
public class WechatPayDetails: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPEasyConnectConfiguration`. Shape only: no bridge names it, so its members are not mirrored.
public class EasyConnectConfiguration: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPSetupIntentParameters`. Shape only: no bridge names it, so its members are not mirrored.
public class SetupIntentParameters: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPCollectSetupIntentConfiguration`. Shape only: no bridge names it, so its members are not mirrored.
public class CollectSetupIntentConfiguration: NSObject, NSCopying {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }

    /// `NSCopying`: immutable here, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// `SCPCollectInputsParameters`. Shape only: no bridge names it, so its members are not mirrored.
public class CollectInputsParameters: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPCollectDataConfiguration`. Shape only: no bridge names it, so its members are not mirrored.
public class CollectDataConfiguration: NSObject, NSCopying {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }

    /// `NSCopying`: immutable here, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// `SCPPrintContent`. Shape only: no bridge names it, so its members are not mirrored.
public class PrintContent: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}
/// `SCPReaderSettingsParameters`: the reference records no requirements.
public protocol ReaderSettingsParameters: NSObjectProtocol {}
