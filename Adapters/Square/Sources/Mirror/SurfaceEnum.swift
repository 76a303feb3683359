import Foundation

// Internal plumbing shared by the mirrored enums. Nothing here is public: the symbol-graph check sees only the
// members Square declares. Each enum names its cases explicitly (`surfaceCaseName`), so everything that crosses
// the backend seam goes by case name, never by this mirror's own raw values.

/// A mirrored SDK enum that can name its cases.
protocol SurfaceEnum: Hashable {
    /// The enum's Swift name, as Square spells it.
    static var surfaceTypeName: String { get }
    /// Every case, in declaration order.
    static var surfaceCases: [Self] { get }
    /// This case's Swift name, as Square spells it.
    var surfaceCaseName: String { get }
}

extension SurfaceEnum {
    /// This value as the backend sees it.
    var surfaceCase: SurfaceCase { SurfaceCase(type: Self.surfaceTypeName, name: surfaceCaseName) }

    /// The case named `name`, if the enum has one.
    init?(surfaceCaseName name: String) {
        guard let match = Self.surfaceCases.first(where: { $0.surfaceCaseName == name }) else { return nil }
        self = match
    }

    /// `CustomStringConvertible.description`: the SDK's text, from the backend.
    var surfaceDescription: String {
        SurfaceBackendSlot.current.text(.description(surfaceCase))
    }

    /// `Decodable.init(from:)`: the backend reads the case name; an unknown name is a decoding error.
    static func surfaceDecode(from decoder: any Decoder) throws -> Self {
        let name = try SurfaceBackendSlot.current.decodeCase(of: surfaceTypeName, from: decoder)
        guard let value = Self(surfaceCaseName: name) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath,
                debugDescription: "\(surfaceTypeName) has no case named \(name)"
            ))
        }
        return value
    }

    /// `Encodable.encode(to:)`: the backend writes the case.
    func surfaceEncode(to encoder: any Encoder) throws {
        try SurfaceBackendSlot.current.encode(surfaceCase, to: encoder)
    }
}

/// A mirrored SDK error enum (`PaymentError`, `AuthorizationError`, `OfflinePaymentQueueError`,
/// `ReaderPairingError`).
protocol SurfaceErrorEnum: SurfaceEnum {}

extension SurfaceErrorEnum {
    /// `CustomNSError.errorDomain`: `"MobilePaymentsSDKAPI.<type>"`, the domain Square's own React Native plugin
    /// uses for these errors (reference §1, "Error bridging"), which is also Swift's default for an error enum of
    /// the module `MobilePaymentsSDKAPI`.
    static var surfaceErrorDomain: String { "MobilePaymentsSDKAPI.\(surfaceTypeName)" }

    /// `LocalizedError.errorDescription`: the SDK's text, from the backend.
    var surfaceErrorDescription: String {
        SurfaceBackendSlot.current.text(.errorDescription(surfaceCase))
    }

    /// `SquareError.debugInfo`: the SDK's debug code and message, from the backend.
    var surfaceDebugInfo: (code: String, message: String) {
        let backend = SurfaceBackendSlot.current
        return (backend.text(.debugCode(surfaceCase)), backend.text(.debugMessage(surfaceCase)))
    }
}
