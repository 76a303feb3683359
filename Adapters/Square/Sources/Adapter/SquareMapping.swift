import Foundation
package import Tender

/// Square's enums and types mapped to Tender's, by case. Every function is an exhaustive `switch` (no `default`), so a
/// case added to a mirror fails to compile until it is mapped; the tests walk every case as well.
package enum SquareMapping {
    // MARK: Routing

    /// The `ProcessingMode` for a routing decision: `.online` → `onlineOnly`, `.onlineWithOfflineFallback` →
    /// `autoDetect`, `.offline` → `offlineOnly`; `nil` for a refusal (Square is not called).
    package static func processingMode(for routing: RoutingDecision) -> Square.ProcessingMode? {
        switch routing {
        case .online: .onlineOnly
        case .onlineWithOfflineFallback: .autoDetect
        case .offline: .offlineOnly
        case .refused: nil
        }
    }

    /// The Tender policy a `ProcessingMode` corresponds to.
    package static func offlinePolicy(for mode: Square.ProcessingMode) -> OfflinePolicy {
        switch mode {
        case .onlineOnly: .requireOnline
        case .autoDetect: .preferOnline
        case .offlineOnly: .forceOffline
        }
    }

    // MARK: Statuses

    /// `OfflineStatus` → Tender's per-payment queue status (the table documented on ``OfflinePaymentStatus``).
    package static func offlinePaymentStatus(_ status: Square.OfflineStatus) -> OfflinePaymentStatus {
        switch status {
        case .queued: .stored
        case .uploaded: .uploaded
        case .failedToUpload: .failedToForward
        case .failedToProcess: .declinedAfterForwarding
        case .processed: .forwarded
        case .unknown: .unknown
        }
    }

    /// `OfflineStatus` → the session state it means, or `nil` when it says nothing new (`unknown`).
    package static func paymentState(_ status: Square.OfflineStatus) -> PaymentState? {
        switch status {
        case .queued, .uploaded: .storedOffline
        case .failedToUpload: .failedToForward
        case .failedToProcess: .declinedAfterForwarding
        case .processed: .forwarded
        case .unknown: nil
        }
    }

    /// `PaymentStatus` of an online payment → the session state.
    package static func paymentState(_ status: Square.PaymentStatus) -> PaymentState {
        switch status {
        case .initialized, .pending: .processing
        case .approved: .authorized
        case .completed: .succeeded
        case .canceled: .canceled
        case .failed: .declined
        case .unknown: .outcomeUnknown
        }
    }

    /// `CardPaymentStatus` → the session state.
    package static func paymentState(_ status: Square.CardPaymentStatus) -> PaymentState {
        switch status {
        case .authorized: .authorized
        case .captured: .succeeded
        case .voided: .canceled
        case .failed: .declined
        case .unknown: .outcomeUnknown
        }
    }

    /// `PaymentRefund.status` → Tender's refund status: `PENDING` → pending, `COMPLETED` → succeeded, `REJECTED` and
    /// `FAILED` → failed (nothing refunded).
    package static func refundStatus(_ status: Square.PaymentRefundStatus) -> RefundStatus {
        switch status {
        case .pending: .pending
        case .completed: .succeeded
        case .rejected, .failed: .failed
        }
    }

    // MARK: Cards

    /// `CardEntryMethod` → Tender's.
    package static func entryMethod(_ method: Square.CardEntryMethod) -> CardEntryMethod {
        switch method {
        case .contactless: .contactless
        case .emv: .chip
        case .keyed: .keyed
        case .onFile: .onFile
        case .swiped: .swiped
        case .unknown: .unknown
        }
    }

    /// `CardBrand` → Tender's.
    package static func cardBrand(_ brand: Square.CardBrand) -> CardBrand {
        switch brand {
        case .americanExpress: .amex
        case .chinaUnionPay: .unionPay
        case .discover: .discover
        case .discoverDiners: .dinersClub
        case .ebt: .ebt
        case .eftpos: .eftpos
        case .felica: .felica
        case .interac: .interac
        case .jcb: .jcb
        case .mastercard: .mastercard
        case .otherBrand, .squareCapitalCard: .other
        case .squareGiftCard: .giftCard
        case .unknown: .unknown
        case .visa: .visa
        }
    }

    /// Receipt details of an online payment.
    package static func cardDetails(_ details: Square.CardPaymentDetails) -> CardDetails {
        CardDetails(brand: cardBrand(details.card?.cardBrand ?? .unknown), last4: details.card?.last4,
                    entryMethod: entryMethod(details.entryMethod), applicationName: details.applicationName,
                    applicationIdentifier: details.applicationIdentifier, authorizationCode: details.authResultCode,
                    expiryMonth: details.card.map { Int($0.expMonth) }, expiryYear: details.card.map { Int($0.expYear) })
    }

    /// Receipt details of an offline payment: no authorization code and no expiry, which Square does not supply
    /// offline (absent, not invented).
    package static func cardDetails(_ details: Square.OfflineCardPaymentDetails) -> CardDetails {
        CardDetails(brand: cardBrand(details.card?.cardBrand ?? .unknown), last4: details.card?.last4,
                    entryMethod: entryMethod(details.entryMethod), applicationName: details.applicationName,
                    applicationIdentifier: details.applicationIdentifier)
    }

    // MARK: Money

    /// `Currency` → Tender's; `nil` for `unknown`.
    package static func currency(_ currency: Square.Currency) -> Currency? {
        switch currency {
        case .AUD: .aud
        case .CAD: .cad
        case .EUR: .eur
        case .GBP: .gbp
        case .JPY: .jpy
        case .USD: .usd
        case .unknown: nil
        }
    }

    /// Tender's currency → Square's; `nil` outside Square's six.
    package static func squareCurrency(_ currency: Currency) -> Square.Currency? {
        Square.Currency.allCases.first { self.currency($0) == currency }
    }

    /// The currencies Square accepts, as Tender's.
    package static var supportedCurrencies: Set<Currency> { Set(Square.Currency.allCases.compactMap(currency)) }

    /// Tender's money → Square's `Money(amount: UInt, currency:)`.
    /// - Throws: ``PaymentError/Code/invalidCurrency`` outside Square's six currencies,
    ///   ``PaymentError/Code/invalidAmount`` for a negative amount: never a silent truncation.
    package static func squareMoney(_ money: Money) throws(PaymentError) -> Square.Money {
        guard let currency = squareCurrency(money.currency) else {
            throw PaymentError(.invalidCurrency, recovery: .fixRequest, phase: .validation,
                               message: "Square does not take \(money.currency.code); it takes AUD, CAD, EUR, GBP, JPY and USD.")
        }
        return Square.Money(amount: try money.unsignedMinorUnits(), currency: currency)
    }

    /// Square's money → Tender's; `nil` for an unknown currency or an amount beyond 64-bit minor units.
    package static func money(_ money: Square.Money) -> Money? {
        guard let currency = currency(money.currency), money.amount <= UInt(Int64.max) else { return nil }
        return Money(minorUnits: Int64(money.amount), currency: currency)
    }

    // MARK: Readers

    /// `CardInputMethods` → Tender's input options.
    package static func inputOptions(_ methods: Square.CardInputMethods) -> ReaderInputOptions {
        var options: ReaderInputOptions = []
        if methods.contains(.chip) { options.insert(.insert) }
        if methods.contains(.contactless) { options.insert(.tap) }
        if methods.contains(.swipe) { options.insert(.swipe) }
        return options
    }

    /// `ReaderStatus` → Tender's connection status.
    package static func connectionStatus(_ status: Square.ReaderStatus) -> ReaderConnectionStatus {
        switch status {
        case .connectingToDevice, .connectingToSquare: .connecting
        case .ready: .connected
        case .readerUnavailable, .faulty: .notConnected
        }
    }

    /// `ReaderUnavailableReason` → why the reader dropped out, for ``ProcessorEvent/readerDisconnected(_:)``.
    package static func disconnectReason(_ reason: Square.ReaderUnavailableReason) -> ReaderDisconnectReason {
        switch reason {
        case .blockingFirmwareUpdate: .rebooted
        case .bluetoothDisabled, .bluetoothFailure, .readerTimeout: .linkLost
        case .revokedByDevice, .maxReadersConnected, .tapToPayIsNotLinked: .pairingRemoved
        case .notConnectedToInternet, .secureConnectionNetworkFailure, .secureConnectionToSquareFailure: .networkLost
        case .internalError, .tapToPayError: .unknown
        }
    }

    /// `ReaderInfo` → Tender's reader.
    package static func reader(_ info: Square.ReaderInfo, locationID: String?, isSimulated: Bool) -> Reader {
        Reader(id: String(info.id), serialNumber: info.serialNumber, model: info.model.caseName,
               kind: info.model.kind, features: info.model.features,
               availableUpdate: info.statusInfo.unavailableReasonInfo?.reason == .blockingFirmwareUpdate
                   ? ReaderSoftwareUpdate(version: info.firmwareInfo?.version ?? "unknown", isRequired: true) : nil,
               softwareVersion: info.firmwareInfo?.version,
               batteryLevel: info.batteryStatus.map { Double($0.percentage) / 100 },
               isCharging: info.batteryStatus?.isCharging, locationID: locationID, isSimulated: isSimulated)
    }

    /// A pairing failure (`readerPairingDidFail(with:)`) → Tender's error, by case; an error that is not a
    /// ``Square/ReaderPairingError`` maps to the table's documented fallback.
    package static func pairingError(_ error: any Error) -> PaymentError {
        if let error = error as? Square.ReaderPairingError { return error.tenderError }
        return SquareErrorTable.readerPairingError.error(named: String(describing: error), phase: .readerConnection)
    }

    /// The error for a reader that is not ready: its unavailable reason's row, or a fault / not-connected error.
    package static func readerError(_ status: Square.ReaderStatusInfo) -> PaymentError? {
        switch status.status {
        case .ready: return nil
        case .readerUnavailable:
            if let reason = status.unavailableReasonInfo?.reason { return reason.tenderError }
            return PaymentError(.readerNotConnected, recovery: .reconnectReader, phase: .readerConnection,
                                message: "The Square reader is unavailable.",
                                vendor: .init(processor: SquareErrorTable.processor, name: status.status.caseName))
        case .connectingToDevice, .connectingToSquare:
            return PaymentError(.readerNotConnected, recovery: .waitAndRetry, phase: .readerConnection,
                                message: "The Square reader is still connecting.",
                                vendor: .init(processor: SquareErrorTable.processor, name: status.status.caseName))
        case .faulty:
            return PaymentError(.readerFault, recovery: .reconnectReader, phase: .readerConnection,
                                message: "The Square reader is faulty and may need replacing.",
                                vendor: .init(processor: SquareErrorTable.processor, name: status.status.caseName))
        }
    }
}
