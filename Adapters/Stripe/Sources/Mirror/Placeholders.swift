public import Foundation

// Types that the described API mentions but the reference does not describe (its `referencedButNotDescribed` list):
// refunds, setup intents, collect inputs and data, tipping, MO/TO, surcharging, amount details, the other
// payment-method details, addresses, simulated offline mode, list parameters, and the QR-code payment options.
//
// Each is declared as an opaque class so that every described member that mentions it can be declared with its exact
// type; none has public members (the reference describes none), and none can be created outside this package. Kinds
// were checked with the search tool in the repository's public headers: each is an `NSObject` subclass
// (`NS_SWIFT_NAME`d to the name used here), except `ConfirmRefundError` and `ConfirmSetupIntentError`, which subclass
// `NSError`; their protocol conformances (`NSCopying`, `SCPJSONDecodable`) are not mirrored. A placeholder has less
// API than the SDK's type, never more, so code that compiles against it also compiles against the SDK.
//
// Not declared: `IncrementalAuthorizationStatus`, `MulticaptureStatus`, `ReauthorizationStatus` (enums in the SDK whose
// cases the reference does not give); the three `CardPresentDetails` properties of those types are left out.

/// `SCPAddress`: named by the described API, not described by the reference; opaque here.
public class Address: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPAffirmDetails`: named by the described API, not described by the reference; opaque here.
public class AffirmDetails: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPAmountDetails`: named by the described API, not described by the reference; opaque here.
public class AmountDetails: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPCardDetails`: named by the described API, not described by the reference; opaque here.
public class CardDetails: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPCollectInputsResult`: named by the described API, not described by the reference; opaque here.
public class CollectInputsResult: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPCollectedData`: named by the described API, not described by the reference; opaque here.
public class CollectedData: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPConfirmRefundError` (an `NSError` subclass): named by the described API, not described by the reference; opaque here.
public class ConfirmRefundError: NSError, @unchecked Sendable {
    /// Creates the error (for a backend).
    package convenience init(surface: SurfaceConstruction, code: ErrorCode.Code, userInfo: [String: Any] = [:]) {
        self.init(domain: ErrorDomain, code: code.rawValue, userInfo: userInfo)
    }
}

/// `SCPConfirmSetupIntentError` (an `NSError` subclass): named by the described API, not described by the reference; opaque here.
public class ConfirmSetupIntentError: NSError, @unchecked Sendable {
    /// Creates the error (for a backend).
    package convenience init(surface: SurfaceConstruction, code: ErrorCode.Code, userInfo: [String: Any] = [:]) {
        self.init(domain: ErrorDomain, code: code.rawValue, userInfo: userInfo)
    }
}

/// `SCPDynamicCurrencyConversion`: named by the described API, not described by the reference; opaque here.
public class DynamicCurrencyConversion: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPGeneratedFrom`: named by the described API, not described by the reference; opaque here.
public class GeneratedFrom: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPKlarnaDetails`: named by the described API, not described by the reference; opaque here.
public class KlarnaDetails: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPListLocationsParameters`: named by the described API, not described by the reference; opaque here.
public class ListLocationsParameters: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPMotoConfiguration`: named by the described API, not described by the reference; opaque here.
public class MotoConfiguration: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPNextAction`: named by the described API, not described by the reference; opaque here.
public class NextAction: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPPaymentMethodOptionsParameters`: named by the described API, not described by the reference; opaque here.
public class PaymentMethodOptionsParameters: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPPaymentOption`: named by the described API, not described by the reference; opaque here.
public class PaymentOption: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPPaynowDetails`: named by the described API, not described by the reference; opaque here.
public class PaynowDetails: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPPaypayDetails`: named by the described API, not described by the reference; opaque here.
public class PaypayDetails: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPQrCodeDisplayData`: named by the described API, not described by the reference; opaque here.
public class QrCodeDisplayData: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPReaderSettings`: named by the described API, not described by the reference; opaque here.
public class ReaderSettings: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPRefund`: named by the described API, not described by the reference; opaque here.
public class Refund: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPNetworks`: named by the described API, not described by the reference; opaque here.
public class SCPNetworks: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPWallet`: named by the described API, not described by the reference; opaque here.
public class SCPWallet: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPSetupIntent`: named by the described API, not described by the reference; opaque here.
public class SetupIntent: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPSimulatedCollectInputsResult`: named by the described API, not described by the reference; opaque here.
public class SimulatedCollectInputsResult: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPSimulatedOfflineModeConfiguration`: named by the described API, not described by the reference; opaque here.
public class SimulatedOfflineModeConfiguration: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPSurchargeConfiguration`: named by the described API, not described by the reference; opaque here.
public class SurchargeConfiguration: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPTippingConfiguration`: named by the described API, not described by the reference; opaque here.
public class TippingConfiguration: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}

/// `SCPWechatPayDetails`: named by the described API, not described by the reference; opaque here.
public class WechatPayDetails: NSObject {
    /// Creates the object (for a backend).
    package init(surface: SurfaceConstruction) {
        super.init()
    }
}
