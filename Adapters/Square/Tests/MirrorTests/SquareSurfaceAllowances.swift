import Foundation

// What `SquareMobilePaymentsSurface` may differ by from `square-mobile-payments-ios.json`, and why. Everything not
// listed here must match the reference exactly (after DeclarationNormalizer removes `@objc`, `any` and spacing).

enum SquareSurfaceAllowances {
    /// The reference file.
    static let referenceFile = "square-mobile-payments-ios.json"
    /// The mirror module.
    static let module = "SquareMobilePaymentsSurface"

    /// The allowances, for the platform the test runs on.
    static var current: SurfaceAllowances {
        var allowances = SurfaceAllowances(
            normalizer: DeclarationNormalizer(
                // The mirror is one module standing for both of the SDK's.
                modulesToUnqualify: ["MobilePaymentsSDKAPI", "SquareMobilePaymentsSDK", module]
            )
        )

        #if !canImport(UIKit)
        allowances.extraTypes["UIViewController"] = .init(
            reason: "UIKit does not exist here; a minimal stand-in lets code pass the presenting view controller",
            members: ["override init()"]
        )
        #endif

        // Witnesses of conformances the reference lists (its README: synthesized Equatable/Hashable/OptionSet/
        // SetAlgebra/CustomNSError default implementations were left out of the member lists).
        allowances.conformanceWitnesses = [
            "CustomStringConvertible": ["var description: String { get }", "override var description: String { get }"],
            // `hash` must agree with an overridden `isEqual(_:)` (Square's ObjC headers declare both).
            "NSObjectProtocol": ["override func isEqual(_ object: Any?) -> Bool", "override var hash: Int { get }"],
            "CustomNSError": ["static var errorDomain: String { get }"],
            "LocalizedError": ["var errorDescription: String? { get }"],
            "LosslessStringConvertible": ["init?(_ description: String)"],
            "CaseIterable": ["static var allCases: [AdditionalPaymentMethods] { get }"],
            // An `OptionSet` is created from its raw value (the SDK's ObjC header declares `initWithRawValue:`).
            "OptionSet": ["init(rawValue: Int)"],
        ]

        // Where DocC and Square's compiled sample spell a member differently, the reference records both (`swift` and
        // `alternateSpelling`) and the comparison requires the sample's: no allowance here.
        allowances.conformancesNotMirrored = [
            "Copyable": "implicit for every Swift type; never printed as a relationship",
            "SendableMetatype": "implied by Sendable; listed only where the mirror is Sendable",
            "CVarArg": "NSObject is CVarArg only with the Objective-C runtime",
            "MPSDKErrors.SquareError": "Square's MPSDKErrors module is not mirrored; each error enum has debugInfo",
        ]
        let sendable = (conformances: Set(["Sendable", "SendableMetatype"]),
                        reason: "final and immutable; Sendable so that its static let members compile under Swift 6")
        allowances.extraConformances = ["CardInputMethods": sendable, "AdditionalPaymentMethods": sendable]
        return allowances
    }
}
