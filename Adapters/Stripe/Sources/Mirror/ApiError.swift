// Generated once from ../shared/reference/sdk-surface/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0), then kept
// by hand. The mirror-vs-surface test checks every declaration here against that file.
public import Foundation

// Value objects the SDK creates and hands out. Their public properties are read-only, as in the SDK; a backend creates
// them with the `package` initializer and may update them through the `package` setters.
// Deviation (all classes of this module): `public`, not `open` as imported Objective-C classes are. Subclassing the SDK's
// classes is no bridge's business; code that does would fail to compile here first, never only on iOS.

/// `SCPApiError`.
public class ApiError: NSObject, NSCopying {
    /// `SCPApiError.type`.
    public package(set) var type: String? = nil
    /// `SCPApiError.charge`.
    public package(set) var charge: String? = nil
    /// `SCPApiError.code`.
    public package(set) var code: String? = nil
    /// `SCPApiError.declineCode`.
    public package(set) var declineCode: String? = nil
    /// `SCPApiError.docUrl`.
    public package(set) var docUrl: String? = nil
    /// `SCPApiError.message`.
    public package(set) var message: String? = nil
    /// `SCPApiError.param`.
    public package(set) var param: String? = nil
    /// `SCPApiError.requestLogUrl`.
    public package(set) var requestLogUrl: String? = nil
    /// `SCPApiError.networkDeclineCode`.
    public package(set) var networkDeclineCode: String? = nil
    /// `SCPApiError.adviceCode`.
    public package(set) var adviceCode: String? = nil
    /// `SCPApiError.networkAdviceCode`.
    public package(set) var networkAdviceCode: String? = nil

    /// Creates the object as the SDK would hand it out (for a backend); optional properties start nil.
    package init(surface: SurfaceConstruction) {
        super.init()
    }

    /// `NSCopying`: a new object with the same values.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = ApiError(surface: .backend)
        copy.type = type
        copy.charge = charge
        copy.code = code
        copy.declineCode = declineCode
        copy.docUrl = docUrl
        copy.message = message
        copy.param = param
        copy.requestLogUrl = requestLogUrl
        copy.networkDeclineCode = networkDeclineCode
        copy.adviceCode = adviceCode
        copy.networkAdviceCode = networkAdviceCode
        return copy
    }
}
