import Foundation
import Testing
import TenderStripe
import TenderWire
@testable import TenderServer

/// Stripe's example objects (`stripe-openapi-fixtures3-2023-09-12.json`) decode without loss.
///
/// "Without loss", precisely: (1) every field a model declares is present in the fixture, unless Stripe's OpenAPI
/// document lists it as optional for that object (`refund.failure_reason` appears only on failed refunds), so the
/// model reads nothing the API does not send; (2) decoding succeeds; (3) re-encoding the decoded value gives, for every declared field,
/// the fixture's value — equal JSON, with `null` and absent counted as the same, and nested objects compared the
/// same way over the fields their own models declare (a nested value's extra fixture fields are not part of the
/// model); free-form maps (`metadata`) must be equal as a whole.
@Suite("Stripe fixtures decode without loss")
struct StripeFixtureDecodingTests {
    static func fixtures() -> [String: Any]? {
        let url = Peers.sharedPeers.appendingPathComponent("stripe-openapi-fixtures3-2023-09-12.json")
        guard let data = try? Data(contentsOf: url),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["resources"] as? [String: Any]
    }

    func fixture(_ name: String) throws -> [String: Any] {
        let resources = try #require(Self.fixtures(), "the fixtures file is missing under \(Peers.sharedPeers.path)")
        return try #require(resources[name] as? [String: Any])
    }

    /// The `required` fields of an object in Stripe's OpenAPI document.
    static func required(_ schema: String) -> Set<String> {
        let url = Peers.sharedPeers.appendingPathComponent("stripe-openapi-spec3-2023-09-12.required.json")
        guard let data = try? Data(contentsOf: url),
              let spec = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let schemas = (spec["components"] as? [String: Any])?["schemas"] as? [String: Any],
              let object = schemas[schema] as? [String: Any] else { return [] }
        return Set(object["required"] as? [String] ?? [])
    }

    /// Re-encodes `T` decoded from `object` (the spec's schema `schema`) and checks every declared field.
    func roundTrip<T: Codable & DeclaredFields>(_ type: T.Type, _ object: [String: Any], schema: String) throws {
        let required = Self.required(schema)
        #expect(!required.isEmpty, "the spec has no schema \(schema)")
        for field in T.declaredFields where !object.keys.contains(field) {
            #expect(!required.contains(field), "\(T.self) declares \(field): required by the spec, absent from the fixture")
        }
        let decoded = try JSONDecoder().decode(T.self, from: try JSONSerialization.data(withJSONObject: object))
        let encoded = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(decoded)) as? [String: Any])
        for field in T.declaredFields {
            #expect(Self.same(encoded[field], object[field]), "\(T.self).\(field): \(String(describing: encoded[field])) ≠ \(String(describing: object[field]))")
        }
        for key in encoded.keys { #expect(T.declaredFields.contains(key), "\(T.self) encodes an undeclared \(key)") }
    }

    /// JSON equality with null ≡ absent; a nested re-encoded object matches when each of its fields matches.
    static func same(_ encoded: Any?, _ original: Any?) -> Bool {
        let left = encoded is NSNull ? nil : encoded
        let right = original is NSNull ? nil : original
        switch (left, right) {
        case (nil, nil): return true
        case (let l as [String: Any], let r as [String: Any]):
            return l.allSatisfy { same($0.value, r[$0.key]) }
        case (let l as [Any], let r as [Any]):
            return l.count == r.count && zip(l, r).allSatisfy { same($0, $1) }
        case (let l as NSObject, let r as NSObject): return l.isEqual(r)
        default: return false
        }
    }

    @Test func paymentIntent() throws { try roundTrip(StripeAPI.PaymentIntent.self, try fixture("payment_intent"), schema: "payment_intent") }
    @Test func charge() throws { try roundTrip(StripeAPI.Charge.self, try fixture("charge"), schema: "charge") }
    @Test func refund() throws { try roundTrip(StripeAPI.Refund.self, try fixture("refund"), schema: "refund") }
    @Test func location() throws { try roundTrip(StripeAPI.Location.self, try fixture("terminal.location"), schema: "terminal.location") }

    @Test("connection token: `location` is optional and absent from the fixture; the secret round-trips")
    func connectionToken() throws {
        let object = try fixture("terminal.connection_token")
        let token = try JSONDecoder().decode(StripeAPI.ConnectionToken.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(token.secret == object["secret"] as? String && token.location == nil)
        #expect(!String(describing: token).contains(token.secret) && !String(reflecting: token).contains(token.secret))
    }

    @Test("the charge's card details decode as the receipt fields; the adapter's view keeps them")
    func chargeDetails() throws {
        let object = try fixture("charge")
        let charge = try JSONDecoder().decode(StripeAPI.Charge.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(charge.paymentMethodDetails?.card?.last4 == "4242" && charge.paymentMethodDetails?.card?.brand == "visa")
        var intent = try JSONDecoder().decode(StripeAPI.PaymentIntent.self,
                                              from: JSONSerialization.data(withJSONObject: try fixture("payment_intent")))
        intent.latestCharge = .object(charge)
        let sdk = try StripeRESTServerLookup.paymentIntent(intent)
        #expect(sdk.charges.map(\.stripeId) == [charge.id] && sdk.status == .requiresPaymentMethod)
        #expect(sdk.created == Date(timeIntervalSince1970: 1_234_567_890))
    }
}
