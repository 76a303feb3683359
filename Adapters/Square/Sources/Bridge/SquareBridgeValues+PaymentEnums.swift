#if TENDER_SURFACE_MIRROR           // test builds: the surface mirror (checked first, so tests never need the SDK)
import SquareMobilePaymentsSurface
#elseif SquareMobilePaymentsSDK     // the package trait: the real SDK
import SquareMobilePaymentsSDK      // re-exports MobilePaymentsSDKAPI, the module of the SDK's protocols and types
#endif
#if SquareMobilePaymentsSDK || TENDER_SURFACE_MIRROR
import TenderSquare

/// The SDK's payment and session enums to the adapter's, and back where the bridge builds SDK objects: a `switch`
/// per enum, each case mapped to the case of the same name (Square publishes no raw values; none is used). A case a
/// newer SDK adds reads as the value each function documents (`@unknown default`).
extension SquareBridgeValues {
    /// `Currency` → ``Square/Currency``; a currency this SDK version adds reads as `unknown`.
    static func value(_ currency: Currency) -> Square.Currency {
        switch currency {
        case .AUD: .AUD
        case .CAD: .CAD
        case .EUR: .EUR
        case .GBP: .GBP
        case .JPY: .JPY
        case .USD: .USD
        case .unknown: .unknown
        @unknown default: .unknown
        }
    }

    /// ``Square/Currency`` → `Currency`.
    static func sdk(_ currency: Square.Currency) -> Currency {
        switch currency {
        case .AUD: .AUD
        case .CAD: .CAD
        case .EUR: .EUR
        case .GBP: .GBP
        case .JPY: .JPY
        case .USD: .USD
        case .unknown: .unknown
        }
    }

    /// `ProcessingMode` → ``Square/ProcessingMode``; a mode this SDK version adds reads as `autoDetect` (the SDK's
    /// choice).
    static func value(_ mode: ProcessingMode) -> Square.ProcessingMode {
        switch mode {
        case .autoDetect: .autoDetect
        case .offlineOnly: .offlineOnly
        case .onlineOnly: .onlineOnly
        @unknown default: .autoDetect
        }
    }

    /// ``Square/ProcessingMode`` → `ProcessingMode`.
    static func sdk(_ mode: Square.ProcessingMode) -> ProcessingMode {
        switch mode {
        case .autoDetect: .autoDetect
        case .offlineOnly: .offlineOnly
        case .onlineOnly: .onlineOnly
        }
    }

    /// `DelayAction` → ``Square/DelayAction``; an action this SDK version adds reads as `cancel`, Square's default.
    static func value(_ action: DelayAction) -> Square.DelayAction {
        switch action {
        case .cancel: .cancel
        case .complete: .complete
        @unknown default: .cancel
        }
    }

    /// ``Square/DelayAction`` → `DelayAction`.
    static func sdk(_ action: Square.DelayAction) -> DelayAction {
        switch action {
        case .cancel: .cancel
        case .complete: .complete
        }
    }

    /// ``Square/PromptMode`` → `PromptMode`.
    static func sdk(_ mode: Square.PromptMode) -> PromptMode {
        switch mode {
        case .custom: .custom
        case .`default`: .`default`
        }
    }

    /// `AuthorizationState` → ``Square/AuthorizationState``; a state this SDK version adds reads as `notAuthorized`.
    static func value(_ state: AuthorizationState) -> Square.AuthorizationState {
        switch state {
        case .authorized: .authorized
        case .authorizing: .authorizing
        case .notAuthorized: .notAuthorized
        @unknown default: .notAuthorized
        }
    }

    /// `Environment` → ``Square/Environment``; an environment this SDK version adds reads as `sandbox` (no offline
    /// payments: the stricter reading).
    static func value(_ environment: Environment) -> Square.Environment {
        switch environment {
        case .production: .production
        case .sandbox: .sandbox
        @unknown default: .sandbox
        }
    }

    /// `PaymentStatus` → ``Square/PaymentStatus``; a status this SDK version adds reads as `unknown`.
    static func value(_ status: PaymentStatus) -> Square.PaymentStatus {
        switch status {
        case .approved: .approved
        case .canceled: .canceled
        case .completed: .completed
        case .failed: .failed
        case .initialized: .initialized
        case .pending: .pending
        case .unknown: .unknown
        @unknown default: .unknown
        }
    }

    /// `OfflineStatus` → ``Square/OfflineStatus``; a status this SDK version adds reads as `unknown`.
    static func value(_ status: OfflineStatus) -> Square.OfflineStatus {
        switch status {
        case .failedToProcess: .failedToProcess
        case .failedToUpload: .failedToUpload
        case .processed: .processed
        case .queued: .queued
        case .unknown: .unknown
        case .uploaded: .uploaded
        @unknown default: .unknown
        }
    }

    /// `SourceType` → ``Square/SourceType``; a source this SDK version adds reads as `unknown`.
    static func value(_ source: SourceType) -> Square.SourceType {
        switch source {
        case .bankAccount: .bankAccount
        case .card: .card
        case .cash: .cash
        case .external: .external
        case .squareAccount: .squareAccount
        case .unknown: .unknown
        case .wallet: .wallet
        @unknown default: .unknown
        }
    }

    /// `CardPaymentStatus` → ``Square/CardPaymentStatus``; a status this SDK version adds reads as `unknown`.
    static func value(_ status: CardPaymentStatus) -> Square.CardPaymentStatus {
        switch status {
        case .authorized: .authorized
        case .captured: .captured
        case .failed: .failed
        case .unknown: .unknown
        case .voided: .voided
        @unknown default: .unknown
        }
    }

    /// `CardEntryMethod` → ``Square/CardEntryMethod``; a method this SDK version adds reads as `unknown`.
    static func value(_ method: CardEntryMethod) -> Square.CardEntryMethod {
        switch method {
        case .contactless: .contactless
        case .emv: .emv
        case .keyed: .keyed
        case .onFile: .onFile
        case .swiped: .swiped
        case .unknown: .unknown
        @unknown default: .unknown
        }
    }

    /// `CardBrand` → ``Square/CardBrand``; a brand this SDK version adds reads as `unknown`.
    static func value(_ brand: CardBrand) -> Square.CardBrand {
        switch brand {
        case .americanExpress: .americanExpress
        case .chinaUnionPay: .chinaUnionPay
        case .discover: .discover
        case .discoverDiners: .discoverDiners
        case .ebt: .ebt
        case .eftpos: .eftpos
        case .felica: .felica
        case .interac: .interac
        case .jcb: .jcb
        case .mastercard: .mastercard
        case .otherBrand: .otherBrand
        case .squareCapitalCard: .squareCapitalCard
        case .squareGiftCard: .squareGiftCard
        case .unknown: .unknown
        case .visa: .visa
        @unknown default: .unknown
        }
    }

    /// `CardCoBrand` → ``Square/CardCoBrand``; a co-brand this SDK version adds reads as `unknown`.
    static func value(_ coBrand: CardCoBrand) -> Square.CardCoBrand {
        switch coBrand {
        case .afterpay: .afterpay
        case .none: .none
        case .unknown: .unknown
        @unknown default: .unknown
        }
    }
}
#endif
