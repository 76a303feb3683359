/// What a smart reader shows the customer while the cashier rings up (Stripe's `Cart`, through `setReaderDisplay`):
/// the lines, the tax and the total. Show it with ``PaymentTerminal/setReaderDisplay(_:)``; the reader must have
/// ``ReaderFeature/cartDisplay``.
public struct ReaderCart: Hashable, Sendable, Codable {
    /// One line of the cart.
    public struct LineItem: Hashable, Sendable, Codable {
        /// What the customer sees, e.g. "Flat white".
        public var description: String
        /// How many (at least 1).
        public var quantity: Int
        /// The price of the line (all of its units), in the cart's currency.
        public var amount: Money

        /// Creates a line.
        public init(_ description: String, quantity: Int = 1, amount: Money) {
            self.description = description
            self.quantity = quantity
            self.amount = amount
        }
    }

    /// The lines, in order.
    public var lineItems: [LineItem]
    /// The tax shown (zero for none), in the lines' currency.
    public var tax: Money

    /// Creates a cart.
    public init(lineItems: [LineItem], tax: Money) {
        self.lineItems = lineItems
        self.tax = tax
    }

    /// The lines plus the tax.
    /// - Throws: ``PaymentError/Code/currencyMismatch`` when a line or the tax is in another currency,
    ///   ``PaymentError/Code/invalidRequest`` for an empty description or a quantity below 1, and
    ///   ``PaymentError/Code/amountOverflow`` when the sum overflows.
    package func total() throws(PaymentError) -> Money {
        var sum = tax
        for line in lineItems {
            guard !line.description.isEmpty, line.quantity >= 1, line.amount.minorUnits >= 0 else {
                throw PaymentError(.invalidRequest, recovery: .fixRequest, phase: .validation,
                                   message: "A cart line needs a description, a quantity of at least 1 and an amount of at least zero.")
            }
            guard line.amount.currency == tax.currency else {
                throw PaymentError(.currencyMismatch, recovery: .fixRequest, phase: .validation,
                                   message: "Every cart line must be in the tax's currency, \(tax.currency).")
            }
            sum = try sum.adding(line.amount)
        }
        return sum
    }
}
