#if TENDER_SURFACE_MIRROR           // test builds: the surface mirror (checked first, so tests never need the SDK)
import SquareMobilePaymentsSurface
#elseif SquareMobilePaymentsSDK     // the package trait: the real SDK
public import SquareMobilePaymentsSDK      // re-exports MobilePaymentsSDKAPI, the module of the SDK's protocols and types
#endif
#if SquareMobilePaymentsSDK || TENDER_SURFACE_MIRROR
import Foundation
package import TenderSquare

extension SquareMobilePaymentsBridge: Square.SettingsManager {
    /// `settingsManager.paymentSettings`, on the main actor, copied.
    package var paymentSettings: Square.PaymentSettings {
        get async { await paymentSettingsOnMain() }
    }

    @MainActor
    private func paymentSettingsOnMain() -> Square.PaymentSettings {
        SquareBridgeValues.paymentSettings(sdk.settingsManager.paymentSettings)
    }

    /// `settingsManager.sdkSettings`, on the main actor, copied.
    package var sdkSettings: Square.SDKSettings {
        get async { await sdkSettingsOnMain() }
    }

    @MainActor
    private func sdkSettingsOnMain() -> Square.SDKSettings {
        SquareBridgeValues.sdkSettings(sdk.settingsManager.sdkSettings)
    }
}
#endif
