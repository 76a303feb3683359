import Foundation
import StripeTerminalSurface
import StripeTerminalSurfaceBackend
import Tender
import TenderStripe
import TenderStripeSimulator
@testable import TenderStripeTerminalOverSurface
import Testing

extension StripeBridgeTests {
    /// The SDK's errors as the adapter's: by case name, with what `userInfo` and `ConfirmPaymentIntentError` carry.
    @Suite("Errors through the bridge") struct Errors {
        /// Every code the mirror declares, found by raw value only to enumerate them (the test's business, not the
        /// bridge's).
        static let allCodes: [ErrorCode.Code] = (0...11_000).compactMap { ErrorCode.Code(rawValue: $0) }

        @Test("each of the SDK's 159 codes becomes its own case name, which the adapter's error table knows")
        func everyCodeByName() {
            let registry = StripeObjectRegistry()
            #expect(Self.allCodes.count == 159)
            var names: Set<String> = []
            for code in Self.allCodes {
                let translated = StripeBridgeErrors.translate(ErrorCode(code), registry: registry)
                #expect(translated.code.name == String(describing: code))
                #expect(Stripe.errorTable.mapping(named: translated.code.name) != nil,
                        "the error table has no row for \(translated.code.name)")
                names.insert(translated.code.name)
            }
            #expect(names.count == 159, "no two codes share a name")
        }

        @Test("the name does not depend on the number: an NSError in the SDK's domain is read through ErrorCode.Code")
        func nsErrorsByName() {
            let registry = StripeObjectRegistry()
            let plain = NSError(domain: ErrorDomain, code: ErrorCode.Code.offlineTransactionDeclined.rawValue,
                                userInfo: [ErrorKey.message.rawValue: "declined offline",
                                           ErrorKey.offlineDeclineReason.rawValue: "offline_pin_required"])
            let translated = StripeBridgeErrors.translate(plain, registry: registry)
            #expect(translated.code == .offlineTransactionDeclined)
            #expect(translated.message == "declined offline")
            #expect(translated.offlineDeclineReason == "offline_pin_required")

            let unknown = StripeBridgeErrors.translate(NSError(domain: ErrorDomain, code: 4_242), registry: registry)
            #expect(unknown.code.name == "unknownSDKErrorCode4242")
            #expect(StripeMapping.paymentError(unknown).code == .unrecognizedVendorError,
                    "a code a newer SDK adds gets the table's documented fallback")
            let foreign = StripeBridgeErrors.translate(URLError(.timedOut), registry: registry)
            #expect(foreign.code.name == "\(NSURLErrorDomain)#\(URLError.Code.timedOut.rawValue)")
            #expect(StripeMapping.paymentError(foreign).code == .unrecognizedVendorError)
        }

        @Test("a ConfirmPaymentIntentError gives its intent (registered), decline code and API error")
        func confirmErrorCarriesIntentAndDecline() throws {
            let registry = StripeObjectRegistry()
            let object = PaymentIntent(surface: .backend, amount: 1_200, captureMethod: .automatic, charges: [],
                                       created: Date(timeIntervalSince1970: 0), currency: "usd", livemode: false,
                                       status: .requiresPaymentMethod)
            let apiError = ApiError(surface: .backend)
            apiError.code = "card_declined"
            apiError.declineCode = "insufficient_funds"
            apiError.charge = "ch_declined"
            let error = ConfirmPaymentIntentError(
                surface: .backend, code: .declinedByStripeAPI,
                userInfo: [ErrorKey.message.rawValue: "Your card has insufficient funds.",
                           ErrorKey.stripeAPIRequestId.rawValue: "req_123"],
                paymentIntent: object, declineCode: "insufficient_funds", apiError: apiError)
            let translated = StripeBridgeErrors.translate(error, registry: registry)
            #expect(translated.code == .declinedByStripeAPI)
            #expect(translated.message == "Your card has insufficient funds.")
            #expect(translated.declineCode == "insufficient_funds")
            #expect(translated.userInfo[.stripeAPIDeclineCode] == "insufficient_funds")
            #expect(translated.userInfo[.stripeAPIRequestId] == "req_123")
            #expect(translated.apiError == Stripe.ApiError(code: "card_declined", declineCode: "insufficient_funds",
                                                            charge: "ch_declined"))
            let intent = try #require(translated.paymentIntent)
            #expect(intent.status == .requiresPaymentMethod)
            #expect(registry.intent(for: intent.sdkHandle) === object, "the error's intent can be passed back")
            guard case .collectAgain = StripeMapping.confirmFailure(translated) else {
                Issue.record("seed 002: a requiresPaymentMethod intent means collect again")
                return
            }
        }

        @Test("a confirmation error without an intent is an unknown outcome, even if userInfo holds one")
        func confirmErrorWithoutIntent() {
            let registry = StripeObjectRegistry()
            let stale = PaymentIntent(surface: .backend, amount: 100, captureMethod: .manual, charges: [],
                                      created: Date(), currency: "usd", livemode: false, status: .requiresConfirmation)
            let error = ConfirmPaymentIntentError(
                surface: .backend, code: .requestTimedOut,
                userInfo: [ErrorKey.stripeAPIPaymentIntent.rawValue: stale], paymentIntent: nil)
            let translated = StripeBridgeErrors.translate(error, registry: registry)
            #expect(translated.paymentIntent == nil)
            #expect(StripeMapping.confirmFailure(translated) == .outcomeUnknown)
            #expect(registry.intentCount == 0)
        }

        @Test("other errors give the intent and API error from userInfo")
        func userInfoIntent() throws {
            let registry = StripeObjectRegistry()
            let object = PaymentIntent(surface: .backend, amount: 100, captureMethod: .manual, charges: [],
                                       created: Date(), currency: "usd", livemode: false, status: .requiresPaymentMethod)
            let apiError = ApiError(surface: .backend)
            apiError.code = "payment_intent_unexpected_state"
            let error = ErrorCode(.stripeAPIError, userInfo: [ErrorKey.message.rawValue: "unexpected state",
                                                              ErrorKey.stripeAPIPaymentIntent.rawValue: object,
                                                              ErrorKey.stripeAPIError.rawValue: apiError])
            let translated = StripeBridgeErrors.translate(error, registry: registry)
            #expect(translated.code == .stripeAPIError)
            #expect(registry.intent(for: try #require(translated.paymentIntent).sdkHandle) === object)
            #expect(translated.apiError?.code == "payment_intent_unexpected_state")
            #expect(translated.userInfo[.stripeAPIErrorCode] == "payment_intent_unexpected_state")
        }

        @Test("a decline through the bridge arrives as declinedByStripeAPI with the decline code and the same object")
        func declineEndToEnd() async throws {
            let device = BridgeDevice { $0.simulatedCard = .chargeDeclinedInsufficientFunds }
            let launch = await device.launch()
            _ = try await launch.connectM2()
            let created = try await launch.bridge.createPaymentIntent(bridgeParameters("DE"), createConfig: nil)
            let collected = try #require(try await launch.collect(created).0)
            let (confirmed, error) = try await launch.confirm(collected)
            #expect(confirmed == nil)
            let declined = try #require(error)
            #expect(declined.code == .declinedByStripeAPI)
            #expect(declined.declineCode == "insufficient_funds")
            #expect(declined.paymentIntent?.status == .requiresPaymentMethod)
            #expect(declined.paymentIntent?.sdkHandle == created.sdkHandle, "the SDK's updated object is the same one")
            #expect(StripeMapping.paymentError(declined).code == .cardDeclined)
        }

        @Test("the bridge's own refusals use the SDK's codes: unknown handles, a refused discovery builder, invalid refunds")
        func refusals() async throws {
            let device = BridgeDevice()
            let launch = await device.launch()
            var serverCopy = Stripe.PaymentIntent(sdkHandle: nil, stripeId: "pi_server", status: .requiresPaymentMethod,
                                                  amount: 100, currency: "usd", captureMethod: .manual, created: Date(),
                                                  metadata: [:])
            let (_, collectError) = try await launch.collect(serverCopy)
            #expect(collectError?.code == .confirmInvalidPaymentIntent)
            serverCopy.sdkHandle = "scp-elsewhere-pi-1"
            await #expect(throws: Stripe.ErrorCode.self) { try await launch.bridge.cancelPaymentIntent(serverCopy) }
            #expect(!launch.backend.calls.contains("collectPaymentMethod"))
            #expect(!launch.backend.calls.contains("cancelPaymentIntent"))

            // A discovery configuration the SDK's builder refuses completes at once with its error, discovering nothing.
            launch.backend.failNextBuild(with: .invalidDiscoveryConfiguration)
            let done = Answer<Stripe.ErrorCode?>()
            let refused = await launch.bridge.discoverReaders(Stripe.DiscoveryConfiguration(method: .internet),
                                                              delegate: RecordingDiscoveryDelegate(),
                                                              completion: { done.resume($0) })
            #expect(try #require(await done.wait())?.code.name == "invalidDiscoveryConfiguration")
            #expect(refused.completed)
            #expect(!launch.backend.calls.contains("discoverReaders"))

            // A builder the SDK refuses completes the first refund step with its error; nothing is kept for the second.
            launch.backend.failNextBuild(with: .invalidRefundParameters)
            let refund = Answer<Stripe.ErrorCode?>()
            _ = await launch.bridge.collectRefundPaymentMethod(
                Stripe.RefundParameters(chargeId: "ch_1", amount: 100, currency: "cad"), refundConfig: nil,
                completion: { refund.resume($0) })
            #expect(try #require(await refund.wait())?.code.name == "invalidRefundParameters")
            #expect(!launch.backend.calls.contains("processRefund"))
        }
    }
}
