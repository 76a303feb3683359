import Foundation
import TenderWire

/// What a device receives when it enrols with a merchant server (`POST /v1/devices/enrol`): its token, which it sends
/// as `Authorization: Bearer …` on every later request, and where and as what it is enrolled. Keep the token in the
/// Keychain (or the platform's secret store); it is shown by the server once. It never appears in a `description`, a
/// `dump` or a `Mirror`.
public struct DeviceEnrolment: Sendable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable {
    /// The server's id for this device (what an administrator lists and revokes).
    public let deviceID: String
    /// The device token: for the `Authorization` header, nowhere else.
    public let token: String
    /// The merchant, location and role the enrolment code was made for.
    public let merchantID: String, locationID: String, role: String

    /// `DeviceEnrolment(dev_…, location: L…, role: cashier, token: redacted)`.
    public var description: String {
        "DeviceEnrolment(\(deviceID), location: \(locationID), role: \(role), token: redacted)"
    }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// Reflection shows everything but the token.
    public var customMirror: Mirror {
        Mirror(self, children: ["deviceID": deviceID, "merchantID": merchantID, "locationID": locationID,
                                "role": role], displayStyle: .struct)
    }
}

extension TenderBackendClient {
    /// `POST /v1/devices/enrol`: exchanges a one-time enrolment code (from the merchant's administrator) for this
    /// device's token. The code works once; a wrong, used or expired code is a `not_authorized` ``TenderWire/PaymentError``,
    /// and repeated wrong codes are rate-limited (`rate_limited`). Build the client for later requests with the token:
    /// `TenderBackendClient(baseURL: url) { ["Authorization": "Bearer \(enrolment.token)"] }`.
    public func enrol(code: String, deviceName: String? = nil) async throws -> DeviceEnrolment {
        struct Body: Encodable { var code: String; var name: String? }
        guard let answer = try await call("POST", ["v1", "devices", "enrol"], body: Body(code: code, name: deviceName),
                                          as: DeviceEnrolment.self, phase: .authorization)
        else { throw Self.empty(.authorization) }
        return answer
    }
}
