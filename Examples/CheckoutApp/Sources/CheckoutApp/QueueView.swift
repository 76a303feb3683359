#if canImport(SwiftUI)
import SwiftUI
import Tender
import TenderUI

/// The offline queue (count, amount per currency, forwarding progress) and a refund for a past payment.
struct QueueView: View {
    let model: TerminalModel
    @State private var reference = ""

    var body: some View {
        List {
            Section("Stored on this device") {
                LabeledContent("Payments", value: "\(model.queue.storedCount)")
                ForEach(model.queue.storedAmounts.sorted { $0.key.code < $1.key.code }, id: \.key) { currency, minor in
                    LabeledContent(currency.code, value: Money(minorUnits: minor, currency: currency).description)
                }
                if let forwarding = model.forwarding, !forwarding.isFinished {
                    ProgressView("Sending \(forwarding.forwarded) of \(forwarding.total)", value: forwarding.fraction)
                }
            }
            Section("Refund") {
                TextField("Order reference", text: $reference)
                Button("Refund in full") { Task { await model.refund(reference: reference) } }
                    .disabled(reference.isEmpty)
            }
        }
    }
}
#endif
