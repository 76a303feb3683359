public import Foundation
import Tender

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension TerminalModel {
    /// Where the payment is, from the cashier's tap: what the Charge and Cancel buttons show.
    public enum PaymentPhase: Hashable, Sendable {
        /// No payment runs: Charge can be tapped.
        case idle
        /// ``charge(_:)`` was called and the payment has not reached the reader yet: Charge is disabled (a second
        /// charge is refused with ``Tender/PaymentError/Code/paymentInProgress``), there is nothing to cancel yet.
        case starting
        /// The payment is with the reader or the processor: show Cancel; a second charge is refused.
        case inProgress
    }

    /// The reference for the cashier's next sale. After an outcome that is not known yet (or a failure whose advice is
    /// to retry the same payment) it is that payment's reference, so a retry can never charge twice. Otherwise it is
    /// a new one, `sale-<device>-<number>`: the device part is made once and kept in `defaults`, and the number
    /// goes on from the last one kept there, so references stay unique across relaunches (a new sale never reuses
    /// an old reference, which would return that payment's result instead of charging) and across devices.
    public func nextSaleReference(in defaults: UserDefaults = .standard) -> String {
        if let reference = referenceToRetry { return reference }
        let device: String
        if let stored = defaults.string(forKey: Self.deviceKey), !stored.isEmpty {
            device = stored
        } else {
            device = String(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12)).lowercased()
            defaults.set(device, forKey: Self.deviceKey)
        }
        let number = defaults.integer(forKey: Self.numberKey) + 1
        defaults.set(number, forKey: Self.numberKey)
        return "sale-\(device)-\(number)"
    }

    private static let deviceKey = "Tender.TerminalModel.saleDevice"
    private static let numberKey = "Tender.TerminalModel.saleNumber"

    /// The followed payment's reference when the next sale must retry it rather than start another.
    var referenceToRetry: String? {
        guard let paymentReference, let paymentState else { return nil }
        switch paymentState {
        case .outcomeUnknown, .created: return paymentReference
        case .failed where lastError?.recovery == .retrySamePayment: return paymentReference
        default: return nil
        }
    }
}
