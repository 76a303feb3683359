import Foundation
import PostgresNIO

/// The vendors' webhook events (``MerchantStore/recordVendorEvent(_:receivedAt:)``), in one transaction each. Two
/// events of one payment at once: the first statement on the payment's row (an upsert) locks it, so the second
/// waits and then reads what the first committed (each later statement of READ COMMITTED takes a new snapshot).
extension PostgresMerchantStore {
    public func recordVendorEvent(_ event: VendorEvent, receivedAt: Date) async throws -> VendorEventOutcome {
        let logger = logger
        return try await transaction { connection in
            let inserted = try await connection.query("""
                INSERT INTO vendor_events (vendor, event_id, type, kind, object_id, payment_id, reference, location_id,
                  status, amount_minor, currency, refunded_minor, object_time, received_at)
                VALUES (\(event.vendor), \(event.eventID), \(event.type), \(event.kind.rawValue), \(event.objectID),
                        \(event.paymentID), \(event.reference), \(event.location), \(event.status),
                        \(event.amountMinor), \(event.currency), \(event.refundedMinor),
                        \(event.objectTime?.storeMillis), \(receivedAt.storeMillis))
                ON CONFLICT (vendor, event_id) DO NOTHING RETURNING id
                """, logger: logger)
            var isNew = false
            for try await _ in inserted.decode(Int64.self) { isNew = true }
            guard isNew else { return .duplicate }
            guard event.kind != .ignored else { return .ignored }
            guard let payment = event.paymentID else { return .stored }
            let vendor = event.vendor
            let time = event.objectTime?.storeMillis ?? -1
            let rank = VendorEvent.rank(type: event.type, status: event.status)
            let reference = event.kind == .refund ? nil : event.reference
            try await connection.query("""
                INSERT INTO vendor_payments (vendor, payment_id, reference, location_id, currency, status_rank,
                  refunded_minor, stated_refunded_minor, stated_refunded_time, object_time, updated_at)
                VALUES (\(vendor), \(payment), \(reference), \(event.location), \(event.currency), -1, 0, 0, -1, -1,
                        \(receivedAt.storeMillis))
                ON CONFLICT (vendor, payment_id) DO UPDATE SET
                  reference = COALESCE(vendor_payments.reference, excluded.reference),
                  location_id = COALESCE(vendor_payments.location_id, excluded.location_id),
                  currency = COALESCE(vendor_payments.currency, excluded.currency), updated_at = excluded.updated_at
                """, logger: logger)
            switch event.kind {
            case .payment:
                try await connection.query("""
                    UPDATE vendor_payments SET status = \(event.status), status_event = \(event.type),
                      status_rank = \(rank), amount_minor = COALESCE(\(event.amountMinor), amount_minor),
                      currency = COALESCE(\(event.currency), currency), reference = COALESCE(\(event.reference),
                      reference), location_id = COALESCE(\(event.location), location_id), object_time = \(time)
                    WHERE vendor = \(vendor) AND payment_id = \(payment)
                      AND (object_time < \(time) OR (object_time = \(time) AND status_rank <= \(rank)))
                    """, logger: logger)
            case .refund:
                guard let refund = event.objectID else { break }
                let counts = VendorEvent.refundCounts(event.status) ? 1 : 0
                try await connection.query("""
                    INSERT INTO vendor_refunds (vendor, refund_id, payment_id, status, counts, amount_minor, currency,
                      status_rank, object_time)
                    VALUES (\(vendor), \(refund), \(payment), \(event.status), \(counts), \(event.amountMinor),
                            \(event.currency), \(rank), \(time))
                    ON CONFLICT (vendor, refund_id) DO UPDATE SET status = excluded.status, counts = excluded.counts,
                      amount_minor = COALESCE(excluded.amount_minor, vendor_refunds.amount_minor),
                      currency = COALESCE(excluded.currency, vendor_refunds.currency),
                      status_rank = excluded.status_rank, object_time = excluded.object_time
                    WHERE excluded.object_time > vendor_refunds.object_time
                      OR (excluded.object_time = vendor_refunds.object_time
                          AND excluded.status_rank >= vendor_refunds.status_rank)
                    """, logger: logger)
            case .refundedTotal, .ignored:
                break
            }
            if let stated = event.refundedMinor {
                try await connection.query("""
                    UPDATE vendor_payments SET stated_refunded_minor = \(stated), stated_refunded_time = \(time)
                    WHERE vendor = \(vendor) AND payment_id = \(payment) AND stated_refunded_time <= \(time)
                    """, logger: logger)
            }
            try await connection.query("""
                UPDATE vendor_payments SET refunded_minor = GREATEST(stated_refunded_minor,
                  (SELECT COALESCE(SUM(r.amount_minor), 0)::BIGINT FROM vendor_refunds r
                   WHERE r.vendor = vendor_payments.vendor AND r.payment_id = vendor_payments.payment_id
                     AND r.counts = 1))
                WHERE vendor = \(vendor) AND payment_id = \(payment)
                """, logger: logger)
            return .stored
        }
    }

    public func vendorEvents(vendor: String) async throws -> [VendorEvent] {
        let rows = try await client.query("""
            SELECT vendor, event_id, type, kind, object_id, payment_id, reference, location_id, status,
              amount_minor, currency, refunded_minor, object_time FROM vendor_events WHERE vendor = \(vendor)
            ORDER BY id
            """, logger: logger)
        var events: [VendorEvent] = []
        for try await row in rows {
            let c = row.makeRandomAccess()
            events.append(VendorEvent(
                vendor: try c[0].decode(String.self), eventID: try c[1].decode(String.self),
                type: try c[2].decode(String.self),
                kind: VendorEvent.Kind(rawValue: try c[3].decode(String.self)) ?? .ignored,
                objectID: try c[4].decode(String?.self), paymentID: try c[5].decode(String?.self),
                reference: try c[6].decode(String?.self), location: try c[7].decode(String?.self),
                status: try c[8].decode(String?.self), amountMinor: try c[9].decode(Int64?.self),
                currency: try c[10].decode(String?.self), refundedMinor: try c[11].decode(Int64?.self),
                objectTime: try c[12].decode(Int64?.self).map(Date.init(storeMillis:))))
        }
        return events
    }

    public func vendorPayments(location: String?) async throws -> [VendorPaymentState] {
        let rows = try await client.query("""
            SELECT vendor, payment_id, reference, location_id, status, status_event, amount_minor, currency,
              refunded_minor, object_time, updated_at FROM vendor_payments
            WHERE \(location)::TEXT IS NULL OR location_id = \(location) ORDER BY vendor, payment_id
            """, logger: logger)
        var payments: [VendorPaymentState] = []
        for try await row in rows {
            let c = row.makeRandomAccess()
            let time = try c[9].decode(Int64.self)
            payments.append(VendorPaymentState(
                vendor: try c[0].decode(String.self), paymentID: try c[1].decode(String.self),
                reference: try c[2].decode(String?.self), location: try c[3].decode(String?.self),
                status: try c[4].decode(String?.self), statusEvent: try c[5].decode(String?.self),
                amountMinor: try c[6].decode(Int64?.self), currency: try c[7].decode(String?.self),
                refundedMinor: try c[8].decode(Int64.self), objectTime: time < 0 ? nil : Date(storeMillis: time),
                updatedAt: Date(storeMillis: try c[10].decode(Int64.self))))
        }
        return payments
    }

    public func lastVendorEvent() async throws -> [String: Date] {
        let rows = try await client.query("SELECT vendor, MAX(received_at) FROM vendor_events GROUP BY vendor",
                                          logger: logger)
        var last: [String: Date] = [:]
        for try await (vendor, at) in rows.decode((String, Int64).self) { last[vendor] = Date(storeMillis: at) }
        return last
    }
}
