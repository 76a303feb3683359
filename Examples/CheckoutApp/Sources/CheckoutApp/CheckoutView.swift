#if canImport(SwiftUI)
import SwiftUI
import Tender
import TenderUI

/// Rings up an amount and takes the payment; shows the model's prompt and Cancel while the card is with the reader.
/// All logic is in `TerminalModel`: the view only reads and calls it.
struct CheckoutView: View {
    let model: TerminalModel
    @State private var cents = 1_250
    @State private var orderNumber = 1

    var body: some View {
        VStack(spacing: 24) {
            Text(Money(minorUnits: Int64(cents), currency: .usd).description).font(.largeTitle.monospacedDigit())
            Stepper("Amount", value: $cents, in: 50...100_000, step: 50)
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
            if model.isPaymentInProgress {
                Button("Cancel", role: .cancel) { Task { await model.cancelPayment() } }
            } else {
                Button("Charge") {
                    let request = PaymentRequest(amount: Money(minorUnits: Int64(cents), currency: .usd),
                                                 reference: "order-\(orderNumber)", offlinePolicy: .preferOnline)
                    orderNumber += 1
                    Task { await model.charge(request) }
                }
                .buttonStyle(.borderedProminent)
                .disabled(model.reader == nil)
            }
        }
        .padding()
    }
}
#endif
