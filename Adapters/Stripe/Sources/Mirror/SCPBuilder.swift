public import Foundation

/// `SCPBuilder<T>`: the base of the SDK's builders (no `NS_SWIFT_NAME`, so Swift keeps the prefix). Each concrete
/// builder subclasses `SCPBuilder<Product>` and overrides `build()`, which throws for invalid values.
public class SCPBuilder<T>: NSObject where T: AnyObject {
    /// `-build:`. Abstract here as in the SDK: every concrete builder overrides it.
    @discardableResult
    public func build() throws -> T {
        preconditionFailure("StripeTerminalSurface: SCPBuilder.build() is abstract; use a concrete builder")
    }
}
