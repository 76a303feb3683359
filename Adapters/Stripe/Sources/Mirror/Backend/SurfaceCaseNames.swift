import Foundation
import StripeTerminalSurface
import TenderStripe

/// The backend's by-name conversions between the mirror's enums (Swift enums in this module, whose case names Swift's
/// reflection prints) and the adapter's `String`-backed ones. Never by raw value: the adapter's enums carry names only,
/// and the SDK's raw values drift between releases.
enum SurfaceCaseNames {
    /// The case name of a value of one of this module's enums.
    static func name<Value>(of value: Value) -> String { String(describing: value) }

    /// The adapter's case of the same name.
    static func adapter<Target: RawRepresentable>(_ value: some Any, as _: Target.Type) -> Target?
        where Target.RawValue == String {
        Target(rawValue: name(of: value))
    }

    /// This module's case named `name`, found among the raw values `0...limit`.
    static func surface<Target: RawRepresentable>(named name: String, as _: Target.Type, limit: Int = 64) -> Target?
        where Target.RawValue: BinaryInteger {
        table(Target.self, limit: limit)[name]
    }

    /// `ErrorCode.Code` by name (its raw values reach 10107).
    static func errorCode(named name: String) -> ErrorCode.Code? { errorCodes[name] }

    private static let errorCodes: [String: ErrorCode.Code] = table(ErrorCode.Code.self, limit: 11_000)

    private static func table<Target: RawRepresentable>(_: Target.Type, limit: Int) -> [String: Target]
        where Target.RawValue: BinaryInteger {
        var table: [String: Target] = [:]
        for raw in 0...limit {
            if let value = Target(rawValue: Target.RawValue(raw)) { table[name(of: value)] = value }
        }
        return table
    }
}
