import Foundation

/// Everything the mirror is allowed to do differently from the reference, each with its reason. The comparison uses
/// only these lists and the general rules in ``SurfaceComparison`` (which are documented there); anything else that
/// differs is a mismatch. Each entry is itself checked: a left-out member that the mirror declares after all, or a
/// deviation whose mirrored form is gone, is reported.
enum StripeSurfaceAllowances {
    /// Reference members the mirror does not declare, by `"Type|declaration"` (the reference's `swift` field).
    static let leftOut: [String: String] = [
        "BluetoothConnectionConfiguration|weak var delegate: (any MobileReaderDelegate)? { get }":
            "Swift source cannot override the base class's read-only `delegate: (any ReaderDelegate)?` with a narrower "
            + "type; the inherited base declaration stands in (code that compiles against it compiles on iOS).",
        "TapToPayConnectionConfiguration|weak var delegate: (any TapToPayReaderDelegate)? { get }":
            "As BluetoothConnectionConfiguration's: the inherited `delegate: (any ReaderDelegate)?` stands in.",
        "InternetConnectionConfiguration|weak var delegate: (any InternetReaderDelegate)? { get }":
            "As BluetoothConnectionConfiguration's: the inherited `delegate: (any ReaderDelegate)?` stands in.",
    ]

    /// Reference members declared with a different spelling that Swift source forces, by `"Type|declaration"`: the
    /// spelling the mirror declares instead, and why.
    static let deviations: [String: (mirrored: String, reason: String)] = [
        "MobileReaderDelegate|func reader(_ reader: Reader, didRequestReaderInput inputOptions: ReaderInputOptions = [])": (
            "func reader(_ reader: Reader, didRequestReaderInput inputOptions: ReaderInputOptions)",
            "Swift source cannot give a protocol requirement a default argument; only the SDK calls this requirement."
        ),
        "TapToPayReaderDelegate|func tapToPayReader(_ reader: Reader, didRequestReaderInput inputOptions: ReaderInputOptions = [])": (
            "func tapToPayReader(_ reader: Reader, didRequestReaderInput inputOptions: ReaderInputOptions)",
            "Swift source cannot give a protocol requirement a default argument; only the SDK calls this requirement."
        ),
    ]

    /// Reference members a symbol graph cannot show (names starting with `_` are left out of every symbol graph), by
    /// `"Type|declaration"`. Each is instead referenced with its full function type in `HiddenMemberSignatureTests`,
    /// which does not compile if the spelling changes.
    static let checkedByTypedReference: Set<String> = [
        "Terminal|func __clearCachedCredentials() throws",
        "Terminal|func __supportsReaders(of deviceType: DeviceType, discoveryMethod: DiscoveryMethod, simulated: Bool) throws",
    ]

    /// Protocols whose type declaration the mirror spells differently, with the mirrored declaration and why.
    static let typeDeclarationDeviations: [String: (mirrored: String, reason: String)] = [
        "ConnectionTokenProvider": (
            "protocol ConnectionTokenProvider : AnyObject",
            "the SDK's is an @objc protocol, class-bound without saying so; Swift source needs `AnyObject` to be class-bound."
        ),
    ]

    /// Conformances the graph shows beyond the reference's list, by kind of type. They come with the declaration
    /// (synthesized by Swift or inherited), exist on the SDK's types too, and add no API a bridge could misuse.
    static let impliedConformances: [String: Set<String>] = [
        // NSObject brings these to every subclass, on iOS as on Linux.
        "class": ["NSObjectProtocol", "Equatable", "Hashable", "CustomStringConvertible", "CustomDebugStringConvertible"],
        // NSError adds these (it is Sendable and an Error on both platforms).
        "errorClass": [
            "NSObjectProtocol", "Equatable", "Hashable", "CustomStringConvertible", "CustomDebugStringConvertible",
            "NSCopying", "NSSecureCoding", "NSCoding", "Sendable", "SendableMetatype", "Error",
        ],
        // A raw-value enum is Equatable, Hashable and RawRepresentable; SendableMetatype comes with Sendable.
        "enum": ["Equatable", "Hashable", "RawRepresentable", "Sendable", "SendableMetatype"],
        // OptionSet refines SetAlgebra, RawRepresentable, Equatable and ExpressibleByArrayLiteral.
        "optionset": ["SetAlgebra", "RawRepresentable", "Equatable", "ExpressibleByArrayLiteral", "SendableMetatype"],
        // ErrorCode adopts Foundation's _BridgedStoredNSError as the imported struct does, which brings these.
        "struct": ["Equatable", "Sendable", "SendableMetatype", "CustomStringConvertible"],
        "protocol": [],
    ]

    /// Members the graph shows beyond the reference that come with a conformance the reference lists, by rule:
    /// - `NSCopying`: `func copy(with zone: NSZone? = nil) -> Any`;
    /// - an enum with a raw type: `init?(rawValue: <raw type>)`.
    static func impliedMembers(of type: SurfaceReference.TypeEntry) -> Set<String> {
        var members: Set<String> = []
        if type.conformances?.contains("NSCopying") == true {
            members.insert("func copy(with zone: NSZone? = nil) -> Any")
        }
        if type.kind == "enum", let raw = type.rawType {
            members.insert("init?(rawValue: \(raw))")
        }
        return Set(members.map(DeclarationNormalizer.normalize))
    }
}
