public import Foundation

/// Square's `MoneyAmount`: an amount in the currency's smallest unit. Most of the SDK's API takes and returns this
/// protocol; ``Money`` conforms.
///
/// Mirror: `@objc(SQMPMoneyAmount)` is dropped.
public protocol MoneyAmount: NSObjectProtocol {
    /// The amount in the currency's smallest unit (cents for USD, yen for JPY).
    var amount: UInt { get }
    /// The currency.
    var currency: Currency { get }
    /// A text form of the amount.
    var description: String { get }
}

/// Square's `Money`: an amount in the currency's smallest unit and a currency.
///
/// Mirror: `@objc(SQMPMoney)` is dropped. `isEqual(_:)` and `hash` are overridden for value equality, which an
/// older SDK's generated Objective-C header (in Square's React Native plugin) declares for `SQMPMoney`.
public class Money: NSObject, MoneyAmount {
    /// The amount in the currency's smallest unit.
    public var amount: UInt
    /// The currency.
    public var currency: Currency

    /// Creates an amount of money.
    public required init(amount: UInt, currency: Currency) {
        self.amount = amount
        self.currency = currency
        super.init()
    }

    /// The sum of the non-`nil` amounts, in their currency.
    ///
    /// Square does not document what happens with no amount or with amounts in different currencies; the mirror
    /// does not guess and stops the process. An overflowing sum traps.
    public convenience init(totaling monies: (any MoneyAmount)?...) {
        let present = monies.compactMap { $0 }
        guard let currency = present.first?.currency else {
            preconditionFailure("SquareMobilePaymentsSurface: Money(totaling:) of no amount is not documented")
        }
        guard present.allSatisfy({ $0.currency == currency }) else {
            preconditionFailure("SquareMobilePaymentsSurface: Money(totaling:) across currencies is not documented")
        }
        self.init(amount: present.reduce(0) { $0 + $1.amount }, currency: currency)
    }

    /// The SDK's text for this amount, from the ``SurfaceBackend``.
    public override var description: String {
        SurfaceBackendSlot.current.text(.moneyDescription(amount: amount, currency: currency.surfaceCase))
    }

    /// Equal to another `Money` with the same amount and currency.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? Money else { return false }
        return other.amount == amount && other.currency == currency
    }

    /// A hash of the amount and currency, consistent with ``isEqual(_:)``.
    public override var hash: Int {
        var hasher = Hasher()
        hasher.combine(amount)
        hasher.combine(currency)
        return hasher.finalize()
    }
}
