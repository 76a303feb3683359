import Foundation
import TenderWire

/// The merchant server's own request and answer bodies (beside TenderRoutes' wire types).
public enum MerchantBodies {
    /// `POST /admin/enrolment-codes`.
    public struct NewCode: Codable, Sendable {
        public var locationID: String
        public var role: String
        public var merchantID: String?
        public init(locationID: String, role: String, merchantID: String? = nil) {
            self.locationID = locationID
            self.role = role
            self.merchantID = merchantID
        }
    }
    /// Its answer: the code, shown once.
    public struct Code: Codable, Sendable {
        public var code: String
        public var merchantID: String
        public var locationID: String
        public var role: String
        public var expiresAt: Date
    }
    /// `POST /v1/devices/enrol`.
    public struct Enrol: Codable, Sendable {
        public var code: String
        public var name: String?
    }
    /// Its answer: the device token, shown once.
    public struct Enrolled: Codable, Sendable {
        public var deviceID: String
        public var token: String
        public var merchantID: String
        public var locationID: String
        public var role: String
    }
    /// A device in `GET /admin/devices` (never its token or hash).
    public struct Device: Codable, Sendable, Equatable {
        public var id: String
        public var merchantID: String
        public var locationID: String
        public var role: String
        public var name: String
        public var createdAt: Date
        public var revokedAt: Date?

        init(_ record: DeviceRecord) {
            id = record.id
            merchantID = record.merchantID
            locationID = record.locationID
            role = record.role
            name = record.name
            createdAt = record.createdAt
            revokedAt = record.revokedAt
        }
    }
    public struct Devices: Codable, Sendable { public var devices: [Device] }
    public struct Audit: Codable, Sendable { public var entries: [AuditEntry] }
    /// Every error the merchant server answers itself, shaped like TenderRoutes' (`{"error": PaymentError}`).
    struct ErrorBody: Encodable { var error: PaymentError }
}

enum MerchantJSON {
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
    /// ISO 8601 times, with or without fractional seconds.
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            // Format styles, not an ISO8601DateFormatter per value (which took half the fleet page's time).
            if let date = try? Date(text, strategy: .iso8601) { return date }
            if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
                return date
            }
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "not an ISO 8601 time: \(text)"))
        }
        return decoder
    }
}
