import Foundation

/// One webhook event as the server keeps it: who sent it, what it says of which payment or refund. The raw body is
/// not kept (it may carry a customer's details); these fields are.
public struct VendorEvent: Sendable, Equatable, Codable {
    /// What an event changes.
    public enum Kind: String, Sendable, Codable {
        /// A payment's state (Stripe `payment_intent.*`; Square `payment.created`, `payment.updated`).
        case payment
        /// A refund (Stripe `refund.*`, `charge.refund.updated`; Square `refund.created`, `refund.updated`).
        case refund
        /// A payment's refunded total only (Stripe `charge.refunded`: the charge's `amount_refunded`).
        case refundedTotal
        /// Nothing: a type the server does not use, kept as received (answered 200 so the vendor stops sending it).
        case ignored
    }

    /// `stripe` or `square`.
    public var vendor: String
    /// Stripe's `id` (`evt_…`), Square's `event_id`: unique per vendor.
    public var eventID: String
    /// The vendor's event type (`payment_intent.succeeded`, `payment.updated`, …).
    public var type: String
    public var kind: Kind
    /// The object's id: the PaymentIntent, charge, refund, or Square payment or refund.
    public var objectID: String?
    /// The payment the event is about (a refund's payment): Stripe's PaymentIntent id (a charge's when it has no
    /// intent), Square's payment id.
    public var paymentID: String?
    /// Tender's reference: Stripe metadata `tender_reference`, Square `reference_id`.
    public var reference: String?
    /// The location: Stripe metadata `tender_location`, Square `location_id`.
    public var location: String?
    /// The object's status as the vendor spells it (`succeeded`, `COMPLETED`, …).
    public var status: String?
    /// The object's amount in minor units, and its currency (upper case).
    public var amountMinor: Int64?
    public var currency: String?
    /// The payment's refunded total as the vendor states it (Stripe charge `amount_refunded`, Square payment
    /// `refunded_money`), when the object carries one.
    public var refundedMinor: Int64?
    /// The object's own time, by which an older event never overwrites a newer state: Stripe's event `created`
    /// (seconds), Square's object `updated_at` (milliseconds).
    public var objectTime: Date?

    public init(vendor: String, eventID: String, type: String, kind: Kind, objectID: String? = nil,
                paymentID: String? = nil, reference: String? = nil, location: String? = nil, status: String? = nil,
                amountMinor: Int64? = nil, currency: String? = nil, refundedMinor: Int64? = nil,
                objectTime: Date? = nil) {
        self.vendor = vendor
        self.eventID = eventID
        self.type = type
        self.kind = kind
        self.objectID = objectID
        self.paymentID = paymentID
        self.reference = reference
        self.location = location
        self.status = status
        self.amountMinor = amountMinor
        self.currency = currency
        self.refundedMinor = refundedMinor
        self.objectTime = objectTime
    }

    /// Why a signed body is not an event.
    public struct Malformed: Error, CustomStringConvertible {
        public let description: String
    }

    /// A Stripe event (its `data.object` a PaymentIntent, a Charge or a Refund).
    public static func stripe(_ body: Data) throws(Malformed) -> VendorEvent {
        let json = try object(body)
        guard let id = json["id"] as? String, !id.isEmpty, let type = json["type"] as? String else {
            throw Malformed(description: "a Stripe event needs an id and a type")
        }
        let object = (json["data"] as? [String: Any])?["object"] as? [String: Any] ?? [:]
        let metadata = object["metadata"] as? [String: Any] ?? [:]
        var event = VendorEvent(vendor: "stripe", eventID: id, type: type, kind: .ignored,
                                objectID: object["id"] as? String, reference: metadata["tender_reference"] as? String,
                                location: metadata["tender_location"] as? String, status: object["status"] as? String,
                                amountMinor: int(object["amount"]),
                                currency: (object["currency"] as? String)?.uppercased(),
                                objectTime: int(json["created"]).map { Date(timeIntervalSince1970: TimeInterval($0)) })
        let intent = object["payment_intent"] as? String
        switch type {
        case _ where type.hasPrefix("payment_intent."):
            event.kind = .payment
            event.paymentID = event.objectID
        case "charge.refunded":
            event.kind = .refundedTotal
            event.paymentID = intent ?? event.objectID
            event.refundedMinor = int(object["amount_refunded"])
        case "refund.created", "refund.updated", "refund.failed", "charge.refund.updated":
            event.kind = .refund
            event.paymentID = intent ?? object["charge"] as? String
        default:
            break
        }
        return event
    }

    /// A Square event (`data.object.payment` or `data.object.refund`).
    public static func square(_ body: Data) throws(Malformed) -> VendorEvent {
        let json = try object(body)
        guard let id = json["event_id"] as? String, !id.isEmpty, let type = json["type"] as? String else {
            throw Malformed(description: "a Square event needs an event_id and a type")
        }
        let data = json["data"] as? [String: Any] ?? [:]
        let container = data["object"] as? [String: Any] ?? [:]
        var event = VendorEvent(vendor: "square", eventID: id, type: type, kind: .ignored,
                                objectID: data["id"] as? String)
        let object: [String: Any]
        switch type {
        case "payment.created", "payment.updated":
            object = container["payment"] as? [String: Any] ?? [:]
            event.kind = .payment
            event.paymentID = object["id"] as? String ?? event.objectID
            event.reference = object["reference_id"] as? String
            event.refundedMinor = int((object["refunded_money"] as? [String: Any])?["amount"])
        case "refund.created", "refund.updated":
            object = container["refund"] as? [String: Any] ?? [:]
            event.kind = .refund
            event.paymentID = object["payment_id"] as? String
        default:
            return event
        }
        event.objectID = object["id"] as? String ?? event.objectID
        event.location = object["location_id"] as? String
        event.status = object["status"] as? String
        let money = object["amount_money"] as? [String: Any]
        event.amountMinor = int(money?["amount"])
        event.currency = (money?["currency"] as? String)?.uppercased()
        event.objectTime = (object["updated_at"] as? String).flatMap(date)
            ?? (json["created_at"] as? String).flatMap(date)
        return event
    }

    /// How far along an event's state is, to order two states of the same time (Stripe's times are whole
    /// seconds): the later stage wins a tie, a final one (succeeded, canceled, COMPLETED, FAILED…) the most; an
    /// intent's creation the least, its `payment_failed` above it (both leave `requires_payment_method`).
    public static func rank(type: String, status: String?) -> Int {
        switch type {
        case "payment_intent.created": return 0
        case "payment_intent.payment_failed": return 2
        default: break
        }
        return switch status {
        case "requires_payment_method", "requires_confirmation", "requires_action", "PENDING", "pending": 1
        case "processing", "APPROVED": 2
        case "requires_capture": 3
        case "succeeded", "canceled", "failed", "COMPLETED", "CANCELED", "FAILED", "REJECTED": 4
        default: 0
        }
    }

    /// Whether a refund of this status counts in its payment's refunded amount (not failed, canceled or rejected).
    public static func refundCounts(_ status: String?) -> Bool {
        !["failed", "canceled", "FAILED", "REJECTED", "CANCELED"].contains(status ?? "")
    }

    static func object(_ body: Data) throws(Malformed) -> [String: Any] {
        guard let json = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
            throw Malformed(description: "the body is not a JSON object")
        }
        return json
    }

    static func int(_ value: Any?) -> Int64? {
        guard let number = value as? NSNumber, !(value is Bool) else { return nil }
        return number.int64Value
    }

    /// RFC 3339, with or without fractional seconds (Square writes milliseconds).
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

/// What the server knows of one payment from its vendor's webhooks: the latest state (by the object's own time, not
/// by arrival), and the refunds. The fleet view reconciles the devices' reports with it.
public struct VendorPaymentState: Sendable, Equatable, Codable {
    public var vendor: String
    public var paymentID: String
    public var reference: String?
    public var location: String?
    /// The vendor's status (nil: only a refund of it was heard of).
    public var status: String?
    /// The type of the event that set `status` (Stripe's `payment_failed` leaves `requires_payment_method`).
    public var statusEvent: String?
    public var amountMinor: Int64?
    public var currency: String?
    /// Refunded so far: the larger of the vendor's stated total and the sum of its known refunds not failed.
    public var refundedMinor: Int64
    /// The time of the state (`status`), nil when only refunds were heard of.
    public var objectTime: Date?
    /// When an event last changed this row.
    public var updatedAt: Date

    public init(vendor: String, paymentID: String, reference: String?, location: String?, status: String?,
                statusEvent: String?, amountMinor: Int64?, currency: String?, refundedMinor: Int64,
                objectTime: Date?, updatedAt: Date) {
        self.vendor = vendor
        self.paymentID = paymentID
        self.reference = reference
        self.location = location
        self.status = status
        self.statusEvent = statusEvent
        self.amountMinor = amountMinor
        self.currency = currency
        self.refundedMinor = refundedMinor
        self.objectTime = objectTime
        self.updatedAt = updatedAt
    }

    /// The vendor has the money: Stripe `succeeded` or `requires_capture`; Square `COMPLETED` or `APPROVED`.
    public var settled: Bool { ["succeeded", "requires_capture", "COMPLETED", "APPROVED"].contains(status ?? "") }
    /// Refused after the fact: Stripe `canceled` or a `payment_intent.payment_failed`; Square `FAILED`, `CANCELED`.
    public var failed: Bool {
        ["canceled", "FAILED", "CANCELED"].contains(status ?? "") || statusEvent == "payment_intent.payment_failed"
    }
    /// As the fleet view takes it.
    public var summary: VendorPaymentSummary {
        VendorPaymentSummary(vendor: vendor, paymentID: paymentID, reference: reference, settled: settled,
                             failed: failed)
    }
}

/// What the store did with an event.
public enum VendorEventOutcome: String, Sendable, Codable {
    /// Stored, and applied to the payment's state (or kept without effect when older than it).
    case stored
    /// Stored as received, with no effect (a type the server does not use).
    case ignored
    /// Seen before (same vendor and event id): nothing changed.
    case duplicate
}
