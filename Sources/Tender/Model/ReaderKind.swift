/// How a reader reaches the device: the four kinds the vendors' iOS SDKs connect.
///
/// | Kind | Stripe Terminal 5.5 | Square Mobile Payments 2.5 |
/// | --- | --- | --- |
/// | ``bluetooth`` | M2, WisePad 3, Chipper 2X (scan; proximity for Chipper 2X) | Reader (contactless and chip), paired by `startPairing` |
/// | ``usb`` | not offered (the SDK's `usb` discovery is compiled only with `SCP_USB_ENABLED`) | Stand (its connection type `usb`) |
/// | ``internet`` | smart readers: WisePOS E, S700/S710, Verifone… on the local network | none |
/// | ``tapToPay`` | Tap to Pay on iPhone (`tapToPay` discovery) | Tap to Pay on iPhone (`tapToPaySettings`) |
public enum ReaderKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// A mobile reader paired over Bluetooth; the iPhone or iPad talks to the vendor for it.
    case bluetooth
    /// A reader on a cable (Square Stand).
    case usb
    /// A smart reader on the local network that talks to the vendor itself (Stripe's internet readers).
    case internet
    /// Tap to Pay on iPhone: the phone is the reader.
    case tapToPay
}

/// Something a reader can do beyond taking a card, as its vendor documents it for its kind and model
/// (``Reader/features``). ``PaymentTerminal`` refuses a request that needs a feature the connected reader lacks.
public enum ReaderFeature: String, Hashable, Sendable, Codable, CaseIterable {
    /// The reader asks the customer for a tip on its own screen (Stripe's smart readers: `tippingConfiguration`).
    case onReaderTipping
    /// The reader shows the cart while the cashier rings up (Stripe's smart readers: `setReaderDisplay`).
    case cartDisplay
    /// The reader can take payments while the device is offline (each vendor's rules per kind: see the Readers
    /// article).
    case offline
    /// The reader is Tap to Pay on iPhone.
    case tapToPay
    /// The reader can refund a card in person (Stripe's in-person Interac refunds).
    case refundsOnReader
}

extension ReaderKind {
    /// The phase-neutral label used in messages: "Bluetooth", "USB", "internet", "Tap to Pay".
    package var label: String {
        switch self {
        case .bluetooth: "Bluetooth"
        case .usb: "USB"
        case .internet: "internet"
        case .tapToPay: "Tap to Pay"
        }
    }
}
