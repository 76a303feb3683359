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

        // Named by the reference (`referencedButNotDescribed`), needed by described members, declared empty.
        allowances.opaqueTypes = ["PaymentSource", "ReadCardInfoManager", "ReaderSettings", "TapToPaySettings"]

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

        // The reference prints the DocC spelling; Swift code compiled against the SDK uses the spelling the compiler
        // imports from the SDK's Objective-C interface. Reference `square-mobile-payments-ios.md` §1 ("Swift spelling
        // differs from DocC for some methods … Use these spellings"), and Square's example app, which its CI builds
        // against the SDK: `Example/Shared/Preview Content/MockMobilePaymentsSDK.swift` at tag 2.5.0 (8d1f9a9)
        // conforms to the SDK's protocols with all five spellings, and `HomeView.swift` calls `presentSettings(with:)`.
        // The five are what Swift's importer makes of the selectors the DocC gives (`authorizeWithAccessToken:…`,
        // `getIdempotencyKeyWithPaymentAttemptId:`, `getPayments:`, `presentSettingsWithViewController:completion:`,
        // `updateTrackingConsentWithGranted:`): clients see the SDK through its Objective-C interface.
        let importSpelling = "the SDK's example app implements and calls the ObjC-imported spelling; reference §1"
        allowances.spellingOverrides = [
            .init(
                type: "AuthorizationManager",
                reference: "@objc func authorize(accessToken: String, locationID: String, "
                    + "completion: @escaping (Error?) -> Void)",
                mirror: "func authorize(withAccessToken accessToken: String, locationID: String, "
                    + "completion: @escaping (Error?) -> Void)",
                reason: importSpelling
            ),
            .init(
                type: "PaymentManager",
                reference: "@objc func getIdempotencyKey(paymentAttemptId: String) -> String?",
                mirror: "func getIdempotencyKey(withPaymentAttemptId paymentAttemptId: String) -> String?",
                reason: importSpelling
            ),
            .init(
                type: "OfflinePaymentQueue",
                reference: "@objc(getPayments:) func getPayments("
                    + "completion: @escaping ([OfflinePayment], Error?) -> Void)",
                mirror: "func getPayments(_ completion: @escaping ([OfflinePayment], Error?) -> Void)",
                reason: importSpelling + " (selector getPayments:)"
            ),
            .init(
                type: "SettingsManager",
                reference: "@objc func presentSettings(viewController: UIViewController, "
                    + "completion: @escaping (Error?) -> Void)",
                mirror: "func presentSettings(with viewController: UIViewController, "
                    + "completion: @escaping (Error?) -> Void)",
                reason: importSpelling
            ),
            .init(
                type: "SettingsManager",
                reference: "@objc func updateTrackingConsent(granted: Bool)",
                mirror: "func updateTrackingConsent(withGranted granted: Bool)",
                reason: importSpelling
            ),
        ]

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
