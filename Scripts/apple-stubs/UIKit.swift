// Stand-in for UIKit (Scripts/check-apple-gated.py): only what the library targets' `#if canImport(UIKit)` blocks use.
// Shapes as in the iOS 17 SDK's interface.

/// `UIResponder` (UIKit): main-actor, open.
@MainActor
open class UIResponder {
    public init() {}
}

/// `UIViewController` (UIKit): main-actor, open, a `UIResponder`.
@MainActor
open class UIViewController: UIResponder {
    public override init() {}
    /// `present(_:animated:completion:)`.
    open func present(_ viewControllerToPresent: UIViewController, animated flag: Bool,
                      completion: (@MainActor @Sendable () -> Void)? = nil) {}
}
