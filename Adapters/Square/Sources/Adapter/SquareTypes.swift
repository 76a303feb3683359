package import Foundation

/// The namespace of every type that mirrors Square's Mobile Payments SDK (iOS 2.5), so that Square's names
/// (`Square.Money`, `Square.Currency`, `Square.CardBrand`, `Square.PaymentError`…) never collide with Tender's.
///
/// The SDK's model types are `@objc` protocols and classes (`Payment`, `OnlinePayment`, `ReaderInfo`, `Money`…)
/// that must be read on the main thread. Here they are `Sendable` value types: the bridge copies each SDK object
/// into its value on the main actor, so the adapter never holds an SDK object across threads. Where the adapter
/// must act on an SDK object later (`PaymentHandle`, `PairingHandle`), the client protocol keeps a handle the
/// bridge implements over the SDK's own object. `Payment` stays a protocol, as in the SDK, with
/// ``OnlinePayment`` and ``OfflinePayment`` as the two values a delegate callback casts to.
///
/// Square publishes no raw values for its enums except `ProcessingMode` (see the reference, §1). The mirrors' `String`
/// raw values are their case names (so they are `Codable` and readable in the simulator's state file), never Square's
/// integers: every mapping goes by case name. Never persist a Square enum's integer.
package enum Square {}

// MARK: - Money

extension Square {
    /// Square's `MoneyAmount`: what the SDK's APIs take and return (`amount` in minor units, `currency`).
    package protocol MoneyAmount: Sendable {
        /// The amount in minor units.
        var amount: UInt { get }
        /// The currency.
        var currency: Currency { get }
    }

    /// Square's `Currency`: the six currencies the SDK accepts, plus `unknown`.
    package enum Currency: String, Hashable, Sendable, Codable, CaseIterable {
        /// Australian dollar.
        case AUD
        /// Canadian dollar.
        case CAD
        /// Euro.
        case EUR
        /// Pound sterling.
        case GBP
        /// Japanese yen.
        case JPY
        /// United States dollar.
        case USD
        /// A currency the SDK does not know.
        case unknown

        /// The ISO 4217 code (`"USD"`), or `"unknown"`.
        package var currencyCode: String { rawValue }

        /// Square's `init?(_ iso4217:)`: `nil` for a code outside the six.
        package init?(_ iso4217: String) {
            guard let currency = Currency(rawValue: iso4217.uppercased()), currency != .unknown else { return nil }
            self = currency
        }
    }

    /// Square's `Money` (a `MoneyAmount`; a class in the SDK, a value here): an unsigned amount in minor units and a
    /// currency.
    package struct Money: MoneyAmount, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The amount in minor units.
        package var amount: UInt
        /// The currency.
        package var currency: Currency

        /// Square's `Money(amount:currency:)`.
        package init(amount: UInt, currency: Currency) {
            self.amount = amount
            self.currency = currency
        }

        /// Copies any `MoneyAmount` (what the bridge does with the SDK's objects).
        package init(_ amount: any MoneyAmount) { self.init(amount: amount.amount, currency: amount.currency) }

        /// Square's `Money(totaling:)`: the sum of amounts in one currency (`nil`s skipped); the currency of the
        /// first, and `UInt.max` on overflow (the SDK's behaviour on overflow is not published).
        package init(totaling amounts: (any MoneyAmount)?...) {
            let present = amounts.compactMap { $0 }
            var total: UInt = 0
            for amount in present {
                let (sum, overflow) = total.addingReportingOverflow(amount.amount)
                total = overflow ? UInt.max : sum
            }
            self.init(amount: total, currency: present.first?.currency ?? .unknown)
        }

        /// "1250 USD" (minor units).
        package var description: String { "\(amount) \(currency.currencyCode)" }
    }
}

// MARK: - Payment parameters

extension Square {
    /// Square's `ProcessingMode`: online, offline, or chosen by the SDK. The only Square enum with published raw
    /// values (`onlineOnly = 0`, `offlineOnly = 1`, `autoDetect = 2`); Tender still maps it by case.
    package enum ProcessingMode: String, Hashable, Sendable, Codable, CaseIterable {
        /// Real-time network payment; the only mode Sandbox supports.
        case onlineOnly
        /// Stored on the device first, uploaded later. Not available in Sandbox.
        case offlineOnly
        /// Online or offline depending on connectivity, when the seller has opted in; otherwise online.
        case autoDetect
    }

    /// Square's `DelayAction`: what Square does to an uncompleted delayed-capture payment when its delay ends.
    package enum DelayAction: String, Hashable, Sendable, Codable, CaseIterable {
        /// Cancel (void) it. The default.
        case cancel
        /// Complete (capture) it.
        case complete
    }

    /// Square's `PromptMode`: whose UI prompts for the card.
    package enum PromptMode: String, Hashable, Sendable, Codable, CaseIterable {
        /// Square's own payment UI.
        case `default`
        /// The app's UI.
        case custom
    }

    /// Square's `AdditionalPaymentMethods` option set (a `final class` in the SDK): what the payment UI offers
    /// besides the reader.
    package struct AdditionalPaymentMethods: OptionSet, Hashable, Sendable, Codable {
        /// The bits (Tender's own; Square publishes none).
        package let rawValue: Int
        /// Creates a set from bits.
        package init(rawValue: Int) { self.rawValue = rawValue }
        /// Keyed card entry.
        package static let keyed = AdditionalPaymentMethods(rawValue: 1 << 0)
        /// Cash.
        package static let cash = AdditionalPaymentMethods(rawValue: 1 << 1)
        /// Tap to Pay on iPhone.
        package static let tapToPay = AdditionalPaymentMethods(rawValue: 1 << 2)
        /// All of them.
        package static let all: AdditionalPaymentMethods = [.keyed, .cash, .tapToPay]
    }

    /// Square's `PromptParameters(mode:additionalMethods:)`. These are Square's only prompt settings: the Mobile
    /// Payments SDK has no tip, receipt or signature screen settings (a tip is passed as `tipMoney`, and Square's UI
    /// then does not ask for one).
    package struct PromptParameters: Hashable, Sendable, Codable {
        /// Whose UI prompts.
        package var mode: PromptMode
        /// Payment methods offered besides the reader (keyed entry needs `.keyed`).
        package var additionalMethods: AdditionalPaymentMethods

        /// Creates prompt parameters. Square's init has no defaults; these are Tender's: Square's UI, reader only.
        package init(mode: PromptMode = .default, additionalMethods: AdditionalPaymentMethods = []) {
            self.mode = mode
            self.additionalMethods = additionalMethods
        }
    }

    /// Square's `PaymentParameters` (2.5; a class in the SDK): what to charge and how. Not mirrored: `createdAt`
    /// (set by the SDK when the object is made; the SDK's payments carry their own `createdAt`) and `cardHandle`
    /// (stored swiped cards, which Tender does not use).
    package struct PaymentParameters: Hashable, Sendable, Codable {
        /// Your ID for one payment attempt: Tender passes ``Tender/PaymentAttempt/vendorAttemptID(reference:)``
        /// (the reference for the first vendor payment, `"<reference>#<n>"` after a definite decline). The SDK
        /// generates an idempotency key and stores it with this ID.
        package var paymentAttemptID: String
        /// The amount, excluding the tip.
        package var amountMoney: Money
        /// Online, offline or automatic. Required since 2.2.0.
        package var processingMode: ProcessingMode
        /// The tip, added on top of the amount.
        package var tipMoney: Money?
        /// The developer's application fee (at most 90% of the total).
        package var appFeeMoney: Money?
        /// `true`: complete when possible; `false`: hold as approved until completed or canceled on the server.
        package var autocomplete: Bool = true
        /// Seconds after which Square applies ``delayAction`` to an uncompleted payment; 0 means the default
        /// (36 hours card-present). Only with `autocomplete == false`; at least 60 when set.
        package var delayDuration: TimeInterval = 0
        /// What Square does when the delay ends.
        package var delayAction: DelayAction = .cancel
        /// Whether a partial approval (gift cards) is accepted. Not allowed with `autocomplete == true`.
        package var acceptPartialAuthorization: Bool = false
        /// Whether a card surcharge may apply (the SDK's default is `true`; never applied offline). A surcharge is
        /// added to `amountMoney` by Square; Tender sets this to `false`.
        package var allowCardSurcharge: Bool = true
        /// Your external ID, e.g. an order number (Tender passes the app's reference).
        package var referenceID: String?
        /// A free-text note.
        package var note: String?
        /// An existing Orders API order.
        package var orderID: String?
        /// The customer, for card on file.
        package var customerID: String?
        /// The location; defaults to the authorized one.
        package var locationID: String?
        /// The team member taking the payment.
        package var teamMemberID: String?
        /// Text added to the card statement.
        package var statementDescriptionIdentifier: String?

        /// Square's `PaymentParameters(paymentAttemptID:amountMoney:processingMode:)`.
        package init(paymentAttemptID: String, amountMoney: Money, processingMode: ProcessingMode) {
            self.paymentAttemptID = paymentAttemptID
            self.amountMoney = amountMoney
            self.processingMode = processingMode
        }

        /// The amount plus the tip, when both are in the same currency; otherwise the amount.
        package var totalMoney: Money {
            guard let tipMoney, tipMoney.currency == amountMoney.currency else { return amountMoney }
            return Money(totaling: amountMoney, tipMoney)
        }
    }
}

// MARK: - Settings and authorization

extension Square {
    /// Square's `PaymentSettings` for the authorized seller.
    package struct PaymentSettings: Hashable, Sendable, Codable {
        /// Whether the seller has opted in to offline payments.
        package var isOfflineProcessingAllowed: Bool
        /// The largest single offline payment; `nil` when offline is not allowed.
        package var offlineTransactionAmountLimit: Money?
        /// The largest total of offline payments stored on this device; `nil` when offline is not allowed.
        package var offlineTotalStoredAmountLimit: Money?

        /// Creates settings.
        package init(isOfflineProcessingAllowed: Bool, offlineTransactionAmountLimit: Money?,
                    offlineTotalStoredAmountLimit: Money?) {
            self.isOfflineProcessingAllowed = isOfflineProcessingAllowed
            self.offlineTransactionAmountLimit = offlineTransactionAmountLimit
            self.offlineTotalStoredAmountLimit = offlineTotalStoredAmountLimit
        }

        /// A seller who has not opted in.
        package static let notOptedIn = PaymentSettings(isOfflineProcessingAllowed: false,
                                                       offlineTransactionAmountLimit: nil,
                                                       offlineTotalStoredAmountLimit: nil)
    }

    /// Square's `Environment`, derived from the application ID.
    package enum Environment: String, Hashable, Sendable, Codable, CaseIterable {
        /// Production.
        case production
        /// Sandbox: no offline payments, mock readers only.
        case sandbox
    }

    /// Square's `SDKSettings` (`settingsManager.sdkSettings`).
    package struct SDKSettings: Hashable, Sendable, Codable {
        /// Production or Sandbox.
        package var environment: Environment
        /// The SDK's version string, e.g. `"2.5.0"`.
        package var version: String

        /// Creates settings.
        package init(environment: Environment, version: String = "2.5.0") {
            self.environment = environment
            self.version = version
        }
    }

    /// Square's `AuthorizationState`.
    package enum AuthorizationState: String, Hashable, Sendable, Codable, CaseIterable {
        /// Authorized with a seller and location.
        case authorized
        /// Authorization in progress.
        case authorizing
        /// Not authorized.
        case notAuthorized
    }

    /// Square's `Location` (`AuthorizationManager.location`; a protocol in the SDK).
    package struct Location: Hashable, Sendable, Codable {
        /// The location id.
        package var id: String
        /// The name.
        package var name: String
        /// The merchant category code.
        package var mcc: String
        /// The location's currency.
        package var currency: Currency

        /// Creates a location.
        package init(id: String, name: String, mcc: String = "5814", currency: Currency) {
            self.id = id
            self.name = name
            self.mcc = mcc
            self.currency = currency
        }
    }

    /// Square's `CardInputMethods` option set (a `final class` in the SDK): how a card can be read now (fewer
    /// methods offline).
    package struct CardInputMethods: OptionSet, Hashable, Sendable, Codable {
        /// The bits (Tender's own; Square publishes none).
        package let rawValue: Int
        /// Creates a set from bits.
        package init(rawValue: Int) { self.rawValue = rawValue }
        /// Insert (dip).
        package static let chip = CardInputMethods(rawValue: 1 << 0)
        /// Tap.
        package static let contactless = CardInputMethods(rawValue: 1 << 1)
        /// Swipe.
        package static let swipe = CardInputMethods(rawValue: 1 << 2)
    }
}

extension Square {
    /// `value` if it is exactly four ASCII digits, otherwise `nil`: no mirrored type can carry a full card number
    /// by mistake.
    package static func lastFour(_ value: String) -> String? {
        value.count == 4 && value.allSatisfy { $0.isASCII && $0.isNumber } ? value : nil
    }
}

extension CaseIterable where Self: RawRepresentable, Self.RawValue == String {
    /// The Swift case name, which is what every Square mapping goes by (Square publishes no raw values).
    package var caseName: String { rawValue }
}
