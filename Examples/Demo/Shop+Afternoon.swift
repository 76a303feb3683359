import Foundation
import Tender

extension Shop {
    /// Captures what is ready, more sales (the last one a deposit authorized and left uncaptured), refunds (part of
    /// one sale, all of another, and an over-refund that is refused), and a retry that never charges again.
    func afternoon(_ terminal: PaymentTerminal, _ state: inout DayState) async throws {
        out.heading("\(rig.title): afternoon, captures and more sales")
        for session in try await terminal.sessions() where session.isReadyToCapture && session.reference.hasPrefix(day) {
            let captured = try await terminal.capture(reference: session.reference)
            state.capturedByShop.insert(captured.reference)
            out.good("captured \(captured.reference) \(captured.total)\(captured.route == .offline ? " (after forwarding)" : "")")
        }
        for index in 0..<afterwards {
            let deposit = index == afterwards - 1
            await rig.present(.approve)
            let request = PaymentRequest(amount: amount(3_00...60_00, &state), reference: nextReference(&state),
                                         captureMode: deposit ? .manual : .automatic)
            let session = try await terminal.takePayment(request)
            report(session)
            if deposit, session.state == .authorized {
                state.held = session.reference
                out.note("\(session.reference) is a deposit for tomorrow's pickup: it stays uncaptured tonight")
            }
        }

        out.heading("\(rig.title): afternoon, refunds")
        try await refunds(terminal, &state)

        // A retry of a finished sale returns the recorded session and never charges again.
        await rig.present(.approve)
        let first = "\(day)sale-0001"
        guard let recorded = try await terminal.session(reference: first) else { throw DemoError("\(first) is not in the ledger") }
        let retried = try await terminal.takePayment(PaymentRequest(amount: recorded.amount, reference: first))
        out.line("retrying \(first) returns the recorded session: \(retried.state)")
    }

    /// Part of the first online sale and all of the second are refunded through Tender (the ledger records each
    /// refund before the processor is asked); then more than what is left of the first is refused.
    private func refunds(_ terminal: PaymentTerminal, _ state: inout DayState) async throws {
        let sales = try await terminal.sessions()
            .filter { $0.reference.hasPrefix(day) && $0.route == .online && $0.captureMode == .automatic && $0.state == .succeeded }
            .sorted { $0.reference < $1.reference }
        guard sales.count >= 2 else { throw DemoError("fewer than two online sales to refund") }
        let partial = sales[0], full = sales[1]

        let part = Money(minorUnits: partial.total.minorUnits / 3, currency: partial.total.currency)
        for (session, amount) in [(partial, Optional(part)), (full, nil)] {
            let refund = try await terminal.refund(reference: session.reference, amount: amount,
                                                   reason: .requestedByCustomer)
            report(refund, of: session)
            if refund.status == .pending { state.pendingRefunds.append(refund) }
        }

        // The customer of the first sale asks for the whole amount back: more than is left to refund.
        do {
            let refused = try await terminal.refund(reference: partial.reference, amount: partial.total,
                                                    reason: .requestedByCustomer)
            out.bad("refunding \(partial.total) of \(partial.reference) again was not refused: \(refused.status)")
            state.result.mismatches.append("\(partial.reference): an over-refund was \(refused.status), not refused")
        } catch let error as PaymentError {
            state.result.refusedRefunds.append(partial.reference)
            out.bad("refunding \(partial.total) of \(partial.reference) again refused: \(error.message)")
        }
    }

    private func report(_ refund: RefundRecord, of session: PaymentSession) {
        let what = "refund \(refund.number) of \(session.reference): \(refund.amount) of \(session.total)"
        switch refund.status {
        case .succeeded: out.good("\(what) refunded")
        case .pending: out.note("\(what) pending: \(rig.vendor) settles it later")
        default: out.bad("\(what) \(refund.status): \(refund.error?.message ?? "")")
        }
    }
}
