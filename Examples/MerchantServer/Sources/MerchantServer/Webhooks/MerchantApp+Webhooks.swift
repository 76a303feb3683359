import Foundation
import Hummingbird
import Logging
import NIOCore
import TenderWire

extension MerchantApp {
    /// `POST /webhooks/stripe` and `POST /webhooks/square`: the vendors' events. No device or administrator token:
    /// the signature is the authentication (``WebhookSignature``).
    ///
    /// Answers:
    /// - 200 `{"outcome": "stored" | "ignored" | "duplicate"}`: a signed event, kept once; a type the server does
    ///   not use is kept as received and ignored (answered 200, or the vendor would retry it for days);
    /// - 400: signed, but not an event (not JSON, no id);
    /// - 401: the signature is missing, malformed or wrong, or (Stripe) its timestamp is outside the tolerance;
    ///   logged at warning with the vendor, the body's length and the reason, never the body;
    /// - 413: the body is larger than 1 MiB;
    /// - 501: the vendor's webhook is not configured (``WebhookSettings``);
    /// - 503: the database did not answer (the vendor retries later).
    ///
    /// Not configured is 501 rather than 404: the route exists, this server lacks its secret; the vendor's dashboard
    /// then shows a failure that says so (and both vendors retry, so events sent before the secret is set arrive once
    /// it is).
    func addWebhookRoutes(to router: Router<MerchantRequestContext>) {
        router.post("/webhooks/stripe") { request, context in await webhook(.stripe, request, context: context) }
        router.post("/webhooks/square") { request, context in await webhook(.square, request, context: context) }
    }

    enum WebhookVendor: String, Sendable { case stripe, square }

    func webhook(_ vendor: WebhookVendor, _ request: Request, context: MerchantRequestContext) async -> Response {
        let settings = configuration.webhooks
        let configured = vendor == .stripe ? settings.stripeEnabled : settings.squareEnabled
        guard configured else {
            let variable = vendor == .stripe ? "STRIPE_WEBHOOK_SECRET"
                : "SQUARE_WEBHOOK_SIGNATURE_KEY and SQUARE_WEBHOOK_URL"
            return failure(501, .configurationError,
                           "\(vendor.rawValue) webhooks are not configured on this server (\(variable)).")
        }
        guard let body = await Self.body(request, limit: Self.webhookBodyLimit) else {
            context.logger.warning("webhook refused", metadata: [
                "vendor": "\(vendor.rawValue)", "length": "more than \(Self.webhookBodyLimit)",
                "reason": "the body is larger than 1 MiB"])
            return failure(413, .invalidRequest, "The body is larger than 1 MiB.", recovery: .fixRequest)
        }
        let refusal: WebhookSignature.Refusal?
        switch vendor {
        case .stripe:
            refusal = WebhookSignature.checkStripe(
                header: request.headers[Self.stripeSignatureHeader], body: body, secrets: settings.stripeSecrets,
                tolerance: settings.stripeTolerance, now: now())
        case .square:
            refusal = WebhookSignature.checkSquare(
                header: request.headers[Self.squareSignatureHeader], body: body,
                signatureKey: settings.squareSignatureKey!, notificationURL: settings.squareNotificationURL!)
        }
        if let refusal {
            context.logger.warning("webhook refused", metadata: [
                "vendor": "\(vendor.rawValue)", "length": "\(body.count)", "reason": "\(refusal)"])
            return failure(401, .notAuthorized, "The webhook's signature is not valid.")
        }
        let event: VendorEvent
        do {
            event = try vendor == .stripe ? VendorEvent.stripe(body) : VendorEvent.square(body)
        } catch {
            context.logger.warning("webhook not an event", metadata: [
                "vendor": "\(vendor.rawValue)", "length": "\(body.count)", "reason": "\(error)"])
            return failure(400, .invalidRequest, "The body is not a \(vendor.rawValue) event: \(error)",
                           recovery: .fixRequest)
        }
        do {
            let outcome = try await store.recordVendorEvent(event, receivedAt: now())
            context.logger.debug("webhook", metadata: [
                "vendor": "\(vendor.rawValue)", "type": "\(event.type)", "outcome": "\(outcome.rawValue)"])
            return Self.json(200, ["outcome": outcome.rawValue], testMode: configuration.testMode)
        } catch {
            context.logger.error("webhook not stored", metadata: [
                "vendor": "\(vendor.rawValue)", "type": "\(event.type)", "error": "\(String(describing: error))"])
            return storeFailure()
        }
    }

    static let webhookBodyLimit = 1 << 20
    static let stripeSignatureHeader = HTTPFields.Element.Name(WebhookSignature.stripeHeader)!
    static let squareSignatureHeader = HTTPFields.Element.Name(WebhookSignature.squareHeader)!
}
