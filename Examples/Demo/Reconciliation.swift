import Foundation
import Tender

extension Shop {
    /// The closing table, computed from the ledger and checked against the processor's own records: every charge,
    /// capture, expiry, completion by the processor and refund, per reference.
    func reconcile(_ terminal: PaymentTerminal, _ state: inout DayState) async throws {
        // Sessions read by reference carry their refunds; listings may not.
        var sessions: [PaymentSession] = []
        for listed in try await terminal.sessions() where listed.reference.hasPrefix(day) {
            sessions.append(try await terminal.session(reference: listed.reference) ?? listed)
        }
        let truth = await rig.truth()
        var result = state.result
        result.taken = sessions.count
        for session in sessions {
            count(session, capturedByShop: state.capturedByShop, into: &result)
            check(session, against: truth[session.reference] ?? ProcessorTruth(), capturedByShop: state.capturedByShop,
                  into: &result.mismatches)
        }
        for reference in truth.keys.sorted() where truth[reference]!.acceptedCharges > 0
            && !sessions.contains(where: { $0.reference == reference }) {
            result.mismatches.append("\(reference): charged by the processor, missing from the ledger")
        }
        state.result = result

        out.heading("\(rig.title): closing reconciliation (ledger, checked against the processor)")
        out.table(["", "count"], result.rows)
        if result.mismatches.isEmpty {
            out.good("ledger and processor agree: every reference charged at most once, every refund and expiry as the processor has it, nothing lost")
        } else {
            for mismatch in result.mismatches { out.bad("MISMATCH \(mismatch)") }
        }
    }

    /// Adds what the ledger records of one session to the day's figures.
    private func count(_ session: PaymentSession, capturedByShop: Set<String>, into result: inout DayResult) {
        let isOffline = session.route == .offline
        switch session.state {
        case .succeeded, .authorized:
            if isOffline { result.forwarded += 1 } else { result.approvedOnline += 1 }
        case .forwarded: result.forwarded += 1
        case .declined: result.declined += 1
        case .declinedAfterForwarding: result.declinedAfterForwarding += 1
        case .outcomeUnknown: result.outcomeUnknown += 1
        case .canceled where session.lastError?.code == .authorizationExpired:
            result.expiredAuthorizations += 1
            if isOffline { result.forwarded += 1 } else { result.approvedOnline += 1 }
        default: break
        }
        if isOffline { result.stored += 1 }
        if session.captureMode == .manual && session.state == .succeeded {
            if capturedByShop.contains(session.reference) { result.captured += 1 } else { result.completedByProcessor += 1 }
        }
        if Self.moneyTaken(session) {
            // What was captured (a partial capture takes less than was authorized); an authorization not yet
            // captured counts at what it holds.
            let taken = session.isCaptured ? session.captured : session.total
            result.amountsByCurrency[taken.currency.code, default: 0] += taken.minorUnits
        }
        for refund in session.refunds {
            switch refund.status {
            case .succeeded:
                result.refunds += 1
                result.refundedByCurrency[refund.amount.currency.code, default: 0] += refund.amount.minorUnits
            case .pending: result.pendingRefunds += 1
            default: break
            }
        }
    }

    static func moneyTaken(_ session: PaymentSession) -> Bool {
        [.succeeded, .authorized, .forwarded].contains(session.state)
    }

    /// Every way one session's record disagrees with the processor's.
    private func check(_ session: PaymentSession, against held: ProcessorTruth, capturedByShop: Set<String>,
                       into mismatches: inout [String]) {
        let reference = session.reference
        let moneyTaken = Self.moneyTaken(session)
        if held.acceptedCharges > 1 { mismatches.append("\(reference): charged \(held.acceptedCharges) times") }
        if moneyTaken && held.acceptedCharges != 1 {
            mismatches.append("\(reference): ledger says \(session.state), processor holds \(held.acceptedCharges) charge(s)")
        }
        if !moneyTaken && held.acceptedCharges != 0 {
            mismatches.append("\(reference): ledger says \(session.state), processor charged it")
        }
        if moneyTaken && held.amount != session.total.minorUnits {
            mismatches.append("\(reference): ledger \(session.total.minorUnits), processor \(held.amount)")
        }
        if session.state == .succeeded && session.captureMode == .manual && !held.captured {
            mismatches.append("\(reference): captured in the ledger, not at the processor")
        }
        // What the processor did by itself with an authorization nobody captured.
        let expired = session.state == .canceled && session.lastError?.code == .authorizationExpired
        if expired != (held.expiredAuthorizations > 0) {
            mismatches.append("\(reference): ledger says \(expired ? "" : "not ")expired, processor says \(held.expiredAuthorizations > 0 ? "" : "not ")released")
        }
        let completed = session.state == .succeeded && session.captureMode == .manual && !capturedByShop.contains(reference)
        if completed != (held.completedByProcessor > 0) {
            mismatches.append("\(reference): ledger says \(completed ? "" : "not ")completed by the processor, processor says \(held.completedByProcessor > 0 ? "" : "not ")completed at its delay")
        }
        // Refunds: what the ledger records as succeeded is what the processor refunded; nothing pending at close.
        let succeeded = session.refunds.filter { $0.status == .succeeded }
        let refunded = succeeded.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
        if refunded != held.refunded || succeeded.count != held.refunds {
            mismatches.append("\(reference): ledger refunded \(refunded) in \(succeeded.count) refund(s), processor \(held.refunded) in \(held.refunds)")
        }
        if session.refunds.contains(where: { $0.status == .pending }) {
            mismatches.append("\(reference): a refund is still pending in the ledger at close")
        }
        if held.pendingRefunds > 0 { mismatches.append("\(reference): the processor still holds a pending refund at close") }
    }
}
