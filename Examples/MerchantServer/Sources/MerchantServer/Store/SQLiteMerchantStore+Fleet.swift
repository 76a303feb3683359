import Foundation
import GRDB

extension SQLiteMerchantStore {
    public func storeFleetReport(_ report: StoredFleetReport, changed: Bool) async throws {
        try await pool.write { db in
            try db.execute(sql: """
                INSERT INTO fleet_reports (device_id, merchant_id, location_id, received_at, report)
                VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (device_id) DO UPDATE SET merchant_id = excluded.merchant_id,
                  location_id = excluded.location_id, received_at = excluded.received_at, report = excluded.report
                """, arguments: [report.deviceID, report.merchantID, report.locationID,
                                 report.receivedAt.storeMillis, report.json])
            if changed {
                try db.execute(sql: """
                    INSERT INTO fleet_report_changes (device_id, received_at, report) VALUES (?, ?, ?)
                    """, arguments: [report.deviceID, report.receivedAt.storeMillis, report.json])
            }
        }
    }

    public func fleetReport(deviceID: String) async throws -> StoredFleetReport? {
        try await pool.read { db in
            try Row.fetchOne(db, sql: """
                SELECT device_id, merchant_id, location_id, received_at, report FROM fleet_reports WHERE device_id = ?
                """, arguments: [deviceID]).map(Self.fleetReport)
        }
    }

    public func fleetReports(locationID: String?) async throws -> [StoredFleetReport] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT device_id, merchant_id, location_id, received_at, report FROM fleet_reports
                WHERE ? IS NULL OR location_id = ? ORDER BY location_id, device_id
                """, arguments: [locationID, locationID]).map(Self.fleetReport)
        }
    }

    public func fleetReportChanges(deviceID: String) async throws -> [StoredFleetReport] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: """
                SELECT c.device_id, COALESCE(r.merchant_id, '') AS merchant_id,
                  COALESCE(r.location_id, '') AS location_id, c.received_at, c.report
                FROM fleet_report_changes c LEFT JOIN fleet_reports r ON r.device_id = c.device_id
                WHERE c.device_id = ? ORDER BY c.id
                """, arguments: [deviceID]).map(Self.fleetReport)
        }
    }

    static func fleetReport(_ row: Row) -> StoredFleetReport {
        StoredFleetReport(deviceID: row["device_id"], merchantID: row["merchant_id"], locationID: row["location_id"],
                          receivedAt: Date(storeMillis: row["received_at"]), json: row["report"])
    }
}
