import Crypto
import Foundation
import Hummingbird
import Logging
import NIOCore
import Testing
@testable import MerchantServer

@Suite("Webhooks: the vendor's latest word per payment, whatever the order of delivery")
struct WebhookStateTests {
    @Test("out of order: a newer payment.updated, then an older payment.created — the newer state stays (both events kept); Stripe likewise, and a tie in the same second goes to the later stage", arguments: StoreKind.available)
    func outOfOrder(kind: StoreKind) async throws {
        let harness = try await WebhookFixtures.harness(kind)
        let newer = try WebhookFixtures.squarePayment(eventID: "e-2", paymentID: "p-1", status: "COMPLETED",
                                                      updatedAt: "2026-12-02T10:05:00.000Z", reference: "order-1",
                                                      location: "L1", amount: 1_000)
        let older = try WebhookFixtures.squarePayment(eventID: "e-1", paymentID: "p-1", status: "APPROVED",
                                                      updatedAt: "2026-12-02T10:00:00.000Z", reference: "order-1",
                                                      location: "L1", amount: 900, type: "payment.created")
        for body in [newer, older] { #expect(try await WebhookFixtures.square(harness, body).status == 200) }
        let square = try #require(try await harness.server.store.vendorPayments(location: "L1").first)
        #expect(square.status == "COMPLETED" && square.amountMinor == 1_000)
        #expect(square.objectTime == WebhookFixtures.date("2026-12-02T10:05:00.000Z"))
        #expect(try await harness.server.store.vendorEvents(vendor: "square").map(\.eventID) == ["e-2", "e-1"])

        let t = harness.clock.now
        func intent(_ id: String, _ type: String, _ status: String, _ at: Date) async throws {
            let body = WebhookFixtures.stripeEvent(
                id: id, type: type, created: at,
                object: WebhookFixtures.stripeIntent(id: "pi_7", status: status, amount: 2_000, reference: "order-7",
                                                     location: "tml_A"))
            #expect(try await WebhookFixtures.stripe(harness, body).status == 200)
        }
        try await intent("evt_b", "payment_intent.succeeded", "succeeded", t)
        try await intent("evt_a", "payment_intent.amount_capturable_updated", "requires_capture", t - 10)
        try await intent("evt_c", "payment_intent.created", "requires_payment_method", t)
        let stripe = try #require(try await harness.server.store.vendorPayments(location: "tml_A").first)
        #expect(stripe.status == "succeeded" && stripe.statusEvent == "payment_intent.succeeded" && stripe.settled)
        #expect(try await harness.server.store.vendorEvents(vendor: "stripe").count == 3)
    }

    @Test("refunds: each refund event updates its payment's refunded amount; a failed refund stops counting, an older word on it changes nothing; a refund heard of before its payment", arguments: StoreKind.available)
    func refunds(kind: StoreKind) async throws {
        let harness = try await WebhookFixtures.harness(kind)
        let store = harness.server.store
        func refunded(_ payment: String) async throws -> Int64? {
            try await store.vendorPayments(location: nil).first { $0.paymentID == payment }?.refundedMinor
        }
        let payment = try WebhookFixtures.squarePayment(eventID: "p", paymentID: "sq-1", status: "COMPLETED",
                                                        updatedAt: "2026-12-02T10:00:00.000Z", reference: "order-1",
                                                        location: "L1", amount: 1_000)
        #expect(try await WebhookFixtures.square(harness, payment).status == 200)
        let steps: [(String, String, String, String, Int64, Int64)] = [
            ("r-1", "refund.created", "PENDING", "10:01", 300, 300),
            ("r-1", "refund.updated", "COMPLETED", "10:02", 300, 300),
            ("r-2", "refund.created", "PENDING", "10:03", 200, 500),
            ("r-2", "refund.updated", "FAILED", "10:04", 200, 300),
            ("r-2", "refund.updated", "PENDING", "10:03:30", 200, 300),
        ]
        for (index, (refund, type, status, time, amount, total)) in steps.enumerated() {
            let at = "2026-12-02T\(time.count == 5 ? time + ":00" : time).000Z"
            let body = try WebhookFixtures.squareRefund(eventID: "e-\(index)", refundID: refund, paymentID: "sq-1",
                                                        status: status, updatedAt: at, amount: amount, type: type)
            #expect(try await WebhookFixtures.square(harness, body).status == 200)
            #expect(try await refunded("sq-1") == total, "step \(index): \(refund) \(status)")
        }
        let state = try #require(try await store.vendorPayments(location: "L1").first)
        #expect(state.status == "COMPLETED" && state.reference == "order-1")

        // Stripe: a refund before any event of its intent makes the payment's row; the intent's event fills it;
        // charge.refunded states a total that includes a refund not heard of on its own.
        let refund = WebhookFixtures.stripeEvent(
            id: "evt_r1", type: "refund.created", created: harness.clock.now,
            object: WebhookFixtures.stripeRefund(id: "re_1", intent: "pi_9", status: "pending", amount: 400))
        #expect(try await WebhookFixtures.stripe(harness, refund).status == 200)
        let early = try #require(try await store.vendorPayments(location: nil).first { $0.paymentID == "pi_9" })
        #expect(early.status == nil && early.refundedMinor == 400 && early.objectTime == nil)
        let succeeded = WebhookFixtures.stripeEvent(
            id: "evt_p9", type: "payment_intent.succeeded", created: harness.clock.now - 60,
            object: WebhookFixtures.stripeIntent(id: "pi_9", status: "succeeded", amount: 5_000, reference: "order-9",
                                                 location: "tml_A"))
        #expect(try await WebhookFixtures.stripe(harness, succeeded).status == 200)
        let charge = WebhookFixtures.stripeEvent(
            id: "evt_c9", type: "charge.refunded", created: harness.clock.now,
            object: WebhookFixtures.stripeCharge(id: "ch_9", intent: "pi_9", amount: 5_000, refunded: 600))
        #expect(try await WebhookFixtures.stripe(harness, charge).status == 200)
        let paid = try #require(try await store.vendorPayments(location: "tml_A").first)
        #expect(paid.paymentID == "pi_9" && paid.status == "succeeded" && paid.reference == "order-9")
        #expect(paid.refundedMinor == 600 && paid.amountMinor == 5_000)
    }

    @Test("the same event delivered eight times at once: one row, one 'stored', seven 'duplicate'", arguments: StoreKind.available)
    func concurrentReplays(kind: StoreKind) async throws {
        let harness = try await WebhookFixtures.harness(kind)
        let body = try WebhookFixtures.squareRefund(eventID: "same", refundID: "r-9", paymentID: "sq-9",
                                                    status: "COMPLETED", updatedAt: "2026-12-02T11:00:00.000Z",
                                                    amount: 100, type: "refund.updated")
        let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask { try await WebhookFixtures.square(harness, body).json["outcome"] as? String ?? "?" }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(outcomes.sorted() == Array(repeating: "duplicate", count: 7) + ["stored"])
        #expect(try await harness.server.store.vendorEvents(vendor: "square").count == 1)
        #expect(try await harness.server.store.vendorPayments(location: nil).first?.refundedMinor == 100)
    }
}

/// Signed deliveries built from the vendors' own documented payloads: Stripe's OpenAPI fixtures (the event, the
/// PaymentIntent, the Refund, the Charge) and the examples of Square's OpenAPI document (`PaymentUpdatedEvent`, …),
/// both under Tests/Reference/peers. Signatures are made here with swift-crypto, never with the server's checker.
enum WebhookFixtures {
    static let stripeSecret = "whsec_tests_4eC39HqLyjWDarjtT1zdp7dc"
    static let squareKey = "sq-webhook-signature-key-for-tests"
    static let squareURL = "https://shop.example/webhooks/square"

    static func harness(_ kind: StoreKind, clock: TestClock = TestClock()) async throws -> Harness {
        Harness(store: try await kind.makeStore(), clock: clock) {
            $0.webhooks = WebhookSettings(stripeSecrets: [WebhookSecret(stripeSecret)],
                                          squareSignatureKey: WebhookSecret(squareKey),
                                          squareNotificationURL: squareURL)
        }
    }

    /// `POST path` with `headers`, to the harness's router; its log goes to `logs` when given.
    static func post(_ harness: Harness, _ path: String, body: Data, headers: [String: String],
                     logs: LogCapture? = nil) async throws -> Harness.Answer {
        var head = HTTPRequest(method: .post, scheme: "http", authority: "127.0.0.1", path: path)
        head.headerFields[.contentType] = "application/json"
        for (name, value) in headers { head.headerFields[HTTPFields.Element.Name(name)!] = value }
        let context = MerchantRequestContext(logger: logs?.logger ?? StoreKind.logger,
                                             remoteAddress: try SocketAddress(ipAddress: "10.0.0.1", port: 4000))
        let response = try await harness.responder.respond(
            to: Request(head: head, body: .init(buffer: ByteBuffer(bytes: body))), context: context)
        let box = Collected()
        try await response.body.write(Collector(box: box))
        return Harness.Answer(status: response.status.code, body: box.data, headers: response.headers)
    }

    /// A correctly signed Stripe delivery, at the harness's time.
    static func stripe(_ harness: Harness, _ body: Data) async throws -> Harness.Answer {
        try await post(harness, "/webhooks/stripe", body: body,
                       headers: ["Stripe-Signature": stripeHeader(body, at: harness.clock.now)])
    }

    /// A correctly signed Square delivery.
    static func square(_ harness: Harness, _ body: Data) async throws -> Harness.Answer {
        try await post(harness, "/webhooks/square", body: body,
                       headers: ["x-square-hmacsha256-signature": squareHeader(body)])
    }

    /// `t=<time>,v1=<hex HMAC-SHA256(secret, "t.body")>`.
    static func stripeHeader(_ body: Data, secret: String = stripeSecret, at time: Date) -> String {
        let t = Int64(time.timeIntervalSince1970.rounded(.down))
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(t).".utf8) + body,
                                                  using: SymmetricKey(data: Data(secret.utf8)))
        return "t=\(t),v1=" + mac.map { String(format: "%02x", $0) }.joined()
    }

    /// base64 HMAC-SHA256(key, url + body).
    static func squareHeader(_ body: Data, key: String = squareKey, url: String = squareURL) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(url.utf8) + body, using: SymmetricKey(data: Data(key.utf8))))
            .base64EncodedString()
    }

    static var peers: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tests/Reference/peers")
    }

    nonisolated(unsafe) static let stripeFixtures: [String: Any] = {
        let data = try! Data(contentsOf: peers.appendingPathComponent("stripe-openapi-fixtures3-2023-09-12.json"))
        return (try! JSONSerialization.jsonObject(with: data) as! [String: Any])["resources"] as! [String: Any]
    }()

    nonisolated(unsafe) static let squareSchemas: [String: Any] = {
        let data = try! Data(contentsOf: peers.appendingPathComponent("square-connect-api-2025-08-20.json"))
        let document = try! JSONSerialization.jsonObject(with: data) as! [String: Any]
        return (document["components"] as! [String: Any])["schemas"] as! [String: Any]
    }()

    static func json(_ object: [String: Any]) -> Data {
        try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    static func stripeEvent(id: String, type: String, created: Date, object: [String: Any]) -> Data {
        var event = stripeFixtures["event"] as! [String: Any]
        event["id"] = id
        event["type"] = type
        event["created"] = Int(created.timeIntervalSince1970.rounded(.down))
        event["data"] = ["object": object]
        return json(event)
    }

    static func stripeIntent(id: String, status: String, amount: Int, reference: String, location: String)
        -> [String: Any] {
        var intent = stripeFixtures["payment_intent"] as! [String: Any]
        intent["id"] = id
        intent["status"] = status
        intent["amount"] = amount
        intent["metadata"] = ["tender_reference": reference, "tender_location": location]
        return intent
    }

    static func stripeRefund(id: String, intent: String, status: String, amount: Int) -> [String: Any] {
        var refund = stripeFixtures["refund"] as! [String: Any]
        refund["id"] = id
        refund["payment_intent"] = intent
        refund["status"] = status
        refund["amount"] = amount
        return refund
    }

    static func stripeCharge(id: String, intent: String, amount: Int, refunded: Int) -> [String: Any] {
        var charge = stripeFixtures["charge"] as! [String: Any]
        charge["id"] = id
        charge["payment_intent"] = intent
        charge["amount"] = amount
        charge["amount_refunded"] = refunded
        charge["refunded"] = refunded == amount
        return charge
    }

    /// Square's documented `PaymentUpdatedEvent` (or `PaymentCreatedEvent`) example with these values.
    static func squarePayment(eventID: String, paymentID: String, status: String, updatedAt: String,
                              reference: String, location: String, amount: Int, type: String = "payment.updated",
                              refunded: Int? = nil) throws -> Data {
        let schema = type == "payment.created" ? "PaymentCreatedEvent" : "PaymentUpdatedEvent"
        var event = try #require((squareSchemas[schema] as? [String: Any])?["example"] as? [String: Any])
        var data = try #require(event["data"] as? [String: Any])
        var payment = try #require((data["object"] as? [String: Any])?["payment"] as? [String: Any])
        payment["id"] = paymentID
        payment["status"] = status
        payment["updated_at"] = updatedAt
        payment["reference_id"] = reference
        payment["location_id"] = location
        payment["amount_money"] = ["amount": amount, "currency": "USD"]
        payment["total_money"] = ["amount": amount, "currency": "USD"]
        if let refunded { payment["refunded_money"] = ["amount": refunded, "currency": "USD"] }
        data["id"] = paymentID
        data["object"] = ["payment": payment]
        event["data"] = data
        event["event_id"] = eventID
        #expect(event["type"] as? String == type)
        return json(event)
    }

    /// Square's documented `RefundUpdatedEvent` (or `RefundCreatedEvent`) example with these values.
    static func squareRefund(eventID: String, refundID: String, paymentID: String, status: String,
                             updatedAt: String, amount: Int64, type: String) throws -> Data {
        let schema = type == "refund.created" ? "RefundCreatedEvent" : "RefundUpdatedEvent"
        var event = try #require((squareSchemas[schema] as? [String: Any])?["example"] as? [String: Any])
        var data = try #require(event["data"] as? [String: Any])
        var refund = try #require((data["object"] as? [String: Any])?["refund"] as? [String: Any])
        refund["id"] = refundID
        refund["payment_id"] = paymentID
        refund["status"] = status
        refund["updated_at"] = updatedAt
        refund["amount_money"] = ["amount": amount, "currency": "USD"]
        data["id"] = refundID
        data["object"] = ["refund": refund]
        event["data"] = data
        event["event_id"] = eventID
        #expect(event["type"] as? String == type)
        return json(event)
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
