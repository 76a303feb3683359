#if canImport(UIKit)
public import UIKit
#else
public import Foundation

/// A stand-in for UIKit's `UIViewController`, declared only where UIKit cannot be imported (Linux, macOS).
///
/// Square's `startPayment(_:promptParameters:from:delegate:)` and `presentSettings(with:completion:)` take the view
/// controller that presents Square's UI; code written against the SDK can create one of these and pass it. It has no
/// behaviour: a backend only receives it. Not part of Square's SDK (an allowlisted addition in the surface check).
open class UIViewController: NSObject {
    /// Creates a view controller.
    public override init() {
        super.init()
    }
}
#endif
