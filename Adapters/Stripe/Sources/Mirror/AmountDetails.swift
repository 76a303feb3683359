// Written from ../shared/reference/sdk-surface/full/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0): the amount
// breakdown the bridge reads for an on-reader tip. `surcharge` (SCPSurchargeDetails) is not mirrored: no bridge uses it.
public import Foundation

/// `SCPAmountDetails`: "details about items included in the amount after confirmation". Reached as
/// `PaymentIntent.amountDetails` and `OfflineDetails.amountDetails`. init()/new unavailable: instances come from the SDK.
public class AmountDetails: NSObject, NSCopying {
    /// `SCPAmountDetails.tip`.
    public package(set) var tip: Tip? = nil

    /// Creates the object as the SDK would hand it out (for a backend); optional properties start nil.
    package init(surface: SurfaceConstruction) {
        super.init()
    }

    /// `NSCopying`: a new object with the same values.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = AmountDetails(surface: .backend)
        copy.tip = tip
        return copy
    }
}

/// `SCPTip`: the tip of an amount's breakdown. Reached as `PaymentIntent.amountDetails?.tip`. init()/new unavailable.
public class Tip: NSObject, NSCopying {
    /// `SCPTip.amount`: the "portion of the amount that corresponds to a tip", in the smallest currency unit; nil
    /// when tipping was skipped or the location has no tipping configuration, 0 when the customer chose no tip.
    public package(set) var amount: NSNumber? = nil

    /// Creates the object as the SDK would hand it out (for a backend); optional properties start nil.
    package init(surface: SurfaceConstruction) {
        super.init()
    }

    /// `NSCopying`: a new object with the same values.
    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = Tip(surface: .backend)
        copy.amount = amount
        return copy
    }
}
