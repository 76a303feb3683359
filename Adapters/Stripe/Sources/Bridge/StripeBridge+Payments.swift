#if TENDER_SURFACE_MIRROR
import StripeTerminalSurface
#elseif StripeTerminalSDK
import StripeTerminal
#endif

#if StripeTerminalSDK || TENDER_SURFACE_MIRROR
import Foundation
import class Tender.CallbackResult
package import TenderStripe

extension StripeTerminalBridge {
    // MARK: Creating and retrieving

    /// `createPaymentIntent(_:createConfig:completion:)` with parameters from `PaymentIntentParametersBuilder` and the
    /// offline behaviour from `CreateConfigurationBuilder` (either builder's error is thrown, nothing is created).
    package func createPaymentIntent(_ parameters: Stripe.PaymentIntentParameters,
                                    createConfig: Stripe.CreateConfiguration?) async throws(Stripe.ErrorCode)
        -> Stripe.PaymentIntent {
        let answer = CallbackResult<Result<Stripe.PaymentIntent, Stripe.ErrorCode>>()
        await startCreation(parameters, createConfig: createConfig, answer: answer)
        return try await answer.value.get()
    }

    @MainActor private func startCreation(_ parameters: Stripe.PaymentIntentParameters,
                                          createConfig: Stripe.CreateConfiguration?,
                                          answer: CallbackResult<Result<Stripe.PaymentIntent, Stripe.ErrorCode>>) {
        let registry = registry
        let sdkParameters: PaymentIntentParameters
        let sdkConfiguration: CreateConfiguration?
        do {
            sdkParameters = try PaymentIntentParametersBuilder(amount: parameters.amount, currency: parameters.currency)
                .setPaymentMethodTypes(parameters.paymentMethodTypes.compactMap(Self.sdkPaymentMethodType))
                .setCaptureMethod(Self.sdkCaptureMethod(parameters.captureMethod))
                .setMetadata(parameters.metadata)
                .setStripeDescription(parameters.stripeDescription)
                .build()
            sdkConfiguration = try createConfig.map {
                try CreateConfigurationBuilder().setOfflineBehavior(Self.sdkOfflineBehavior($0.offlineBehavior)).build()
            }
        } catch {
            return answer.resume(.failure(StripeBridgeErrors.translate(error, registry: registry)))
        }
        terminal.createPaymentIntent(sdkParameters, createConfig: sdkConfiguration) { @Sendable intent, error in
            answer.resume(Self.result(intent, error, registry: registry, call: "createPaymentIntent"))
        }
    }

    /// `retrievePaymentIntent(clientSecret:completion:)`: a new SDK object (a new handle) for an intent Stripe holds.
    package func retrievePaymentIntent(clientSecret: String) async throws(Stripe.ErrorCode) -> Stripe.PaymentIntent {
        let answer = CallbackResult<Result<Stripe.PaymentIntent, Stripe.ErrorCode>>()
        await startRetrieval(clientSecret, answer: answer)
        return try await answer.value.get()
    }

    @MainActor private func startRetrieval(_ clientSecret: String,
                                           answer: CallbackResult<Result<Stripe.PaymentIntent, Stripe.ErrorCode>>) {
        let registry = registry
        terminal.retrievePaymentIntent(clientSecret: clientSecret) { @Sendable intent, error in
            answer.resume(Self.result(intent, error, registry: registry, call: "retrievePaymentIntent"))
        }
    }

    // MARK: Collecting, confirming, canceling

    /// `collectPaymentMethod(_:collectConfig:completion:)` on the registered object, with `skipTipping`,
    /// `tippingConfiguration` (`TippingConfigurationBuilder().setEligibleAmount(_:)`: the amount the reader's tip
    /// suggestions are computed on) and `updatePaymentIntent` from `CollectPaymentIntentConfigurationBuilder`. An
    /// unknown handle is refused (`confirmInvalidPaymentIntent`, no intent) without calling the SDK, as is a builder's
    /// error.
    package func collectPaymentMethod(_ paymentIntent: Stripe.PaymentIntent,
                                     collectConfig: Stripe.CollectPaymentIntentConfiguration?,
                                     completion: @escaping @Sendable (Stripe.PaymentIntent?, Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        await startCollection(paymentIntent, collectConfig: collectConfig, completion: completion)
    }

    @MainActor private func startCollection(
        _ paymentIntent: Stripe.PaymentIntent, collectConfig: Stripe.CollectPaymentIntentConfiguration?,
        completion: @escaping @Sendable (Stripe.PaymentIntent?, Stripe.ErrorCode?) -> Void
    ) -> (any Stripe.Cancelable)? {
        let registry = registry
        guard let object = registry.intent(for: paymentIntent.sdkHandle) else {
            completion(nil, Self.unknownHandle(paymentIntent, call: "collectPaymentMethod", registry: registry))
            return StripeBridgeRefusal()
        }
        let configuration: CollectPaymentIntentConfiguration?
        do {
            configuration = try collectConfig.map {
                try CollectPaymentIntentConfigurationBuilder().setSkipTipping($0.skipTipping)
                    .setTippingConfiguration(try $0.tippingConfiguration.map(Self.sdkTippingConfiguration))
                    .setUpdatePaymentIntent($0.updatePaymentIntent).build()
            }
        } catch {
            completion(nil, StripeBridgeErrors.translate(error, registry: registry))
            return StripeBridgeRefusal()
        }
        let cancelable = terminal.collectPaymentMethod(object, collectConfig: configuration) { @Sendable intent, error in
            switch Self.result(intent, error, registry: registry, call: "collectPaymentMethod") {
            case .success(let value): completion(value, nil)
            case .failure(let error): completion(nil, error)
            }
        }
        return cancelable.map { StripeBridgeCancelable($0, registry: registry) }
    }

    /// `confirmPaymentIntent(_:confirmConfig:completion:)` on the registered object. The error is the SDK's
    /// `ConfirmPaymentIntentError`, whose `paymentIntent` (nil: outcome unknown) becomes the error's intent. An unknown
    /// handle is refused (`confirmInvalidPaymentIntent`) without calling the SDK and with no intent: the adapter then
    /// asks Stripe what happened rather than assume nothing did.
    package func confirmPaymentIntent(_ paymentIntent: Stripe.PaymentIntent,
                                     confirmConfig: Stripe.ConfirmPaymentIntentConfiguration?,
                                     completion: @escaping @Sendable (Stripe.PaymentIntent?, Stripe.ErrorCode?) -> Void)
        async -> (any Stripe.Cancelable)? {
        await startConfirmation(paymentIntent, confirmConfig: confirmConfig, completion: completion)
    }

    @MainActor private func startConfirmation(
        _ paymentIntent: Stripe.PaymentIntent, confirmConfig: Stripe.ConfirmPaymentIntentConfiguration?,
        completion: @escaping @Sendable (Stripe.PaymentIntent?, Stripe.ErrorCode?) -> Void
    ) -> (any Stripe.Cancelable)? {
        let registry = registry
        guard let object = registry.intent(for: paymentIntent.sdkHandle) else {
            completion(nil, Self.unknownHandle(paymentIntent, call: "confirmPaymentIntent", registry: registry))
            return StripeBridgeRefusal()
        }
        let configuration: ConfirmPaymentIntentConfiguration?
        do {
            configuration = try confirmConfig?.returnUrl.map {
                try ConfirmPaymentIntentConfigurationBuilder().setReturnUrl($0).build()
            }
        } catch {
            completion(nil, StripeBridgeErrors.translate(error, registry: registry))
            return StripeBridgeRefusal()
        }
        let cancelable = terminal.confirmPaymentIntent(object, confirmConfig: configuration) { @Sendable intent, error in
            switch Self.result(intent, error, registry: registry, call: "confirmPaymentIntent") {
            case .success(let value): completion(value, nil)
            case .failure(let error): completion(nil, error)
            }
        }
        return cancelable.map { StripeBridgeCancelable($0, registry: registry) }
    }

    /// `cancelPaymentIntent(_:completion:)` on the registered object (an unknown handle is refused with
    /// `confirmInvalidPaymentIntent` without calling the SDK).
    package func cancelPaymentIntent(_ paymentIntent: Stripe.PaymentIntent) async throws(Stripe.ErrorCode)
        -> Stripe.PaymentIntent {
        let answer = CallbackResult<Result<Stripe.PaymentIntent, Stripe.ErrorCode>>()
        await startCancellation(paymentIntent, answer: answer)
        return try await answer.value.get()
    }

    @MainActor private func startCancellation(_ paymentIntent: Stripe.PaymentIntent,
                                              answer: CallbackResult<Result<Stripe.PaymentIntent, Stripe.ErrorCode>>) {
        let registry = registry
        guard let object = registry.intent(for: paymentIntent.sdkHandle) else {
            return answer.resume(.failure(Self.unknownHandle(paymentIntent, call: "cancelPaymentIntent",
                                                             registry: registry)))
        }
        terminal.cancelPaymentIntent(object) { @Sendable intent, error in
            answer.resume(Self.result(intent, error, registry: registry, call: "cancelPaymentIntent"))
        }
    }

    // MARK: Answers

    /// A completion's `(intent?, error?)` as a result: the intent registered and converted, or the error translated
    /// ((nil, nil), a broken contract, becomes `unexpectedSdkError`).
    static func result(_ intent: PaymentIntent?, _ error: (any Error)?, registry: StripeObjectRegistry,
                       call: String) -> Result<Stripe.PaymentIntent, Stripe.ErrorCode> {
        if let error { return .failure(StripeBridgeErrors.translate(error, registry: registry)) }
        guard let intent else {
            let broken = StripeBridgeErrors.sdkError(.unexpectedSdkError, "\(call) completed with neither intent nor error.")
            return .failure(StripeBridgeErrors.translate(broken, registry: registry))
        }
        return .success(value(of: intent, registry: registry))
    }

    /// The refusal for a handle the registry does not hold (a server copy, an earlier launch's, or forgotten).
    static func unknownHandle(_ intent: Stripe.PaymentIntent, call: String, registry: StripeObjectRegistry)
        -> Stripe.ErrorCode {
        let description = intent.sdkHandle.map { "handle \($0)" } ?? "no SDK handle (a server copy)"
        let error = StripeBridgeErrors.sdkError(
            .confirmInvalidPaymentIntent,
            "\(call): the PaymentIntent (\(description)) is not an object this launch's SDK handed out; retrieve it "
                + "with retrievePaymentIntent(clientSecret:) first.")
        return StripeBridgeErrors.translate(error, registry: registry)
    }

    // MARK: Payment values

    /// An SDK intent as the adapter's value, registered (its handle is ``Stripe/PaymentIntent/sdkHandle``).
    /// NSNumber-boxed amounts are unboxed; a nil `metadata` is empty. The on-reader tip after confirmation is
    /// `amountDetails.tip` (the offline details' breakdown when the intent has none): a portion of `amount`.
    static func value(of intent: PaymentIntent, registry: StripeObjectRegistry) -> Stripe.PaymentIntent {
        Stripe.PaymentIntent(
            sdkHandle: registry.handle(for: intent), stripeId: intent.stripeId, status: value(of: intent.status),
            amount: intent.amount, currency: intent.currency, captureMethod: value(of: intent.captureMethod),
            created: intent.created, metadata: intent.metadata ?? [:],
            offlineDetails: intent.offlineDetails.map(value(of:)), charges: intent.charges.map(value(of:)),
            clientSecret: intent.clientSecret, amountTip: intent.amountTip?.uintValue,
            amountDetailsTip: (intent.amountDetails ?? intent.offlineDetails?.amountDetails)?.tip?.amount?.uintValue,
            amountCapturable: intent.amountCapturable?.uintValue,
            lastPaymentError: intent.lastPaymentError.map(StripeBridgeErrors.value(of:)),
            canceledAt: intent.canceledAt, cancellationReason: intent.cancellationReason,
            amountReceived: intent.amountReceived?.uintValue)
    }

    /// `SCPCharge`, its payment method details flattened to the card-present ones.
    static func value(of charge: Charge) -> Stripe.Charge {
        let details = charge.paymentMethodDetails
        return Stripe.Charge(
            stripeId: charge.stripeId, amount: charge.amount, currency: charge.currency, status: value(of: charge.status),
            captured: charge.captured, amountRefunded: charge.amountRefunded,
            paymentMethodType: details.map { value(of: $0.type) } ?? .unknown,
            cardPresentDetails: (details?.cardPresent ?? details?.interacPresent).map(value(of:)))
    }

    /// `SCPCardPresentDetails` (online): what a receipt may show, never the card number.
    static func value(of details: CardPresentDetails) -> Stripe.CardPresentDetails {
        Stripe.CardPresentDetails(brand: value(of: details.brand), last4: details.last4, expMonth: details.expMonth,
                                  expYear: details.expYear, readMethod: value(of: details.readMethod),
                                  cardholderName: details.cardholderName, receiptDetails: details.receipt.map(value(of:)),
                                  captureBefore: details.captureBefore)
    }

    /// `SCPReceiptDetails`. The SDK declares most fields non-optional; an empty one (offline, the SDK cannot know
    /// `authorizationResponseCode`) is absent here, never an empty string on a receipt.
    static func value(of receipt: ReceiptDetails) -> Stripe.ReceiptDetails {
        func present(_ text: String?) -> String? { text?.isEmpty == false ? text : nil }
        return Stripe.ReceiptDetails(
            accountType: present(receipt.accountType), applicationPreferredName: present(receipt.applicationPreferredName),
            dedicatedFileName: present(receipt.dedicatedFileName), authorizationCode: present(receipt.authorizationCode),
            authorizationResponseCode: present(receipt.authorizationResponseCode),
            applicationCryptogram: present(receipt.applicationCryptogram),
            terminalVerificationResults: present(receipt.terminalVerificationResults),
            transactionStatusInformation: present(receipt.transactionStatusInformation),
            cardholderVerificationMethod: present(receipt.cardholderVerificationMethod))
    }

    /// `PaymentIntentStatus` by case. A newer SDK's status is read as `processing`: unfinished, so the adapter asks
    /// Stripe rather than take it as a success or a failure.
    static func value(of status: PaymentIntentStatus) -> Stripe.PaymentIntentStatus {
        switch status {
        case .requiresPaymentMethod: .requiresPaymentMethod
        case .requiresConfirmation: .requiresConfirmation
        case .requiresAction: .requiresAction
        case .requiresCapture: .requiresCapture
        case .processing: .processing
        case .canceled: .canceled
        case .succeeded: .succeeded
        case .requiresReauthorization: .requiresReauthorization
        @unknown default: .processing
        }
    }

    /// `CaptureMethod` by case (a newer SDK's method is read as manual: nothing is assumed captured).
    static func value(of method: CaptureMethod) -> Stripe.CaptureMethod {
        switch method {
        case .manual: .manual
        case .automatic: .automatic
        @unknown default: .manual
        }
    }

    /// The SDK's `CaptureMethod` for the adapter's.
    static func sdkCaptureMethod(_ method: Stripe.CaptureMethod) -> CaptureMethod {
        switch method {
        case .manual: .manual
        case .automatic: .automatic
        }
    }

    /// `ChargeStatus` by case (a newer SDK's status is pending: not a success, not a failure).
    static func value(of status: ChargeStatus) -> Stripe.ChargeStatus {
        switch status {
        case .succeeded: .succeeded
        case .pending: .pending
        case .failed: .failed
        @unknown default: .pending
        }
    }

    /// `PaymentMethodType` by case (the card-present ones; any other is `unknown`).
    static func value(of type: PaymentMethodType) -> Stripe.PaymentMethodType {
        switch type {
        case .cardPresent: .cardPresent
        case .interacPresent: .interacPresent
        case .card, .wechatPay, .affirm, .paynow, .paypay, .klarna, .unknown: .unknown
        @unknown default: .unknown
        }
    }

    /// The boxed `PaymentMethodType` for `PaymentIntentParametersBuilder.setPaymentMethodTypes(_:)` (nil: not sent).
    static func sdkPaymentMethodType(_ type: Stripe.PaymentMethodType) -> NSNumber? {
        switch type {
        case .cardPresent: NSNumber(value: PaymentMethodType.cardPresent.rawValue)
        case .interacPresent: NSNumber(value: PaymentMethodType.interacPresent.rawValue)
        case .unknown: nil
        }
    }

    /// `CardBrand` by case (a newer SDK's brand is unknown).
    static func value(of brand: CardBrand) -> Stripe.CardBrand {
        switch brand {
        case .visa: .visa
        case .amex: .amex
        case .masterCard: .masterCard
        case .discover: .discover
        case .JCB: .JCB
        case .dinersClub: .dinersClub
        case .interac: .interac
        case .unionPay: .unionPay
        case .eftposAu: .eftposAu
        case .cartesBancaires: .cartesBancaires
        case .girocard: .girocard
        case .unknown: .unknown
        @unknown default: .unknown
        }
    }

    /// `ReadMethod` by case (a newer SDK's method is unknown).
    static func value(of method: ReadMethod) -> Stripe.ReadMethod {
        switch method {
        case .unknown: .unknown
        case .contactEMV: .contactEMV
        case .contactlessEMV: .contactlessEMV
        case .magneticStripeFallback: .magneticStripeFallback
        case .magneticStripeTrack2: .magneticStripeTrack2
        case .contactlessMagstripeMode: .contactlessMagstripeMode
        @unknown default: .unknown
        }
    }
}
#endif
