import Foundation
import Tender
package import TenderSquare

extension SquareSimulator {
    /// The card the simulated reader is shown. Square documents no card or amount that makes its mock reader
    /// decline (reference §6, unverified), so the card, and how its issuer answers, is set by the test. It holds
    /// what a receipt may show (brand, last four, expiry), never a full number, track data or PIN.
    package struct SimulatedCard: Hashable, Sendable, Codable {
        /// How the issuer answers when the payment reaches Square (online at once, offline at processing).
        package enum IssuerResponse: Hashable, Sendable, Codable {
            /// Approved.
            case approve
            /// Declined, with the issuer's reason.
            case decline(reason: String)
        }

        /// The brand.
        package var brand: Square.CardBrand
        /// The last four digits (anything but four digits is replaced by "0000": never a full number).
        package var last4: String
        /// How it is read (`keyed` is typed into Square's UI and needs `AdditionalPaymentMethods.keyed`).
        package var entryMethod: Square.CardEntryMethod
        /// Expiry month.
        package var expMonth: UInt
        /// Expiry year (an expired card is declined by the issuer).
        package var expYear: UInt
        /// The issuer's answer.
        package var issuerResponse: IssuerResponse
        /// The EMV application name.
        package var applicationName: String?

        /// Creates a card.
        package init(brand: Square.CardBrand, last4: String, entryMethod: Square.CardEntryMethod, expMonth: UInt = 12,
                    expYear: UInt = 2030, issuerResponse: IssuerResponse = .approve, applicationName: String? = nil) {
            self.brand = brand
            self.last4 = Square.lastFour(last4) ?? "0000"
            self.entryMethod = entryMethod
            self.expMonth = expMonth
            self.expYear = expYear
            self.issuerResponse = issuerResponse
            self.applicationName = applicationName
        }

        /// Whether a reader can take this card offline: chip or contactless only ("the payment methods available
        /// to customers are limited while offline"), and never Interac. That keyed entry is refused offline too is
        /// the simulator's reading (unverified).
        package var isReadableOffline: Bool {
            (entryMethod == .emv || entryMethod == .contactless) && brand != .interac
        }

        /// A Visa inserted, approved.
        package static let visaChip = SimulatedCard(brand: .visa, last4: "1111", entryMethod: .emv,
                                                   applicationName: "VISA CREDIT")
        /// A Mastercard tapped, approved.
        package static let mastercardContactless = SimulatedCard(brand: .mastercard, last4: "5100",
                                                                entryMethod: .contactless, applicationName: "MASTERCARD")
        /// A Visa declined by its issuer.
        package static let declined = SimulatedCard(brand: .visa, last4: "0002", entryMethod: .emv,
                                                   issuerResponse: .decline(reason: "GENERIC_DECLINE"))
        /// A Mastercard declined for insufficient funds.
        package static let insufficientFunds = SimulatedCard(brand: .mastercard, last4: "9995", entryMethod: .contactless,
                                                            issuerResponse: .decline(reason: "INSUFFICIENT_FUNDS"))
        /// An Amex that expired in 2020 (declined by the issuer as expired).
        package static let expired = SimulatedCard(brand: .americanExpress, last4: "0009", entryMethod: .emv,
                                                  expMonth: 1, expYear: 2020)
        /// An Interac debit card tapped (approved online; never offline).
        package static let interac = SimulatedCard(brand: .interac, last4: "4242", entryMethod: .contactless,
                                                  applicationName: "INTERAC")
        /// A Visa swiped (magstripe; not available offline).
        package static let swipedVisa = SimulatedCard(brand: .visa, last4: "1111", entryMethod: .swiped)
        /// A Visa typed into Square's UI (needs `AdditionalPaymentMethods.keyed`).
        package static let keyedVisa = SimulatedCard(brand: .visa, last4: "1111", entryMethod: .keyed)
    }
}
