import Foundation
import StripeTerminalSurface
import TenderStripe

// The SDK's objects, built from the simulator's values as the SDK would hand them out: one `PaymentIntent` object per
// SDK handle of the simulator (updated in place when the simulator reports the same object again), one `Reader` object
// per serial number, NSNumber-boxed fields boxed, errors in `ErrorDomain` with their `userInfo`.
extension SimulatorSurfaceBackend {
    // MARK: Payment intents

    /// The SDK object for a simulator intent: the same object for the same simulator handle, updated to `value`.
    func sdkIntent(_ value: Stripe.PaymentIntent) -> PaymentIntent {
        let existing = state.withLock { state -> PaymentIntent? in
            guard let handle = value.sdkHandle else { return nil }
            state.values[handle] = value
            return state.intents[handle]
        }
        let object = existing ?? PaymentIntent(
            surface: .backend, amount: value.amount, captureMethod: surfaceCase(value.captureMethod), charges: [],
            created: value.created, currency: value.currency, livemode: false, status: surfaceCase(value.status))
        object.amount = value.amount
        object.currency = value.currency
        object.captureMethod = surfaceCase(value.captureMethod)
        object.status = surfaceCase(value.status)
        object.created = value.created
        object.stripeId = value.stripeId
        object.metadata = value.metadata.isEmpty ? nil : value.metadata
        object.clientSecret = value.clientSecret
        object.amountTip = value.amountTip.map { NSNumber(value: $0) }
        object.amountDetails = value.amountDetailsTip.map { tip in
            let details = AmountDetails(surface: .backend)
            details.tip = Tip(surface: .backend)
            details.tip?.amount = NSNumber(value: tip)
            return details
        }
        object.amountCapturable = value.amountCapturable.map { NSNumber(value: $0) }
        object.amountReceived = value.amountReceived.map { NSNumber(value: $0) }
        object.canceledAt = value.canceledAt
        object.cancellationReason = value.cancellationReason
        object.lastPaymentError = value.lastPaymentError.map(sdkApiError)
        object.charges = value.charges.map(sdkCharge)
        object.offlineDetails = value.offlineDetails.map(sdkOfflineDetails)
        if existing == nil, let handle = value.sdkHandle {
            state.withLock { state in
                state.intents[handle] = object
                state.handles[ObjectIdentifier(object)] = handle
            }
        }
        return object
    }

    /// The simulator's value for an SDK object the app passed back: the last value of its simulator handle, or (an
    /// object this backend never handed out) a value with no handle, which the simulator refuses.
    func simulatorIntent(for object: PaymentIntent) -> Stripe.PaymentIntent {
        state.withLock { state in
            state.received.append(object)
            if let handle = state.handles[ObjectIdentifier(object)], let value = state.values[handle] { return value }
            return Stripe.PaymentIntent(
                sdkHandle: nil, stripeId: object.stripeId, status: SurfaceCaseNames.adapter(object.status,
                                                                                            as: Stripe.PaymentIntentStatus.self) ?? .processing,
                amount: object.amount, currency: object.currency, captureMethod: .manual, created: object.created,
                metadata: object.metadata ?? [:])
        }
    }

    func sdkCharge(_ charge: Stripe.Charge) -> Charge {
        let object = Charge(surface: .backend, amount: charge.amount, currency: charge.currency,
                            status: surfaceCase(charge.status), metadata: [:], stripeId: charge.stripeId,
                            amountRefunded: charge.amountRefunded, captured: charge.captured,
                            paid: charge.status == .succeeded,
                            refunded: charge.amountRefunded > 0 && charge.amountRefunded >= charge.amount, livemode: false)
        let type: PaymentMethodType = charge.paymentMethodType == .interacPresent ? .interacPresent : .cardPresent
        let details = PaymentMethodDetails(surface: .backend, type: type)
        if let card = charge.cardPresentDetails.map(sdkCardPresentDetails) {
            if type == .interacPresent { details.interacPresent = card } else { details.cardPresent = card }
        }
        object.paymentMethodDetails = details
        return object
    }

    func sdkCardPresentDetails(_ details: Stripe.CardPresentDetails) -> CardPresentDetails {
        // The simulator does not model the funding type.
        let object = CardPresentDetails(surface: .backend, last4: details.last4 ?? "", expMonth: details.expMonth,
                                        expYear: details.expYear, funding: .other, brand: surfaceCase(details.brand),
                                        readMethod: surfaceCase(details.readMethod))
        object.cardholderName = details.cardholderName
        object.receipt = details.receiptDetails.map(sdkReceipt)
        object.captureBefore = details.captureBefore
        return object
    }

    /// `SCPReceiptDetails`: the SDK's non-optional fields get "" when the simulator has nothing for them (offline).
    func sdkReceipt(_ receipt: Stripe.ReceiptDetails) -> ReceiptDetails {
        let object = ReceiptDetails(
            surface: .backend, applicationPreferredName: receipt.applicationPreferredName ?? "",
            dedicatedFileName: receipt.dedicatedFileName ?? "",
            authorizationResponseCode: receipt.authorizationResponseCode ?? "",
            applicationCryptogram: receipt.applicationCryptogram ?? "",
            terminalVerificationResults: receipt.terminalVerificationResults ?? "",
            transactionStatusInformation: receipt.transactionStatusInformation ?? "",
            cardholderVerificationMethod: receipt.cardholderVerificationMethod ?? "")
        object.accountType = receipt.accountType
        object.authorizationCode = receipt.authorizationCode
        return object
    }

    func sdkOfflineDetails(_ details: Stripe.OfflineDetails) -> OfflineDetails {
        let object = OfflineDetails(surface: .backend, requiresUpload: details.requiresUpload)
        object.storedAt = details.storedAt
        if let card = details.cardPresentDetails {
            let offline = OfflineCardPresentDetails(surface: .backend, brand: surfaceCase(card.brand),
                                                    expMonth: card.expMonth, expYear: card.expYear,
                                                    readMethod: surfaceCase(card.readMethod))
            offline.last4 = card.last4
            offline.cardholderName = card.cardholderName
            offline.receiptDetails = card.receiptDetails.map(sdkReceipt)
            object.cardPresentDetails = offline
        }
        return object
    }

    func sdkApiError(_ error: Stripe.ApiError) -> ApiError {
        let object = ApiError(surface: .backend)
        object.type = error.type
        object.code = error.code
        object.message = error.message
        object.declineCode = error.declineCode
        object.charge = error.charge
        return object
    }

    // MARK: Readers and status

    /// The SDK object for a reader: the same object for the same serial number, updated to `value`.
    func sdkReader(_ value: Stripe.Reader) -> Reader {
        let object = state.withLock { state -> Reader in
            if let known = state.readers[value.serialNumber] { return known }
            let created = Reader(surface: .backend, deviceType: surfaceCase(value.deviceType), simulated: value.simulated,
                                 locationStatus: .notSet, serialNumber: value.serialNumber, livemode: false,
                                 batteryStatus: surfaceCase(value.batteryStatus), status: .offline)
            state.readers[value.serialNumber] = created
            return created
        }
        object.deviceType = surfaceCase(value.deviceType)
        object.simulated = value.simulated
        object.deviceSoftwareVersion = value.deviceSoftwareVersion
        object.batteryLevel = value.batteryLevel.map { NSNumber(value: $0) }
        object.batteryStatus = surfaceCase(value.batteryStatus)
        object.isCharging = value.isCharging.map { NSNumber(value: $0) }
        object.locationId = value.locationId
        object.locationStatus = value.locationId == nil ? .notSet : .set
        object.availableUpdate = value.availableUpdate.map(sdkUpdate)
        return object
    }

    /// The simulator's value for a reader object the app passed back.
    func simulatorReader(for object: Reader) -> Stripe.Reader {
        Stripe.Reader(serialNumber: object.serialNumber,
                      deviceType: SurfaceCaseNames.adapter(object.deviceType, as: Stripe.DeviceType.self) ?? .stripeM2,
                      simulated: object.simulated)
    }

    func sdkUpdate(_ update: Stripe.ReaderSoftwareUpdate) -> ReaderSoftwareUpdate {
        ReaderSoftwareUpdate(surface: .backend, durationEstimate: surfaceCase(update.durationEstimate),
                             deviceSoftwareVersion: update.deviceSoftwareVersion, components: [.firmware],
                             requiredAt: update.requiredAt, isTestUpdate: update.isTestUpdate)
    }

    func sdkOfflineStatus(_ status: Stripe.OfflineStatus) -> OfflineStatus {
        func details(_ details: Stripe.OfflineStatusDetails) -> OfflineStatusDetails {
            let object = OfflineStatusDetails(surface: .backend,
                                              paymentAmountsByCurrency: details.paymentAmountsByCurrency.mapValues {
                                                  NSNumber(value: $0)
                                              },
                                              networkStatus: surfaceCase(details.networkStatus))
            object.paymentsCount = details.paymentsCount.map { NSNumber(value: $0) }
            return object
        }
        let object = OfflineStatus(surface: .backend, sdk: details(status.sdk))
        object.reader = status.reader.map(details)
        return object
    }

    func sdkInputOptions(_ options: Stripe.ReaderInputOptions) -> ReaderInputOptions {
        var sdk: ReaderInputOptions = []
        if options.contains(.swipeCard) { sdk.insert(.swipeCard) }
        if options.contains(.insertCard) { sdk.insert(.insertCard) }
        if options.contains(.tapCard) { sdk.insert(.tapCard) }
        return sdk
    }

    // MARK: Errors

    /// The SDK's error for a simulator error outside confirmation: an `ErrorCode` with the code of the same name (a
    /// name the SDK does not have becomes `unexpectedSdkError`), the text keys, and the intent and API error under
    /// `ErrorKey.stripeAPIPaymentIntent` / `ErrorKey.stripeAPIError`.
    func sdkError(_ error: Stripe.ErrorCode) -> ErrorCode {
        var info = userInfo(error)
        if let intent = error.paymentIntent { info[ErrorKey.stripeAPIPaymentIntent.rawValue] = sdkIntent(intent) }
        return ErrorCode(sdkCode(error), userInfo: info)
    }

    /// The SDK's `ConfirmPaymentIntentError` for a simulator confirmation error: its `paymentIntent` is the error's
    /// intent (nil: the outcome is unknown), with the decline code and the API error.
    func confirmError(_ error: Stripe.ErrorCode) -> ConfirmPaymentIntentError {
        ConfirmPaymentIntentError(surface: .backend, code: sdkCode(error), userInfo: userInfo(error),
                                  paymentIntent: error.paymentIntent.map(sdkIntent),
                                  declineCode: error.declineCode, apiError: error.apiError.map(sdkApiError))
    }

    private func sdkCode(_ error: Stripe.ErrorCode) -> ErrorCode.Code {
        SurfaceCaseNames.errorCode(named: error.code.name) ?? .unexpectedSdkError
    }

    private func userInfo(_ error: Stripe.ErrorCode) -> [String: Any] {
        let keys: [(Stripe.ErrorKey, ErrorKey)] = [
            (.message, .message), (.stripeAPIDeclineCode, .stripeAPIDeclineCode),
            (.stripeAPIErrorCode, .stripeAPIErrorCode), (.stripeAPIFailureReason, .stripeAPIFailureReason),
            (.stripeAPIRequestId, .stripeAPIRequestId), (.offlineDeclineReason, .offlineDeclineReason),
            (.readerMessage, .readerMessage),
        ]
        var info: [String: Any] = [:]
        for (adapter, sdk) in keys { if let text = error.userInfo[adapter] { info[sdk.rawValue] = text } }
        if SurfaceCaseNames.errorCode(named: error.code.name) == nil {
            info[ErrorKey.message.rawValue] = "\(error.code.name): \(error.message)"
        }
        if let apiError = error.apiError { info[ErrorKey.stripeAPIError.rawValue] = sdkApiError(apiError) }
        return info
    }

    // MARK: Cancelables

    /// The SDK's `Cancelable` for a simulator command: `cancel` goes to the simulator's, its error converted.
    func sdkCancelable(_ cancelable: any Stripe.Cancelable) -> Cancelable {
        Cancelable(surface: .backend, isCompleted: { cancelable.completed }, cancel: { completion in
            let done = UncheckedSendableBox(completion)
            cancelable.cancel { [self] error in deliver { done.value(error.map(sdkError)) } }
        })
    }

    /// This module's case with the name of the adapter's `value`.
    func surfaceCase<Value: RawRepresentable, Target: RawRepresentable>(_ value: Value) -> Target
        where Value.RawValue == String, Target.RawValue: BinaryInteger {
        guard let found = SurfaceCaseNames.surface(named: value.rawValue, as: Target.self) else {
            preconditionFailure("SimulatorSurfaceBackend: \(Target.self) has no case \(value.rawValue)")
        }
        return found
    }
}
