import Foundation
import PostgresNIO

extension PostgresMerchantStore {
    public func storeFleetReport(_ report: StoredFleetReport, changed: Bool) async throws {
        let logger = logger
        try await transaction { connection in
            try await connection.query("""
                INSERT INTO fleet_reports (device_id, merchant_id, location_id, received_at, report)
                VALUES (\(report.deviceID), \(report.merchantID), \(report.locationID),
                        \(report.receivedAt.storeMillis), \(report.json))
                ON CONFLICT (device_id) DO UPDATE SET merchant_id = excluded.merchant_id,
                  location_id = excluded.location_id, received_at = excluded.received_at, report = excluded.report
                """, logger: logger)
            if changed {
                try await connection.query("""
                    INSERT INTO fleet_report_changes (device_id, received_at, report)
                    VALUES (\(report.deviceID), \(report.receivedAt.storeMillis), \(report.json))
                    """, logger: logger)
            }
        }
    }

    public func fleetReport(deviceID: String) async throws -> StoredFleetReport? {
        let rows = try await client.query("""
            SELECT device_id, merchant_id, location_id, received_at, report FROM fleet_reports
            WHERE device_id = \(deviceID)
            """, logger: logger)
        return try await Self.reports(rows).first
    }

    public func fleetReports(locationID: String?) async throws -> [StoredFleetReport] {
        let rows = try await client.query("""
            SELECT device_id, merchant_id, location_id, received_at, report FROM fleet_reports
            WHERE \(locationID)::TEXT IS NULL OR location_id = \(locationID) ORDER BY location_id, device_id
            """, logger: logger)
        return try await Self.reports(rows)
    }

    public func fleetReportChanges(deviceID: String) async throws -> [StoredFleetReport] {
        let rows = try await client.query("""
            SELECT c.device_id, COALESCE(r.merchant_id, ''), COALESCE(r.location_id, ''), c.received_at, c.report
            FROM fleet_report_changes c LEFT JOIN fleet_reports r ON r.device_id = c.device_id
            WHERE c.device_id = \(deviceID) ORDER BY c.id
            """, logger: logger)
        return try await Self.reports(rows)
    }

    /// The rows (device, merchant, location, received, report) as stored reports.
    static func reports(_ rows: PostgresRowSequence) async throws -> [StoredFleetReport] {
        var reports: [StoredFleetReport] = []
        for try await (device, merchant, location, received, json) in rows.decode((String, String, String, Int64,
                                                                                  String).self) {
            reports.append(StoredFleetReport(deviceID: device, merchantID: merchant, locationID: location,
                                             receivedAt: Date(storeMillis: received), json: json))
        }
        return reports
    }
}
