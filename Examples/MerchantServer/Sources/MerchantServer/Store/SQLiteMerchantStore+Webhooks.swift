import Foundation
import GRDB

/// The vendors' webhook events (``MerchantStore/recordVendorEvent(_:receivedAt:)``), in one write transaction each.
extension SQLiteMerchantStore {
    public func recordVendorEvent(_ event: VendorEvent, receivedAt: Date) async throws -> VendorEventOutcome {
        try await pool.write { db in
            try db.execute(sql: """
                INSERT INTO vendor_events (vendor, event_id, type, kind, object_id, payment_id, reference, location_id,
                  status, amount_minor, currency, refunded_minor, object_time, received_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (vendor, event_id) DO NOTHING
                """, arguments: [event.vendor, event.eventID, event.type, event.kind.rawValue, event.objectID,
                                 event.paymentID, event.reference, event.location, event.status, event.amountMinor,
                                 event.currency, event.refundedMinor, event.objectTime?.storeMillis,
                                 receivedAt.storeMillis])
            guard db.changesCount == 1 else { return .duplicate }
            guard event.kind != .ignored else { return .ignored }
            guard let payment = event.paymentID else { return .stored }
            let time = event.objectTime?.storeMillis ?? -1
            let rank = VendorEvent.rank(type: event.type, status: event.status)
            // The payment's row, made when first heard of (a refund may come first); what is known of it is kept.
            try db.execute(sql: """
                INSERT INTO vendor_payments (vendor, payment_id, reference, location_id, currency, status_rank,
                  refunded_minor, stated_refunded_minor, stated_refunded_time, object_time, updated_at)
                VALUES (?, ?, ?, ?, ?, -1, 0, 0, -1, -1, ?)
                ON CONFLICT (vendor, payment_id) DO UPDATE SET
                  reference = COALESCE(vendor_payments.reference, excluded.reference),
                  location_id = COALESCE(vendor_payments.location_id, excluded.location_id),
                  currency = COALESCE(vendor_payments.currency, excluded.currency), updated_at = excluded.updated_at
                """, arguments: [event.vendor, payment, event.kind == .refund ? nil : event.reference, event.location,
                                 event.currency, receivedAt.storeMillis])
            switch event.kind {
            case .payment:
                // Only a state at least as recent (a tie: at least as far along) replaces the stored one.
                try db.execute(sql: """
                    UPDATE vendor_payments SET status = ?, status_event = ?, status_rank = ?,
                      amount_minor = COALESCE(?, amount_minor), currency = COALESCE(?, currency),
                      reference = COALESCE(?, reference), location_id = COALESCE(?, location_id), object_time = ?
                    WHERE vendor = ? AND payment_id = ?
                      AND (object_time < ? OR (object_time = ? AND status_rank <= ?))
                    """, arguments: [event.status, event.type, rank, event.amountMinor, event.currency,
                                     event.reference, event.location, time, event.vendor, payment, time, time, rank])
            case .refund:
                guard let refund = event.objectID else { break }
                try db.execute(sql: """
                    INSERT INTO vendor_refunds (vendor, refund_id, payment_id, status, counts, amount_minor, currency,
                      status_rank, object_time)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (vendor, refund_id) DO UPDATE SET status = excluded.status, counts = excluded.counts,
                      amount_minor = COALESCE(excluded.amount_minor, vendor_refunds.amount_minor),
                      currency = COALESCE(excluded.currency, vendor_refunds.currency),
                      status_rank = excluded.status_rank, object_time = excluded.object_time
                    WHERE excluded.object_time > vendor_refunds.object_time
                      OR (excluded.object_time = vendor_refunds.object_time
                          AND excluded.status_rank >= vendor_refunds.status_rank)
                    """, arguments: [event.vendor, refund, payment, event.status,
                                     VendorEvent.refundCounts(event.status) ? 1 : 0, event.amountMinor,
                                     event.currency, rank, time])
            case .refundedTotal, .ignored:
                break
            }
            if let stated = event.refundedMinor {
                try db.execute(sql: """
                    UPDATE vendor_payments SET stated_refunded_minor = ?, stated_refunded_time = ?
                    WHERE vendor = ? AND payment_id = ? AND stated_refunded_time <= ?
                    """, arguments: [stated, time, event.vendor, payment, time])
            }
            try db.execute(sql: """
                UPDATE vendor_payments SET refunded_minor = MAX(stated_refunded_minor,
                  (SELECT COALESCE(SUM(r.amount_minor), 0) FROM vendor_refunds r
                   WHERE r.vendor = vendor_payments.vendor AND r.payment_id = vendor_payments.payment_id
                     AND r.counts = 1))
                WHERE vendor = ? AND payment_id = ?
                """, arguments: [event.vendor, payment])
            return .stored
        }
    }

    public func vendorEvents(vendor: String) async throws -> [VendorEvent] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT vendor, event_id, type, kind, object_id, payment_id, reference, location_id, status,
                  amount_minor, currency, refunded_minor, object_time FROM vendor_events WHERE vendor = ? ORDER BY id
                """, arguments: [vendor]).map { row in
                VendorEvent(vendor: row["vendor"], eventID: row["event_id"], type: row["type"],
                            kind: VendorEvent.Kind(rawValue: row["kind"]) ?? .ignored, objectID: row["object_id"],
                            paymentID: row["payment_id"], reference: row["reference"], location: row["location_id"],
                            status: row["status"], amountMinor: row["amount_minor"], currency: row["currency"],
                            refundedMinor: row["refunded_minor"],
                            objectTime: (row["object_time"] as Int64?).map(Date.init(storeMillis:)))
            }
        }
    }

    public func vendorPayments(location: String?) async throws -> [VendorPaymentState] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT vendor, payment_id, reference, location_id, status, status_event, amount_minor, currency,
                  refunded_minor, object_time, updated_at FROM vendor_payments
                WHERE ? IS NULL OR location_id = ? ORDER BY vendor, payment_id
                """, arguments: [location, location]).map { row in
                let time: Int64 = row["object_time"]
                return VendorPaymentState(
                    vendor: row["vendor"], paymentID: row["payment_id"], reference: row["reference"],
                    location: row["location_id"], status: row["status"], statusEvent: row["status_event"],
                    amountMinor: row["amount_minor"], currency: row["currency"], refundedMinor: row["refunded_minor"],
                    objectTime: time < 0 ? nil : Date(storeMillis: time),
                    updatedAt: Date(storeMillis: row["updated_at"]))
            }
        }
    }

    public func lastVendorEvent() async throws -> [String: Date] {
        try await pool.read { db in
            var last: [String: Date] = [:]
            let sql = "SELECT vendor, MAX(received_at) AS last_at FROM vendor_events GROUP BY vendor"
            for row in try Row.fetchAll(db, sql: sql) {
                last[row["vendor"]] = Date(storeMillis: row["last_at"])
            }
            return last
        }
    }
}
