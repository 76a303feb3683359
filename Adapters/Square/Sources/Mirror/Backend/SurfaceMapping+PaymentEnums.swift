import Foundation
import SquareMobilePaymentsSurface
import TenderSquare

/// The simulator's values (``Square``) to the mirror's enums and back, by case name: what the backend needs to hand
/// out SDK objects built from the simulator's answers, and to read the SDK objects the bridge builds.
enum SurfaceMapping {
    /// The mirror's `PaymentError` for a simulator error, by case name; `nil` for the three cases Square removed
    /// before 2.5 (`idempotencyKeyReused`, `noNetworkAndMerchantNotOptedIntoOfflineProcessing`,
    /// `paymentAttemptIdRequiredForSCA`), which a 2.5 SDK cannot report.
    static func sdk(_ value: Square.PaymentError) -> PaymentError? {
        switch value {
        case .deviceTimeDoesNotMatchServerTime: .deviceTimeDoesNotMatchServerTime
        case .invalidPaymentParameters: .invalidPaymentParameters
        case .invalidPaymentSource: .invalidPaymentSource
        case .locationPermissionNeeded: .locationPermissionNeeded
        case .merchantNotOptedIntoOfflineProcessing: .merchantNotOptedIntoOfflineProcessing
        case .noNetwork: .noNetwork
        case .notAuthorized: .notAuthorized
        case .offlineStoredAmountExceeded: .offlineStoredAmountExceeded
        case .offlineTransactionAmountExceeded: .offlineTransactionAmountExceeded
        case .paymentAlreadyInProgress: .paymentAlreadyInProgress
        case .paymentAttemptIdReused: .paymentAttemptIdReused
        case .sandboxUnsupportedForOfflineProcessing: .sandboxUnsupportedForOfflineProcessing
        case .timedOut: .timedOut
        case .trackingConsentIsPending: .trackingConsentIsPending
        case .unexpected: .unexpected
        case .unsupportedMode: .unsupportedMode
        case .idempotencyKeyReused, .noNetworkAndMerchantNotOptedIntoOfflineProcessing, .paymentAttemptIdRequiredForSCA:
            nil
        }
    }

    /// ``Square/Currency`` → the mirror's `Currency`, by case name.
    static func sdk(_ value: Square.Currency) -> Currency {
        switch value {
        case .AUD: .AUD
        case .CAD: .CAD
        case .EUR: .EUR
        case .GBP: .GBP
        case .JPY: .JPY
        case .USD: .USD
        case .unknown: .unknown
        }
    }

    /// ``Square/ProcessingMode`` → the mirror's `ProcessingMode`, by case name.
    static func sdk(_ value: Square.ProcessingMode) -> ProcessingMode {
        switch value {
        case .autoDetect: .autoDetect
        case .offlineOnly: .offlineOnly
        case .onlineOnly: .onlineOnly
        }
    }

    /// ``Square/DelayAction`` → the mirror's `DelayAction`, by case name.
    static func sdk(_ value: Square.DelayAction) -> DelayAction {
        switch value {
        case .cancel: .cancel
        case .complete: .complete
        }
    }

    /// ``Square/AuthorizationState`` → the mirror's `AuthorizationState`, by case name.
    static func sdk(_ value: Square.AuthorizationState) -> AuthorizationState {
        switch value {
        case .authorized: .authorized
        case .authorizing: .authorizing
        case .notAuthorized: .notAuthorized
        }
    }

    /// ``Square/Environment`` → the mirror's `Environment`, by case name.
    static func sdk(_ value: Square.Environment) -> Environment {
        switch value {
        case .production: .production
        case .sandbox: .sandbox
        }
    }

    /// ``Square/PaymentStatus`` → the mirror's `PaymentStatus`, by case name.
    static func sdk(_ value: Square.PaymentStatus) -> PaymentStatus {
        switch value {
        case .approved: .approved
        case .canceled: .canceled
        case .completed: .completed
        case .failed: .failed
        case .initialized: .initialized
        case .pending: .pending
        case .unknown: .unknown
        }
    }

    /// ``Square/OfflineStatus`` → the mirror's `OfflineStatus`, by case name.
    static func sdk(_ value: Square.OfflineStatus) -> OfflineStatus {
        switch value {
        case .failedToProcess: .failedToProcess
        case .failedToUpload: .failedToUpload
        case .processed: .processed
        case .queued: .queued
        case .unknown: .unknown
        case .uploaded: .uploaded
        }
    }

    /// ``Square/SourceType`` → the mirror's `SourceType`, by case name.
    static func sdk(_ value: Square.SourceType) -> SourceType {
        switch value {
        case .bankAccount: .bankAccount
        case .card: .card
        case .cash: .cash
        case .external: .external
        case .squareAccount: .squareAccount
        case .unknown: .unknown
        case .wallet: .wallet
        }
    }

    /// ``Square/CardPaymentStatus`` → the mirror's `CardPaymentStatus`, by case name.
    static func sdk(_ value: Square.CardPaymentStatus) -> CardPaymentStatus {
        switch value {
        case .authorized: .authorized
        case .captured: .captured
        case .failed: .failed
        case .unknown: .unknown
        case .voided: .voided
        }
    }

    /// ``Square/CardEntryMethod`` → the mirror's `CardEntryMethod`, by case name.
    static func sdk(_ value: Square.CardEntryMethod) -> CardEntryMethod {
        switch value {
        case .contactless: .contactless
        case .emv: .emv
        case .keyed: .keyed
        case .onFile: .onFile
        case .swiped: .swiped
        case .unknown: .unknown
        }
    }

    /// ``Square/CardBrand`` → the mirror's `CardBrand`, by case name.
    static func sdk(_ value: Square.CardBrand) -> CardBrand {
        switch value {
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
        }
    }

    /// ``Square/CardCoBrand`` → the mirror's `CardCoBrand`, by case name.
    static func sdk(_ value: Square.CardCoBrand) -> CardCoBrand {
        switch value {
        case .afterpay: .afterpay
        case .none: .none
        case .unknown: .unknown
        }
    }

    /// The mirror's `Currency` → ``Square/Currency``, by case name.
    static func value(_ value: Currency) -> Square.Currency {
        switch value {
        case .AUD: .AUD
        case .CAD: .CAD
        case .EUR: .EUR
        case .GBP: .GBP
        case .JPY: .JPY
        case .USD: .USD
        case .unknown: .unknown
        }
    }

    /// The mirror's `ProcessingMode` → ``Square/ProcessingMode``, by case name.
    static func value(_ value: ProcessingMode) -> Square.ProcessingMode {
        switch value {
        case .autoDetect: .autoDetect
        case .offlineOnly: .offlineOnly
        case .onlineOnly: .onlineOnly
        }
    }

    /// The mirror's `DelayAction` → ``Square/DelayAction``, by case name.
    static func value(_ value: DelayAction) -> Square.DelayAction {
        switch value {
        case .cancel: .cancel
        case .complete: .complete
        }
    }

    /// The mirror's `PromptMode` → ``Square/PromptMode``, by case name.
    static func value(_ value: PromptMode) -> Square.PromptMode {
        switch value {
        case .custom: .custom
        case .`default`: .`default`
        }
    }

}
