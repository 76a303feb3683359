public import Foundation

// The SDK's completion-block typealiases (`SCPxxxBlock`, `NS_SWIFT_NAME`d), as Swift imports them. Objective-C blocks are
// not `@Sendable` in Swift, and neither are these. Types no bridge names (set-up intents, collect inputs…) are declared
// with their shape only, in PartialTypes.swift.

/// `SCPCollectInputsCompletionBlock`.
public typealias CollectInputsCompletionBlock = ([CollectInputsResult]?, (any Error)?) -> Void

/// `SCPCollectedDataCompletionBlock`.
public typealias CollectedDataCompletionBlock = (CollectedData?, (any Error)?) -> Void

/// `SCPConfirmPaymentIntentCompletionBlock`.
public typealias ConfirmPaymentIntentCompletionBlock = (PaymentIntent?, ConfirmPaymentIntentError?) -> Void

/// `SCPConfirmRefundCompletionBlock`.
public typealias ConfirmRefundCompletionBlock = (Refund?, ConfirmRefundError?) -> Void

/// `SCPConfirmSetupIntentCompletionBlock`.
public typealias ConfirmSetupIntentCompletionBlock = (SetupIntent?, ConfirmSetupIntentError?) -> Void

/// `SCPConnectionTokenCompletionBlock`.
public typealias ConnectionTokenCompletionBlock = (String?, (any Error)?) -> Void

/// `SCPErrorCompletionBlock`.
public typealias ErrorCompletionBlock = ((any Error)?) -> Void

/// `SCPLocationsCompletionBlock`.
public typealias LocationsCompletionBlock = ([Location]?, Bool, (any Error)?) -> Void

/// `SCPLogListenerBlock`.
public typealias LogListenerBlock = (String) -> Void

/// `SCPPaymentIntentCompletionBlock`.
public typealias PaymentIntentCompletionBlock = (PaymentIntent?, (any Error)?) -> Void

/// `SCPPaymentMethodCompletionBlock`.
public typealias PaymentMethodCompletionBlock = (PaymentMethod?, (any Error)?) -> Void

/// `SCPPaymentMethodSelectionCompletionBlock`.
public typealias PaymentMethodSelectionCompletionBlock = (PaymentOption?, (any Error)?) -> Void

/// `SCPQrCodeDisplayCompletionBlock`.
public typealias QrCodeDisplayCompletionBlock = ((any Error)?) -> Void

/// `SCPReaderCompletionBlock`.
public typealias ReaderCompletionBlock = (Reader?, (any Error)?) -> Void

/// `SCPReaderSettingsCompletionBlock`.
public typealias ReaderSettingsCompletionBlock = (ReaderSettings?, (any Error)?) -> Void

/// `SCPRefundCompletionBlock`.
public typealias RefundCompletionBlock = (Refund?, (any Error)?) -> Void

/// `SCPSetupIntentCompletionBlock`.
public typealias SetupIntentCompletionBlock = (SetupIntent?, (any Error)?) -> Void

/// `SCPTTPAccountLinkCompletionBlock`.
public typealias TTPAccountLinkCompletionBlock = (NSNumber?, (any Error)?) -> Void
