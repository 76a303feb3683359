public import Tender
import Foundation

/// What the checkout screen should show the cashier and the customer now, derived from the reader's requests and
/// the payment's state. ``text`` is the localized line to display (English is the base; add a `Localizable.strings`
/// in another language to the app's bundle under the same keys, or translate the package's own table).
public enum CheckoutPrompt: Hashable, Sendable {
    /// The reader waits for a card, presented in one of these ways (insert, tap, swipe).
    case presentCard(ReaderInputOptions)
    /// The reader asks the app to show a message (remove the card, try another card, retry…).
    case readerMessage(ReaderDisplayMessage)
    /// The card was read; the payment is being authorized.
    case processing
    /// Approved (or authorized, with manual capture).
    case approved
    /// The device is offline: the payment was stored on the device and will be forwarded when it is back online.
    /// The merchant bears the risk of a later decline.
    case storedOffline
    /// Declined or failed: show the error's advice (``TerminalModel/lastError``).
    case notApproved
    /// Canceled before it was charged.
    case canceled
    /// Whether it was charged is not known yet; Tender finds out and never charges twice. Do not take the sale again
    /// with another reference.
    case outcomeUnknown

    /// The line to show, localized (`Localizable.strings` of `TenderUI`, English base).
    public var text: String {
        switch self {
        case .presentCard(let options):
            let key = switch (options.contains(.insert), options.contains(.tap), options.contains(.swipe)) {
            case (true, true, true): "prompt.present.insertTapSwipe"
            case (true, true, false): "prompt.present.insertTap"
            case (true, false, true): "prompt.present.insertSwipe"
            case (false, true, _): "prompt.present.tap"
            case (true, false, false): "prompt.present.insert"
            default: "prompt.present.swipe"
            }
            return Localized.string(key)
        case .readerMessage(let message): return Localized.string("reader.\(message.rawValue)")
        case .processing: return Localized.string("prompt.processing")
        case .approved: return Localized.string("prompt.approved")
        case .storedOffline: return Localized.string("prompt.storedOffline")
        case .notApproved: return Localized.string("prompt.notApproved")
        case .canceled: return Localized.string("prompt.canceled")
        case .outcomeUnknown: return Localized.string("prompt.outcomeUnknown")
        }
    }

    /// The prompt for a payment that reached `state`, or `nil` while it is not yet with the reader.
    init?(_ state: PaymentState) {
        switch state {
        case .created, .collecting: return nil
        case .processing: self = .processing
        case .authorized, .succeeded, .forwarded: self = .approved
        case .storedOffline: self = .storedOffline
        case .declined, .failed, .declinedAfterForwarding, .failedToForward: self = .notApproved
        case .canceled: self = .canceled
        case .outcomeUnknown: self = .outcomeUnknown
        }
    }
}

extension PaymentError.Recovery {
    /// The cashier's advice for this recovery, localized (`Localizable.strings` of `TenderUI`, English base).
    public var localizedAdvice: String { Localized.string("recovery.\(rawValue)") }
}

/// The package's string table.
enum Localized {
    static func string(_ key: String) -> String {
        Bundle.module.localizedString(forKey: key, value: nil, table: nil)
    }
}
