import Foundation

extension PaymentTerminal: FleetReportSource {
    /// What this device holds of money not yet safe with the processor, for the merchant's fleet view (send it with
    /// TenderBackend's `FleetReporter`): per currency the payments stored offline, forwarded and waiting for a
    /// capture, with an unknown outcome, declined after forwarding (the last 30 days), and the refunds pending; each
    /// such payment with its reference, amount, age and the processor's deadline where one is documented; the last
    /// forwarding error; whether the ledger could be read. No card data.
    ///
    /// A ledger that cannot be read still gives a report: what could be read, with ``FleetReport/ledgerProblem``.
    public func fleetReport(deviceID: String, appVersion: String?) async -> FleetReport {
        let now = clock.now()
        var problems: [String] = []
        var sessions: [PaymentSession] = []
        var refunds: [RefundRecord] = []
        do {
            sessions = try await ledger.sessions(in: Self.fleetStates, scope: scope)
        } catch {
            problems.append("payments: \(error)")
        }
        do {
            refunds = try await ledger.refunds(in: [.pending], scope: scope)
        } catch {
            problems.append("refunds: \(error)")
        }
        var payments: [FleetReport.Payment] = []
        var totals: [String: FleetReport.Totals] = [:]
        for session in sessions {
            guard let standing = Self.standing(of: session, now: now) else { continue }
            let total = session.total
            let code = total.currency.code
            var entry = totals[code] ?? FleetReport.Totals(currency: code)
            switch standing {
            case .storedOffline: entry.storedOffline.add(total)
            case .forwardedUnconfirmed: entry.forwardedUnconfirmed.add(total)
            case .outcomeUnknown: entry.outcomeUnknown.add(total)
            case .declinedAfterForwarding: entry.declinedAfterForwarding.add(total)
            }
            totals[code] = entry
            let taken = session.storedAt ?? session.createdAt
            payments.append(FleetReport.Payment(
                reference: session.reference, processor: session.processor,
                processorPaymentID: session.processorPaymentID, amount: total, standing: standing, takenAt: taken,
                deadline: standing == .storedOffline ? Self.forwardingDeadline(session.processor, takenAt: taken) : nil))
        }
        for refund in refunds {
            let code = refund.amount.currency.code
            var entry = totals[code] ?? FleetReport.Totals(currency: code)
            entry.refundsPending.add(refund.amount)
            totals[code] = entry
        }
        payments.sort { ($0.takenAt, $0.reference) < ($1.takenAt, $1.reference) }
        let listed = Array(payments.prefix(FleetReport.maximumPayments))
        let lastError = sessions.filter { $0.state == .failedToForward || $0.state == .declinedAfterForwarding }
            .sorted { $0.updatedAt > $1.updatedAt }
            .lazy.compactMap { $0.lastError ?? $0.transitions.last { $0.error != nil }?.error }.first
        return FleetReport(deviceID: deviceID, scope: scope, generatedAt: now, appVersion: appVersion,
                           tenderVersion: TenderVersion.current,
                           totals: totals.values.sorted { $0.currency < $1.currency }, payments: listed,
                           paymentsLeftOut: payments.count - listed.count, lastForwardingError: lastError,
                           ledgerProblem: problems.isEmpty ? nil : problems.joined(separator: "; "))
    }

    /// The states a report looks at.
    static let fleetStates: Set<PaymentState> = [.storedOffline, .failedToForward, .forwarded, .outcomeUnknown,
                                                 .declinedAfterForwarding]

    /// How long a decline after forwarding stays in the reports (the merchant follows up on the server's page).
    static let declineFollowUpWindow: TimeInterval = 30 * 24 * 3600

    /// Where a session stands for the fleet view; `nil` when its money is safe.
    static func standing(of session: PaymentSession, now: Date) -> FleetReport.Standing? {
        switch session.state {
        case .storedOffline, .failedToForward: .storedOffline
        case .forwarded: session.captureMode == .automatic ? nil : .forwardedUnconfirmed
        case .outcomeUnknown: .outcomeUnknown
        case .declinedAfterForwarding:
            now.timeIntervalSince(session.updatedAt) <= declineFollowUpWindow ? .declinedAfterForwarding : nil
        default: nil
        }
    }

    /// The processor's documented deadline for forwarding a payment taken offline at `takenAt`: Square expires
    /// offline payments not uploaded within 24 hours (the reference's Square section: the POS API's offline
    /// document and Square's help article 8106; the Mobile Payments SDK page's own sentence was cut off, so this is
    /// the documented figure for Square's offline payments, not verified for the SDK). Stripe documents none.
    static func forwardingDeadline(_ processor: String, takenAt: Date) -> Date? {
        processor == "square" ? takenAt.addingTimeInterval(24 * 3600) : nil
    }
}

/// Tender's version, as reports carry it.
package enum TenderVersion {
    package static let current = "0.4.0"
}

extension FleetReport.Amount {
    mutating func add(_ money: Money) {
        count += 1
        minorUnits += money.minorUnits
    }
}
