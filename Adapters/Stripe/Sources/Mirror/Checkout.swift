// Written from ../shared/reference/sdk-surface/full/stripe-terminal-ios.json (Stripe Terminal iOS 5.5.0: SCPCart.h,
// SCPCartLineItem.h, SCPTippingConfiguration.h), mirrored completely: the bridge uses them for the cart shown on smart
// readers (`Terminal.setReaderDisplay(_:completion:)`) and for on-reader tipping
// (`CollectPaymentIntentConfigurationBuilder.setTippingConfiguration(_:)`).
public import Foundation

/// `SCPCart`: what a smart reader shows while the cashier rings up (`setReaderDisplay`). Made by ``CartBuilder``.
public class Cart: NSObject {
    /// `SCPCart.lineItems`.
    public private(set) var lineItems: [CartLineItem]
    /// `SCPCart.tax`, in the currency's minor units.
    public private(set) var tax: Int
    /// `SCPCart.total`, in the currency's minor units.
    public private(set) var total: Int
    /// `SCPCart.currency`.
    public private(set) var currency: String

    init(lineItems: [CartLineItem], tax: Int, total: Int, currency: String) {
        self.lineItems = lineItems
        self.tax = tax
        self.total = total
        self.currency = currency
        super.init()
    }
}

/// `SCPCartBuilder`.
public class CartBuilder: SCPBuilder<Cart> {
    private var currency: String
    private var tax = 0
    private var total = 0
    private var lineItems: [CartLineItem] = []

    /// `build:`: the configured ``Cart``, or the error the backend reports for invalid values.
    @discardableResult
    public override func build() throws -> Cart {
        let product = Cart(lineItems: lineItems, tax: tax, total: total, currency: currency)
        try SurfaceRuntime.backend(for: "CartBuilder.build()").validate(.cart(product))
        return product
    }

    /// `-initWithCurrency:`.
    public init(currency: String) {
        self.currency = currency
        super.init()
    }

    /// `-setCurrency:`.
    @discardableResult
    public func setCurrency(_ currency: String) -> CartBuilder {
        self.currency = currency
        return self
    }

    /// `-setTax:`.
    @discardableResult
    public func setTax(_ tax: Int) -> CartBuilder {
        self.tax = tax
        return self
    }

    /// `-setTotal:`.
    @discardableResult
    public func setTotal(_ total: Int) -> CartBuilder {
        self.total = total
        return self
    }

    /// `-setLineItems:`.
    @discardableResult
    public func setLineItems(_ lineItems: [CartLineItem]) -> CartBuilder {
        self.lineItems = lineItems
        return self
    }
}

/// `SCPCartLineItem`: one line of a ``Cart``. Made by ``CartLineItemBuilder``.
public class CartLineItem: NSObject {
    /// `SCPCartLineItem.quantity`.
    public private(set) var quantity: Int
    /// `SCPCartLineItem.displayName`.
    public private(set) var displayName: String
    /// `SCPCartLineItem.amount`, in the currency's minor units.
    public private(set) var amount: Int

    init(quantity: Int, displayName: String, amount: Int) {
        self.quantity = quantity
        self.displayName = displayName
        self.amount = amount
        super.init()
    }
}

/// `SCPCartLineItemBuilder`.
public class CartLineItemBuilder: SCPBuilder<CartLineItem> {
    private var displayName: String
    private var quantity = 1
    private var amount = 0

    /// `build:`: the configured ``CartLineItem``, or the error the backend reports for invalid values.
    @discardableResult
    public override func build() throws -> CartLineItem {
        let product = CartLineItem(quantity: quantity, displayName: displayName, amount: amount)
        try SurfaceRuntime.backend(for: "CartLineItemBuilder.build()").validate(.cartLineItem(product))
        return product
    }

    /// `-initWithDisplayName:`.
    public init(displayName: String) {
        self.displayName = displayName
        super.init()
    }

    /// `-setDisplayName:`.
    @discardableResult
    public func setDisplayName(_ displayName: String) -> CartLineItemBuilder {
        self.displayName = displayName
        return self
    }

    /// `-setQuantity:`.
    @discardableResult
    public func setQuantity(_ quantity: Int) -> CartLineItemBuilder {
        self.quantity = quantity
        return self
    }

    /// `-setAmount:`.
    @discardableResult
    public func setAmount(_ amount: Int) -> CartLineItemBuilder {
        self.amount = amount
        return self
    }
}

/// `SCPTippingConfiguration`: on-reader tipping for a collection (the amount tips are computed on). Made by
/// ``TippingConfigurationBuilder``.
public class TippingConfiguration: NSObject, NSCopying {
    /// `SCPTippingConfiguration.eligibleAmount`: the amount tip percentages apply to, in minor units.
    public private(set) var eligibleAmount: Int

    init(eligibleAmount: Int) {
        self.eligibleAmount = eligibleAmount
        super.init()
    }

    /// `NSCopying`: immutable, so a copy is the object itself.
    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// `SCPTippingConfigurationBuilder`.
public class TippingConfigurationBuilder: SCPBuilder<TippingConfiguration> {
    private var eligibleAmount = 0

    /// `init`.
    public override init() {
        super.init()
    }

    /// `build:`: the configured ``TippingConfiguration``, or the error the backend reports for invalid values.
    @discardableResult
    public override func build() throws -> TippingConfiguration {
        let product = TippingConfiguration(eligibleAmount: eligibleAmount)
        try SurfaceRuntime.backend(for: "TippingConfigurationBuilder.build()").validate(.tippingConfiguration(product))
        return product
    }

    /// `-setEligibleAmount:` (returns `Self`, as the SDK's `instancetype`).
    @discardableResult
    public func setEligibleAmount(_ eligibleAmount: Int) -> Self {
        self.eligibleAmount = eligibleAmount
        return self
    }
}
