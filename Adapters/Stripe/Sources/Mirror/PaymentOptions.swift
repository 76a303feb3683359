// Written from ../shared/reference/sdk-surface/full/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0:
// SCPPaymentOption.h, SCPQrCodeDisplayData.h; 5.1.0 preview: QR-based non-card payments). The bridge names both (it
// answers `MobileReaderDelegate`'s payment-method selection and QR-code display requests), so both are complete.
public import Foundation

/// `SCPPaymentOptionType` (`NS_ENUM`), imported with raw type `UInt`.
public enum PaymentOptionType: UInt, @unchecked Sendable {
    /// `SCPPaymentOptionTypeCard` = 0.
    case card = 0
    /// `SCPPaymentOptionTypeNonCard` = 1.
    case nonCard = 1
}

/// `SCPPaymentOption`: one way to pay, offered to `reader(_:didRequestPaymentMethodSelection:…)` and chosen through
/// its completion. The SDK marks `init()` unavailable: ``card()`` and ``nonCardPaymentOption(with:)`` make them.
public class PaymentOption: NSObject, NSCopying {
    /// `SCPPaymentOption.type`.
    public private(set) var type: PaymentOptionType
    /// `SCPPaymentOption.paymentMethodType`: meaningful only when ``type`` is `.nonCard`.
    public private(set) var paymentMethodType: PaymentMethodType

    /// Creates the option (for a backend, and for the two class factories).
    package required init(surface: SurfaceConstruction, type: PaymentOptionType, paymentMethodType: PaymentMethodType) {
        self.type = type
        self.paymentMethodType = paymentMethodType
        super.init()
    }

    /// `+card` (`NS_SWIFT_NAME(card())`): the card option.
    public class func card() -> Self {
        self.init(surface: .backend, type: .card, paymentMethodType: .cardPresent)
    }

    /// `+nonCardPaymentOptionWithPaymentMethodType:`: a non-card option for `paymentMethodType`.
    public class func nonCardPaymentOption(with paymentMethodType: PaymentMethodType) -> Self {
        self.init(surface: .backend, type: .nonCard, paymentMethodType: paymentMethodType)
    }

    /// `NSCopying`: immutable, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// `SCPQrCodeDisplayData`: what `reader(_:didRequestQrCodeDisplay:…)` asks the app to show. Made by the SDK only.
public class QrCodeDisplayData: NSObject, NSCopying {
    /// `SCPQrCodeDisplayData.paymentMethodType`.
    public private(set) var paymentMethodType: PaymentMethodType
    /// `SCPQrCodeDisplayData.qrCodeImageUrlPng`.
    public private(set) var qrCodeImageUrlPng: String
    /// `SCPQrCodeDisplayData.qrCodeImageUrlSvg`.
    public private(set) var qrCodeImageUrlSvg: String?
    /// `SCPQrCodeDisplayData.expiresAtMs`: milliseconds since the epoch (typed `TimeInterval`, as the SDK does).
    public private(set) var expiresAtMs: TimeInterval

    /// Creates the object as the SDK would hand it out (for a backend).
    package init(surface: SurfaceConstruction, paymentMethodType: PaymentMethodType, qrCodeImageUrlPng: String,
                 qrCodeImageUrlSvg: String?, expiresAtMs: TimeInterval) {
        self.paymentMethodType = paymentMethodType
        self.qrCodeImageUrlPng = qrCodeImageUrlPng
        self.qrCodeImageUrlSvg = qrCodeImageUrlSvg
        self.expiresAtMs = expiresAtMs
        super.init()
    }

    /// `NSCopying`: immutable, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}
