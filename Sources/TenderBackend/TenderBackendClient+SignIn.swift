import Foundation
import TenderWire

/// What Square's Mobile Payments SDK signs in with: the seller's OAuth access token and the location id, as your
/// server hands them over (`POST /v1/square/authorization`). Pass both to
/// `SquareProcessor.authorize(accessToken:locationID:)` and keep neither. The token never appears in a
/// `description`, a `dump` or a `Mirror`.
public struct SquareAuthorization: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The seller's OAuth access token: for the SDK's `authorize(withAccessToken:locationID:)`, nowhere else.
    public let accessToken: String
    /// The location the device takes payments at.
    public let locationID: String

    /// `SquareAuthorization(location: L…, accessToken: redacted)`.
    public var description: String { "SquareAuthorization(location: \(locationID), accessToken: redacted)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// Reflection shows the location only.
    public var customMirror: Mirror { Mirror(self, children: ["locationID": locationID], displayStyle: .struct) }
}

extension TenderBackendClient {
    /// `POST /v1/stripe/connection-token`: a connection token for the device's location, for Stripe's token provider
    /// (`StripeBridgeTokenProvider { try await backend.connectionToken() }`). Returned, never kept.
    public func connectionToken() async throws -> String {
        guard let token = try await call("POST", ["v1", "stripe", "connection-token"],
                                         as: BackendBodies.ConnectionToken.self, phase: .authorization)
        else { throw Self.empty(.authorization) }
        return token.secret
    }

    /// `POST /v1/square/authorization`: the seller's access token and the device's location id, for Square's SDK.
    public func squareAuthorization() async throws -> SquareAuthorization {
        guard let answer = try await call("POST", ["v1", "square", "authorization"],
                                          as: BackendBodies.SquareAuthorization.self, phase: .authorization)
        else { throw Self.empty(.authorization) }
        return SquareAuthorization(accessToken: answer.accessToken, locationID: answer.locationID)
    }
}
