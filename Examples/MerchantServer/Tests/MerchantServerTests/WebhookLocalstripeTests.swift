import Foundation
import Testing
import TenderServer
@testable import MerchantServer

/// localstripe (`Scripts/peers/peers.sh start`; `. .build/peers/env`) delivering its own signed events: its
/// `POST /_config/webhooks/{id}` registration (form fields `url`, `secret`, `events[]`) makes it sign every event
/// with `Stripe-Signature: t=…,v1=…` and post it a second later.
struct Localstripe {
    let url: URL

    /// Whether the suite runs: the peers' environment is set, or CI=true (where its absence fails it).
    static var runs: Bool {
        let environment = ProcessInfo.processInfo.environment
        if environment["TENDER_LOCALSTRIPE_URL"] != nil || environment["CI"] == "true" { return true }
        print("merchant-server localstripe webhook tests skipped: the peers are not started "
            + "(Scripts/peers/peers.sh start; . .build/peers/env)")
        return false
    }

    static func fromEnvironment() throws -> Localstripe {
        guard let text = ProcessInfo.processInfo.environment["TENDER_LOCALSTRIPE_URL"], let url = URL(string: text)
        else {
            throw StoreError("TENDER_LOCALSTRIPE_URL is not set: start the peers (Scripts/peers/peers.sh start; "
                + ". .build/peers/env)")
        }
        return Localstripe(url: url)
    }

    /// A form POST (`application/x-www-form-urlencoded`, Stripe's encoding) with a test key; the answer's JSON.
    func post(_ path: String, _ fields: [(String, String)]) async throws -> (Int, [String: Any]) {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = fields.map { name, value in
            "\(name.addingPercentEncoding(withAllowedCharacters: allowed)!)="
                + value.addingPercentEncoding(withAllowedCharacters: allowed)!
        }.joined(separator: "&")
        let response = try await URLSessionTransport().send(TenderHTTPRequest(
            method: "POST", url: URL(string: url.absoluteString + path)!,
            headers: ["Content-Type": "application/x-www-form-urlencoded",
                      "Authorization": "Bearer sk_test_merchant_webhooks"],
            body: Data(body.utf8)))
        return (response.status, (try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any] ?? [:])
    }
}

@Suite("Webhooks delivered by localstripe itself", .enabled(if: Localstripe.runs))
struct WebhookLocalstripeTests {
    @Test("a PaymentIntent confirmed at localstripe is posted, signed, to the running server's /webhooks/stripe and stored once with its reference and location", arguments: StoreKind.available)
    func delivered(kind: StoreKind) async throws {
        let localstripe = try Localstripe.fromEnvironment()
        let secret = "whsec_localstripe_\(UUID().uuidString.prefix(12))"
        let harness = Harness(store: try await kind.makeStore(), clock: TestClock(start: Date())) {
            $0.webhooks = WebhookSettings(stripeSecrets: [WebhookSecret(secret)])
        }
        // One registration per store kind: registering the same id again replaces it.
        let registration = "/_config/webhooks/merchant-server-webhook-tests-\(kind.rawValue)"
        // Afterwards the registration is pointed at an event that never happens.
        func unregister() async {
            _ = try? await localstripe.post(registration, [("url", "http://127.0.0.1:9/none"), ("secret", "unused"),
                                                           ("events[]", "tender.no_such_event")])
        }
        try await ClientTests.withLiveServer(harness) { url in
            let (registered, _) = try await localstripe.post(registration, [
                ("url", url.absoluteString + "/webhooks/stripe"), ("secret", secret),
                ("events[]", "payment_intent.succeeded"), ("events[]", "payment_intent.payment_failed")])
            #expect(registered == 200)
            do { try await confirmAndCheck(localstripe, harness) } catch {
                await unregister()
                throw error
            }
            await unregister()
        }
    }

    func confirmAndCheck(_ localstripe: Localstripe, _ harness: Harness) async throws {
        let (methodStatus, method) = try await localstripe.post("/v1/payment_methods", [
            ("type", "card"), ("card[number]", "4242424242424242"), ("card[exp_month]", "12"),
            ("card[exp_year]", "2030"), ("card[cvc]", "123")])
        let methodID = try #require(method["id"] as? String, "no payment method: \(methodStatus)")
        let reference = "order-\(UUID().uuidString.prefix(8).lowercased())"
        let (intentStatus, intent) = try await localstripe.post("/v1/payment_intents", [
            ("amount", "1250"), ("currency", "usd"), ("payment_method", methodID), ("confirm", "true"),
            ("metadata[tender_reference]", reference), ("metadata[tender_location]", "tml_live")])
        let intentID = try #require(intent["id"] as? String, "no intent: \(intentStatus)")
        #expect(intent["status"] as? String == "succeeded")

        let store = harness.server.store
        let arrived = await eventually {
            (try? await store.vendorPayments(location: "tml_live").contains { $0.paymentID == intentID }) ?? false
        }
        #expect(arrived, "localstripe's event for \(intentID) did not arrive")
        let events = try await store.vendorEvents(vendor: "stripe").filter { $0.paymentID == intentID }
        #expect(events.count == 1)
        #expect(events.first?.type == "payment_intent.succeeded" && events.first?.eventID.hasPrefix("evt_") == true)
        #expect(events.first?.reference == reference && events.first?.amountMinor == 1_250)
        let state = try #require(try await store.vendorPayments(location: "tml_live")
            .first { $0.paymentID == intentID })
        #expect(state.status == "succeeded" && state.settled && state.currency == "USD")
        #expect(try await store.lastVendorEvent()["stripe"] != nil)
    }
}
