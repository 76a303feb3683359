import Foundation
import Tender

extension Shop {
    /// The shop's other counters, through the same facade: a smart reader that shows the cart while the cashier
    /// rings up and asks the customer for a tip, and Tap to Pay on the manager's iPhone, for the vendors that have
    /// each (Stripe: both; Square: Tap to Pay only). The counter's Bluetooth reader is connected again afterwards.
    func otherCounters(_ terminal: PaymentTerminal, _ state: inout DayState) async throws {
        out.heading("\(rig.title): the other counters")
        guard let counter = await terminal.connectedReader() else { throw DemoError("no reader at the counter") }
        // Stripe discovers only while no reader is connected (as its SDK does): the counter's reader is set aside.
        if rig.vendor == "Stripe" { try await terminal.disconnectReader() }
        do {
            let smart = try await terminal.discoverReaders(.internet, timeout: 10)
            guard let reader = smart.first else { throw DemoError("no smart reader found") }
            try await switchReader(terminal, to: reader)
            out.good("smart reader \(reader.model) \(reader.id) connected: \(describe(reader.features))")
            let lines = [ReaderCart.LineItem("Flat white", quantity: 2, amount: Money(minorUnits: 9_00, currency: .usd)),
                         ReaderCart.LineItem("Croissant", amount: Money(minorUnits: 4_50, currency: .usd))]
            let subtotal = Money(minorUnits: 13_50, currency: .usd)
            let tax = Money(minorUnits: 1_08, currency: .usd)
            for count in 1...lines.count {
                try await terminal.setReaderDisplay(ReaderCart(lineItems: Array(lines.prefix(count)), tax: tax))
                out.line("the reader's screen shows \(count) line(s): \(lines.prefix(count).map(\.description).joined(separator: ", "))")
            }
            await rig.present(.approve)
            var request = PaymentRequest(amount: try subtotal.adding(tax), reference: nextReference(&state))
            request.tipEligibleAmount = subtotal
            let session = try await terminal.takePayment(request)
            report(session)
            out.line("the customer tipped \(session.tip.map { "\($0)" } ?? "nothing") on the reader: total \(session.total), refundable \(session.refundableAmount)")
            try await terminal.setReaderDisplay(nil)
        } catch let error as PaymentError {
            out.note("no smart-reader sale: \(error.message)")
        }
        do {
            if rig.vendor == "Stripe", await terminal.connectedReader() != nil { try await terminal.disconnectReader() }
            guard let tap = try await terminal.discoverReaders(.tapToPay, timeout: 10).first else {
                throw DemoError("no Tap to Pay reader")
            }
            try await switchReader(terminal, to: tap)
            out.good("Tap to Pay on iPhone ready (\(describe(tap.features)))")
            await rig.present(.approve)
            report(try await terminal.takePayment(PaymentRequest(amount: Money(minorUnits: 6_75, currency: .usd),
                                                                 reference: nextReference(&state))))
        } catch let error as PaymentError {
            out.note("no Tap to Pay sale: \(error.message)")
        }
        if await terminal.connectedReader()?.id != counter.id {
            // A reader saved earlier is looked for again by the adapter before it connects.
            try await switchReader(terminal, to: counter)
            out.good("back on the counter's reader \(counter.model)")
        }
    }

    /// Connects `reader` in place of the connected one. Stripe connects one reader at a time (disconnect first);
    /// Square keeps its readers paired, and a disconnect would forget them, so it just makes the new one current.
    private func switchReader(_ terminal: PaymentTerminal, to reader: Reader) async throws {
        if rig.vendor == "Stripe", await terminal.connectedReader() != nil { try await terminal.disconnectReader() }
        _ = try await terminal.connectReader(reader)
    }

    private func describe(_ features: Set<ReaderFeature>) -> String {
        features.isEmpty ? "no extra features" : features.map(\.rawValue).sorted().joined(separator: ", ")
    }
}
