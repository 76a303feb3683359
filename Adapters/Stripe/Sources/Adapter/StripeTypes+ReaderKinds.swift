import Foundation
package import Tender

// MARK: - Connection configurations for the other reader kinds

extension Stripe {
    /// `SCPTapToPayConnectionConfiguration` (built with `TapToPayConnectionConfigurationBuilder(delegate:locationId:)`).
    /// The SDK's delegate is a `TapToPayReaderDelegate` (the mobile reader's callbacks with a `tapToPayReader` prefix,
    /// plus `tapToPayReaderDidAcceptTermsOfService`): a bridge wraps ``delegate`` into one.
    package struct TapToPayConnectionConfiguration: Sendable {
        /// `locationId`: required.
        package var locationId: String
        /// `merchantDisplayName`: the name Apple's terms sheet shows.
        package var merchantDisplayName: String?
        /// `tosAcceptancePermitted` (Swift `isTOSAcceptancePermitted`): whether the SDK may show Apple's terms of
        /// service during the connection; without it an account that has not accepted them fails with 3930.
        package var tosAcceptancePermitted: Bool
        /// `autoReconnectOnUnexpectedDisconnect`.
        package var autoReconnectOnUnexpectedDisconnect: Bool
        /// The reader's delegate.
        package var delegate: (any MobileReaderDelegate)?

        /// Creates a configuration.
        package init(locationId: String, merchantDisplayName: String? = nil, tosAcceptancePermitted: Bool = true,
                     autoReconnectOnUnexpectedDisconnect: Bool = true, delegate: (any MobileReaderDelegate)?) {
            self.locationId = locationId
            self.merchantDisplayName = merchantDisplayName
            self.tosAcceptancePermitted = tosAcceptancePermitted
            self.autoReconnectOnUnexpectedDisconnect = autoReconnectOnUnexpectedDisconnect
            self.delegate = delegate
        }
    }

    /// `SCPInternetConnectionConfiguration` (built with `InternetConnectionConfigurationBuilder(delegate:)`): a smart
    /// reader is registered to its location in the Dashboard, so no location is passed. Its delegate
    /// (`InternetReaderDelegate`) only hears disconnects: a bridge forwards `didDisconnect` to ``delegate``.
    package struct InternetConnectionConfiguration: Sendable {
        /// `failIfInUse`: fail instead of taking over a reader another POS is connected to.
        package var failIfInUse: Bool
        /// `allowCustomerCancel`: the customer may cancel on the reader's screen.
        package var allowCustomerCancel: Bool
        /// The reader's delegate.
        package var delegate: (any MobileReaderDelegate)?

        /// Creates a configuration.
        package init(failIfInUse: Bool = true, allowCustomerCancel: Bool = true,
                     delegate: (any MobileReaderDelegate)?) {
            self.failIfInUse = failIfInUse
            self.allowCustomerCancel = allowCustomerCancel
            self.delegate = delegate
        }
    }

    /// `SCPCart` (built with `CartBuilder(currency:)`): what `setReaderDisplay` shows. Display only: the reader
    /// computes nothing. Amounts in minor units (`Int`).
    package struct Cart: Hashable, Sendable {
        /// `currency`, lowercase.
        package var currency: String
        /// `tax`.
        package var tax: Int
        /// `total`.
        package var total: Int
        /// `lineItems`.
        package var lineItems: [CartLineItem]

        /// Creates a cart.
        package init(currency: String, tax: Int, total: Int, lineItems: [CartLineItem]) {
            self.currency = currency
            self.tax = tax
            self.total = total
            self.lineItems = lineItems
        }
    }

    /// `SCPCartLineItem` (built with `CartLineItemBuilder(displayName:)`).
    package struct CartLineItem: Hashable, Sendable {
        /// `displayName`.
        package var displayName: String
        /// `quantity`.
        package var quantity: Int
        /// `amount`, minor units.
        package var amount: Int

        /// Creates a line.
        package init(displayName: String, quantity: Int, amount: Int) {
            self.displayName = displayName
            self.quantity = quantity
            self.amount = amount
        }
    }

    /// `SCPTippingConfiguration` (built with `TippingConfigurationBuilder().setEligibleAmount(_:)`): the amount
    /// the reader's tip suggestions are computed on.
    package struct TippingConfiguration: Hashable, Sendable {
        /// `eligibleAmount`, minor units.
        package var eligibleAmount: Int
        /// Creates a configuration.
        package init(eligibleAmount: Int) { self.eligibleAmount = eligibleAmount }
    }
}

// MARK: - Kinds and features by device type

extension Stripe.DeviceType {
    /// How the reader connects: the mobile readers over Bluetooth, `tapToPay` as Tap to Pay, every other model a
    /// smart reader on the network (the SDK's `internet` discovery). USB is not offered: the SDK compiles its `usb`
    /// discovery only with `SCP_USB_ENABLED`.
    package var kind: ReaderKind {
        if isMobileReader { return .bluetooth }
        return self == .tapToPay ? .tapToPay : .internet
    }

    /// What the model can do, from Stripe's documentation as the reference records it:
    /// - offline: Bluetooth and smart readers (seed 000), and Tap to Pay, whose offline sessions the SDK reports
    ///   through 3971–3974 (a session made online that expires; go online and reconnect);
    /// - on-reader tipping: the smart readers, and WisePad 3 (tip eligibility on it since 5.2.0);
    /// - cart display: the smart readers (`setReaderDisplay`);
    /// - in-person refunds (Interac, `collectRefundPaymentMethod`): the SDK limits them by payment method, not by
    ///   reader, so every model.
    package var features: Set<ReaderFeature> {
        var features: Set<ReaderFeature> = [.offline, .refundsOnReader]
        switch kind {
        case .internet: features.formUnion([.onReaderTipping, .cartDisplay])
        case .tapToPay: features.insert(.tapToPay)
        case .bluetooth, .usb: if self == .wisePad3 { features.insert(.onReaderTipping) }
        }
        return features
    }
}

extension Stripe.DiscoveryMethod {
    /// The discovery method for a kind (Bluetooth: a scan, or proximity when asked); `nil` for USB.
    package static func method(for kind: ReaderKind, proximity: Bool) -> Self? {
        switch kind {
        case .bluetooth: proximity ? .bluetoothProximity : .bluetoothScan
        case .internet: .internet
        case .tapToPay: .tapToPay
        case .usb: nil
        }
    }
}

// MARK: - Defaults for clients that do not implement the other reader kinds

// The bridge (`StripeTerminalBridge`) and ``StripeSimulator`` implement every call below; these defaults serve other
// clients (wrappers, test doubles), which then refuse the call instead of pretending it worked.
extension StripeClient {
    /// `connectReader(_:connectionConfig:)` with a Tap to Pay configuration, for a client that does not implement it:
    /// ``Tender/PaymentError/Code/featureUnavailable``.
    package func connectReader(_ reader: Stripe.Reader, connectionConfig: Stripe.TapToPayConnectionConfiguration)
        async throws -> Stripe.Reader {
        throw Stripe.notImplemented("connectReader(_:connectionConfig:) for Tap to Pay")
    }

    /// `connectReader(_:connectionConfig:)` with an internet configuration, for a client that does not implement it:
    /// ``Tender/PaymentError/Code/featureUnavailable``.
    package func connectReader(_ reader: Stripe.Reader, connectionConfig: Stripe.InternetConnectionConfiguration)
        async throws -> Stripe.Reader {
        throw Stripe.notImplemented("connectReader(_:connectionConfig:) for internet readers")
    }

    /// `setReaderDisplay(_:completion:)`, for a client that does not implement it:
    /// ``Tender/PaymentError/Code/featureUnavailable``.
    package func setReaderDisplay(_ cart: Stripe.Cart) async throws {
        throw Stripe.notImplemented("setReaderDisplay(_:)")
    }

    /// `clearReaderDisplay(_:)`, for a client that does not implement it: ``Tender/PaymentError/Code/featureUnavailable``.
    package func clearReaderDisplay() async throws { throw Stripe.notImplemented("clearReaderDisplay(_:)") }
}

extension Stripe {
    /// The refusal of a call the client does not implement.
    package static func notImplemented(_ call: String) -> PaymentError {
        PaymentError(.featureUnavailable, recovery: .fixIntegration, phase: .readerConnection,
                     message: "This Stripe client does not implement \(call).")
    }
}
