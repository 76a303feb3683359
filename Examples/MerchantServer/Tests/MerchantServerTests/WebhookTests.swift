import Crypto
import Foundation
import Hummingbird
import Logging
import NIOCore
import Testing
@testable import MerchantServer

/// The vendors' webhooks: signatures (made here with swift-crypto, not with the server's checker), the routes'
/// refusals, and what is stored.
@Suite("Webhooks: signed vendor events are stored once; anything unsigned is refused and nothing kept")
struct WebhookTests {
    @Test("Stripe: a signed payment_intent.succeeded is stored with its payment's state; the same event twice is one row, 200 both times", arguments: StoreKind.available)
    func stripeStored(kind: StoreKind) async throws {
        let harness = try await WebhookFixtures.harness(kind)
        let body = WebhookFixtures.stripeEvent(
            id: "evt_1", type: "payment_intent.succeeded", created: harness.clock.now,
            object: WebhookFixtures.stripeIntent(id: "pi_1", status: "succeeded", amount: 1_250, reference: "order-1",
                                                 location: "tml_A"))
        let header = WebhookFixtures.stripeHeader(body, at: harness.clock.now)
        for expected in ["stored", "duplicate"] {
            let answer = try await WebhookFixtures.post(harness, "/webhooks/stripe", body: body,
                                                        headers: ["Stripe-Signature": header])
            #expect(answer.status == 200 && answer.json["outcome"] as? String == expected)
        }
        let events = try await harness.server.store.vendorEvents(vendor: "stripe")
        #expect(events.count == 1)
        #expect(events.first == VendorEvent(
            vendor: "stripe", eventID: "evt_1", type: "payment_intent.succeeded", kind: .payment, objectID: "pi_1",
            paymentID: "pi_1", reference: "order-1", location: "tml_A", status: "succeeded", amountMinor: 1_250,
            currency: "USD", objectTime: harness.clock.now))
        let payments = try await harness.server.store.vendorPayments(location: "tml_A")
        #expect(payments.count == 1)
        #expect(payments.first?.status == "succeeded" && payments.first?.reference == "order-1")
        #expect(payments.first?.amountMinor == 1_250 && payments.first?.currency == "USD")
        #expect(payments.first?.summary == VendorPaymentSummary(vendor: "stripe", paymentID: "pi_1",
                                                                 reference: "order-1", settled: true, failed: false))
        #expect(try await harness.server.store.vendorPayments(location: "tml_B").isEmpty)
        #expect(try await harness.server.store.lastVendorEvent() == ["stripe": harness.clock.now.truncatedToMillis])
    }

    @Test("Stripe: a rolled secret (two v1 signatures) is accepted; a payment_failed marks the payment failed", arguments: StoreKind.available)
    func stripeRolledSecret(kind: StoreKind) async throws {
        let harness = try await WebhookFixtures.harness(kind)
        let body = WebhookFixtures.stripeEvent(
            id: "evt_2", type: "payment_intent.payment_failed", created: harness.clock.now,
            object: WebhookFixtures.stripeIntent(id: "pi_2", status: "requires_payment_method", amount: 700,
                                                 reference: "order-2", location: "tml_A"))
        let old = WebhookFixtures.stripeHeader(body, secret: "whsec_the_old_one", at: harness.clock.now)
        let new = WebhookFixtures.stripeHeader(body, at: harness.clock.now)
        let header = old + ",v1=" + new.split(separator: "=").last!
        let answer = try await WebhookFixtures.post(harness, "/webhooks/stripe", body: body,
                                                    headers: ["Stripe-Signature": header])
        #expect(answer.status == 200)
        let payment = try #require(try await harness.server.store.vendorPayments(location: nil).first)
        #expect(payment.failed && !payment.settled && payment.statusEvent == "payment_intent.payment_failed")
    }

    @Test("Stripe: a wrong signature, another secret, no header, a malformed header, a stale or future timestamp: 401, nothing stored, logged without the body", arguments: StoreKind.available)
    func stripeRefused(kind: StoreKind) async throws {
        let harness = try await WebhookFixtures.harness(kind)
        let now = harness.clock.now
        let body = WebhookFixtures.stripeEvent(
            id: "evt_3", type: "payment_intent.succeeded", created: now,
            object: WebhookFixtures.stripeIntent(id: "pi_3", status: "succeeded", amount: 900,
                                                 reference: "body-marker-7f3a", location: "tml_A"))
        let good = WebhookFixtures.stripeHeader(body, at: now)
        var tampered = body
        tampered[tampered.count - 2] ^= 0x01
        let cases: [(String, [String: String], Data, String)] = [
            ("tampered body", ["Stripe-Signature": good], tampered, "no signature matches"),
            ("another secret", ["Stripe-Signature": WebhookFixtures.stripeHeader(body, secret: "whsec_other",
                                                                                 at: now)], body,
             "no signature matches"),
            ("no header", [:], body, "no signature header"),
            ("malformed", ["Stripe-Signature": "v1=abc"], body, "the signature header is malformed"),
            ("stale", ["Stripe-Signature": WebhookFixtures.stripeHeader(body, at: now - 301)], body,
             "the signed timestamp is 301 s from the server's clock"),
            ("future", ["Stripe-Signature": WebhookFixtures.stripeHeader(body, at: now + 400)], body,
             "the signed timestamp is -400 s from the server's clock"),
        ]
        for (name, headers, data, reason) in cases {
            let logs = LogCapture()
            let answer = try await WebhookFixtures.post(harness, "/webhooks/stripe", body: data, headers: headers,
                                                        logs: logs)
            #expect(answer.status == 401 && answer.errorCode == "not_authorized", "\(name)")
            let warnings = logs.entries.filter { $0.level == .warning }
            #expect(warnings.count == 1 && warnings.first?.metadata["reason"] == reason, "\(name): \(warnings)")
            #expect(warnings.first?.metadata["vendor"] == "stripe" && warnings.first?.metadata["length"]
                == "\(data.count)", "\(name)")
            #expect(!logs.text.contains("body-marker-7f3a") && !logs.text.contains(WebhookFixtures.stripeSecret))
        }
        // Within the tolerance it is taken.
        let late = try await WebhookFixtures.post(
            harness, "/webhooks/stripe", body: body,
            headers: ["Stripe-Signature": WebhookFixtures.stripeHeader(body, at: now - 299)])
        #expect(late.status == 200)
        #expect(try await harness.server.store.vendorEvents(vendor: "stripe").count == 1)
    }

    @Test("Square: a documented payment.updated signed over the notification URL and the body is stored; a wrong signature, another URL, no header: 401, nothing stored", arguments: StoreKind.available)
    func square(kind: StoreKind) async throws {
        let harness = try await WebhookFixtures.harness(kind)
        let body = try WebhookFixtures.squarePayment(eventID: "sq-evt-1", paymentID: "sq_pay_1", status: "COMPLETED",
                                                     updatedAt: "2026-12-02T10:00:00.250Z", reference: "order-9",
                                                     location: "L1", amount: 4_200)
        let refusals: [(String, [String: String])] = [
            ("another URL", ["x-square-hmacsha256-signature": WebhookFixtures.squareHeader(
                body, url: "https://shop.example/webhooks/square/")]),
            ("another key", ["x-square-hmacsha256-signature": WebhookFixtures.squareHeader(body, key: "other")]),
            ("not base64", ["x-square-hmacsha256-signature": "%%%"]),
            ("no header", [:]),
        ]
        for (name, headers) in refusals {
            let logs = LogCapture()
            let answer = try await WebhookFixtures.post(harness, "/webhooks/square", body: body, headers: headers,
                                                        logs: logs)
            #expect(answer.status == 401 && answer.errorCode == "not_authorized", "\(name)")
            #expect(logs.entries.filter { $0.level == .warning }.count == 1, "\(name)")
            #expect(!logs.text.contains("order-9") && !logs.text.contains(WebhookFixtures.squareKey), "\(name)")
        }
        #expect(try await harness.server.store.vendorEvents(vendor: "square").isEmpty)
        #expect(try await harness.server.store.vendorPayments(location: nil).isEmpty)
        #expect(try await harness.server.store.lastVendorEvent().isEmpty)

        let header = ["x-square-hmacsha256-signature": WebhookFixtures.squareHeader(body)]
        for expected in ["stored", "duplicate"] {
            let answer = try await WebhookFixtures.post(harness, "/webhooks/square", body: body, headers: header)
            #expect(answer.status == 200 && answer.json["outcome"] as? String == expected)
        }
        let events = try await harness.server.store.vendorEvents(vendor: "square")
        #expect(events.count == 1 && events.first?.eventID == "sq-evt-1" && events.first?.type == "payment.updated")
        let payment = try #require(try await harness.server.store.vendorPayments(location: "L1").first)
        #expect(payment.paymentID == "sq_pay_1" && payment.status == "COMPLETED" && payment.reference == "order-9")
        #expect(payment.amountMinor == 4_200 && payment.currency == "USD" && payment.settled)
        #expect(payment.objectTime == WebhookFixtures.date("2026-12-02T10:00:00.250Z"))
    }

    @Test("an unknown type is kept as received and ignored (200); an unconfigured vendor is 501; a body above 1 MiB is 413; a signed body that is not an event is 400", arguments: StoreKind.available)
    func edges(kind: StoreKind) async throws {
        let harness = try await WebhookFixtures.harness(kind)
        let body = WebhookFixtures.stripeEvent(id: "evt_9", type: "customer.created", created: harness.clock.now,
                                               object: ["id": "cus_1", "object": "customer"])
        let answer = try await WebhookFixtures.post(
            harness, "/webhooks/stripe", body: body,
            headers: ["Stripe-Signature": WebhookFixtures.stripeHeader(body, at: harness.clock.now)])
        #expect(answer.status == 200 && answer.json["outcome"] as? String == "ignored")
        #expect(try await harness.server.store.vendorEvents(vendor: "stripe").map(\.kind) == [.ignored])
        #expect(try await harness.server.store.vendorPayments(location: nil).isEmpty)
        #expect(try await harness.server.store.lastVendorEvent()["stripe"] != nil)

        let notJSON = Data("not json".utf8)
        let bad = try await WebhookFixtures.post(
            harness, "/webhooks/square", body: notJSON,
            headers: ["x-square-hmacsha256-signature": WebhookFixtures.squareHeader(notJSON)])
        #expect(bad.status == 400 && bad.errorCode == "invalid_request")

        let big = Data(repeating: 0x20, count: (1 << 20) + 1)
        let tooLarge = try await WebhookFixtures.post(
            harness, "/webhooks/stripe", body: big,
            headers: ["Stripe-Signature": WebhookFixtures.stripeHeader(big, at: harness.clock.now)])
        #expect(tooLarge.status == 413)

        let plain = Harness(store: harness.server.store)
        for path in ["/webhooks/stripe", "/webhooks/square"] {
            let off = try await WebhookFixtures.post(plain, path, body: body, headers: [:])
            #expect(off.status == 501 && off.errorCode == "configuration_error", "\(path)")
        }
        #expect(try await harness.server.store.vendorEvents(vendor: "square").isEmpty)
        #expect(try await harness.server.store.vendorEvents(vendor: "stripe").count == 1)
    }

    @Test("the environment configures the webhooks (both modes); Square's key without its URL is refused")
    func environment() throws {
        let (configuration, _, _) = try Launch.configuration(Options(), environment: [
            "MERCHANT_ADMIN_TOKEN": "x", "STRIPE_WEBHOOK_SECRET": "whsec_a, whsec_b\n",
            "STRIPE_WEBHOOK_TOLERANCE": "120", "SQUARE_WEBHOOK_SIGNATURE_KEY": "key",
            "SQUARE_WEBHOOK_URL": "https://shop.example/webhooks/square"])
        #expect(configuration.webhooks == WebhookSettings(
            stripeSecrets: [WebhookSecret("whsec_a"), WebhookSecret("whsec_b")], stripeTolerance: 120,
            squareSignatureKey: WebhookSecret("key"), squareNotificationURL: "https://shop.example/webhooks/square"))
        #expect(!String(describing: configuration.webhooks).contains("whsec_a"))
        #expect(try Launch.configuration(Options(), environment: ["MERCHANT_ADMIN_TOKEN": "x"]).0.webhooks
            == WebhookSettings())
        #expect(throws: OptionsError.self) {
            _ = try Launch.configuration(Options(), environment: ["SQUARE_WEBHOOK_SIGNATURE_KEY": "key"])
        }
        #expect(throws: OptionsError.self) {
            _ = try Launch.configuration(Options(), environment: ["SQUARE_WEBHOOK_SIGNATURE_KEY": "key",
                                                                  "SQUARE_WEBHOOK_URL": "not a url"])
        }
        #expect(throws: OptionsError.self) {
            _ = try Launch.configuration(Options(), environment: ["STRIPE_WEBHOOK_TOLERANCE": "soon"])
        }
        for name in ["STRIPE_WEBHOOK_SECRET", "SQUARE_WEBHOOK_SIGNATURE_KEY", "SQUARE_WEBHOOK_URL"] {
            #expect(Options.usage.contains(name))
        }
    }
}

extension Date {
    /// What the stores keep of a time (whole milliseconds).
    var truncatedToMillis: Date { Date(storeMillis: storeMillis) }
}

/// Log entries, for the checks that a refusal is logged with its reason and without the body.
final class LogCapture: @unchecked Sendable {
    struct Entry { var level: Logger.Level; var message: String; var metadata: [String: String] }
    private let lock = NSLock()
    private var stored: [Entry] = []
    var entries: [Entry] { lock.withLock { stored } }
    var text: String { entries.map { "\($0.message) \($0.metadata)" }.joined(separator: "\n") }
    func append(_ entry: Entry) { lock.withLock { stored.append(entry) } }

    var logger: Logger {
        Logger(label: "webhook-tests") { _ in Handler(capture: self) }
    }

    struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.append(Entry(level: event.level, message: event.message.description,
                                 metadata: merged.mapValues { $0.description }))
        }
    }
}
