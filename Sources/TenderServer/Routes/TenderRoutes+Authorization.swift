import Foundation
import TenderWire

extension TenderRoutes {
    /// `"tender_location"`: the metadata key holding the Stripe location id an intent was taken at (Stripe's
    /// PaymentIntents record no location): set it on every intent (``StripeServerClient`` does on the intents it
    /// creates; the Stripe adapter sets it on every intent it creates). An intent without it belongs to the location
    /// named by ``assigningUntaggedStripeIntents(to:)``, or to no caller.
    package static let stripeLocationMetadataKey = StripeServerClient.locationMetadataKey

    /// The account the routes serve for `processor`, when configured.
    func account(_ processor: String) -> String? {
        processor == StripeServerClient.processor ? stripeAccountID : squareMerchantID
    }

    /// The scope that owns what is at `location`: the account the routes serve (or, when none is configured, the
    /// caller's merchant: location ids are unique at both vendors) and the location.
    func owner(_ location: String, processor: String, caller: LedgerScope? = nil) -> LedgerScope {
        LedgerScope(merchantID: account(processor) ?? caller?.merchantID ?? "", locationID: location)
    }

    /// Refuses a caller of another merchant than the account the routes serve.
    func checkMerchant(_ caller: LedgerScope, processor: String, phase: PaymentError.Phase) throws(RouteFailure) {
        if let account = account(processor), caller.merchantID != account {
            throw .forbidden("This device's merchant is not the account this server acts for.", phase: phase)
        }
    }

    /// Whether `caller` may act for `owner`: the merchant check, then the hook with what the request asks (its
    /// ``RouteContext``: operation, amount, device, role), or, without one, the same scope. The hook's refusal is kept
    /// in the context and becomes the request's answer.
    func allows(_ caller: LedgerScope, owner: LedgerScope, processor: String) async -> Bool {
        if let account = account(processor), caller.merchantID != account { return false }
        guard let authorizer else { return caller == owner }
        let context = RouteContext.current
        guard let refusal = await authorizer.authorize(
            context?.operation ?? .lookup, amount: context?.amount, caller: caller, device: context?.device,
            role: context?.role, owner: owner, processor: processor) else { return true }
        context?.refusal.record(refusal)
        return false
    }

    /// Refuses unless `caller` may act for `location`.
    func authorize(_ caller: LedgerScope, for location: String, processor: String, phase: PaymentError.Phase,
                   what: String) async throws {
        try checkMerchant(caller, processor: processor, phase: phase)
        guard await allows(caller, owner: owner(location, processor: processor, caller: caller), processor: processor)
        else { throw RouteFailure.forbidden("This device may not ask for \(what).", phase: phase) }
    }

    /// Whether the intent was taken at a location the caller may act for.
    /// An intent without `tender_location` (made before the adapter tagged every attempt) belongs to the location
    /// named by ``assigningUntaggedStripeIntents(to:)``, or to no caller.
    func owns(_ caller: LedgerScope, _ intent: StripeAPI.PaymentIntent) async -> Bool {
        let tagged = intent.metadata[Self.stripeLocationMetadataKey].flatMap { $0.isEmpty ? nil : $0 }
        guard let location = tagged ?? untaggedStripeLocation else { return false }
        return await allows(caller, owner: owner(location, processor: StripeServerClient.processor, caller: caller),
                            processor: StripeServerClient.processor)
    }

    /// Refuses unless the processor's payment belongs to the caller (found by id, which is consistent at both
    /// vendors): before any capture, void or refund.
    func checkPayment(_ processor: String, _ id: String, caller: LedgerScope, phase: PaymentError.Phase) async throws {
        try Self.checkPaymentID(id, phase: phase)
        switch processor {
        case StripeServerClient.processor: _ = try await ownedStripeIntent(id, caller: caller, phase: phase)
        case SquareServerClient.processor: _ = try await ownedSquarePayment(id, caller: caller, phase: phase)
        default: throw RouteFailure.badRequest("Unknown processor \(processor).", phase: phase)
        }
    }

    /// A payment id from the device is never empty (the document's `minLength: 1`): an empty one would name the
    /// vendor's list route instead of a payment (found by schemathesis against merchant-server: a 502).
    static func checkPaymentID(_ id: String, phase: PaymentError.Phase) throws(RouteFailure) {
        guard !id.isEmpty else {
            throw .badRequest("processorPaymentID is empty: name the processor's payment.", phase: phase)
        }
    }

    /// The refusal for a payment of another scope (its owner is not named).
    func refusal(_ id: String, phase: PaymentError.Phase) -> RouteFailure {
        .forbidden("Payment \(id) does not belong to this device's location.", phase: phase)
    }

    func stripeClient(phase: PaymentError.Phase) throws(RouteFailure) -> StripeServerClient {
        guard let stripe else { throw .notConfigured("This server has no Stripe client.", phase: phase) }
        return stripe
    }

    func squareClient(phase: PaymentError.Phase) throws(RouteFailure) -> SquareServerClient {
        guard let square else { throw .notConfigured("This server has no Square client.", phase: phase) }
        return square
    }

    /// The processor's client as the services.
    func service(_ processor: String, phase: PaymentError.Phase) throws(RouteFailure)
        -> any PaymentCaptureService & PaymentRefundService {
        switch processor {
        case StripeServerClient.processor: return try stripeClient(phase: phase)
        case SquareServerClient.processor: return try squareClient(phase: phase)
        default: throw .badRequest("Unknown processor \(processor).", phase: phase)
        }
    }
}
