#if canImport(SwiftUI)
import SwiftUI
import Tender
import TenderUI

/// Rings up an amount and takes the payment; shows the model's prompt and Cancel while the card is with the reader.
/// All logic is in `TerminalModel`: the view only reads and calls it.
///
/// References: `model.nextSaleReference()` gives each sale a reference unique to this device and kept across
/// relaunches (`sale-<device>-<number>`, stored in `UserDefaults`), so a new sale never meets yesterday's "order-1";
/// after an outcome that is not known yet it gives the same reference again, and the view retries the same request
/// (same amount), so the retry can never charge twice.
struct CheckoutView: View {
    let model: TerminalModel
    @State private var cents = 1_250
    /// The last request charged: retried as it was when the model says the next sale is that payment again.
    @State private var lastRequest: PaymentRequest?

    var body: some View {
        VStack(spacing: 24) {
            Text(Money(minorUnits: Int64(cents), currency: .usd).description).font(.largeTitle.monospacedDigit())
            Stepper("Amount", value: $cents, in: 50...100_000, step: 50)
                .disabled(model.paymentPhase != .idle)
            if model.networkStatus == .offline {
                Label("Offline: payments are saved and sent later", systemImage: "wifi.slash").foregroundStyle(.orange)
            }
            if let prompt = model.prompt { Text(prompt.text).font(.title2) }
            if let error = model.lastError {
                VStack {
                    Text(error.message)
                    Text(error.recovery.localizedAdvice).font(.footnote)
                    Button("OK") { model.dismissError() }
                }
            }
            switch model.paymentPhase {
            case .inProgress:
                Button("Cancel", role: .cancel) { Task { await model.cancelPayment() } }
            case .starting:
                ProgressView("Starting…")
            case .idle:
                Button(isRetry ? "Retry \(lastRequest?.amount.description ?? "")" : "Charge") { charge() }
                    .buttonStyle(.borderedProminent)
                    .disabled(model.reader == nil)
            }
        }
        .padding()
    }

    /// Whether the next tap retries the last request (its outcome is not known yet).
    private var isRetry: Bool {
        guard let lastRequest, let reference = model.paymentReference else { return false }
        return lastRequest.reference == reference && [.outcomeUnknown, .created].contains(model.paymentState)
    }

    private func charge() {
        let reference = model.nextSaleReference()
        let request = lastRequest.flatMap { $0.reference == reference ? $0 : nil }
            ?? PaymentRequest(amount: Money(minorUnits: Int64(cents), currency: .usd), reference: reference,
                              offlinePolicy: .preferOnline)
        lastRequest = request
        Task { await model.charge(request) }
    }
}
#endif
