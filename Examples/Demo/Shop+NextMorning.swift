import Foundation
import Tender

extension Shop {
    /// The clock moves past the vendor's deadline for the deposit left uncaptured; the facade's poller asks the
    /// processor and records what the vendor did (and settles refunds still pending).
    func nextMorning(_ terminal: PaymentTerminal, _ state: inout DayState) async throws {
        guard let held = state.held, let session = try await terminal.session(reference: held) else {
            throw DemoError("no authorization was left uncaptured")
        }
        guard let deadline = session.captureBefore else {
            throw DemoError("\(held) is authorized without a capture deadline from \(rig.vendor)")
        }
        let hours = (deadline.timeIntervalSince(clock.now()) / 3_600).rounded(.up) + 1
        out.heading("\(rig.title): the morning after the capture deadline")
        out.line("\(held) \(session.total) is still authorized: \(rig.uncapturedRule)")
        out.line("\(Int(hours)) hours later…")
        clock.advance(by: hours * 3_600)

        // The facade's poller looks up authorizations past their deadline and pending refunds; poll until the
        // ledger holds the vendor's answer.
        var settled = session
        for _ in 0..<200 {
            await terminal.pollOnce()
            settled = try await terminal.session(reference: held) ?? settled
            let pending = try await terminal.sessions().filter { $0.reference.hasPrefix(day) && $0.state == .authorized }
            if settled.state != .authorized, pending.isEmpty, try await !hasPendingRefunds(terminal) { break }
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        switch settled.state {
        case .canceled where settled.lastError?.code == .authorizationExpired:
            out.good("\(held) canceled: the authorization expired and \(rig.vendor) released the funds (\(PaymentError.Code.authorizationExpired))")
        case .succeeded:
            out.good("\(held) succeeded: \(rig.vendor) completed it when its delay ended")
        default:
            out.bad("\(held) is \(settled.state) after the deadline: \(settled.lastError?.description ?? "no error")")
        }
        for pending in state.pendingRefunds {
            let now = try await terminal.session(reference: pending.reference)?.refunds.first { $0.id == pending.id }
            let what = "refund \(pending.number) of \(pending.reference) (\(pending.amount))"
            switch now?.status {
            case .succeeded?: out.good("\(what) settled by \(rig.vendor): refunded")
            case let status: out.bad("\(what) is \(status.map(\.rawValue) ?? "missing") after the night")
            }
        }
    }

    private func hasPendingRefunds(_ terminal: PaymentTerminal) async throws -> Bool {
        for sale in try await terminal.sessions() where sale.reference.hasPrefix(day) {
            if let full = try await terminal.session(reference: sale.reference),
               full.refunds.contains(where: { $0.status == .pending }) {
                return true
            }
        }
        return false
    }
}
