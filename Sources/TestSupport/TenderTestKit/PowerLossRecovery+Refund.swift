import Foundation
import TenderPowerLoss

extension PowerLossRecoveryCheck {
    /// The refund scenario: a payment taken (and synced) without a cut, then a refund of part of it whose ledger
    /// fails at write `cutAt`, then the power cut. The next life relaunches, recovers and lets the vendor settle.
    /// Consistent when the processor refunded exactly what the ledger records as refunded, never twice, and nothing
    /// is left pending.
    func runRefundOnce(cutAt: Int, torn: Bool) async -> (Outcome, Int) {
        let reference = "power-refund-\(cutAt)\(torn ? "-torn" : "")"
        var outcome = Outcome(scenario: CrashRecoveryCheck.Scenario.refund.rawValue, cutAtWrite: cutAt, torn: torn,
                              finalState: nil, charges: 0, problems: [])
        var writes = 0
        var device: Device?
        defer { device?.remove() }
        do {
            device = try Device()
            let env = try await subject.makeEnvironment()
            guard await env.processor.capabilities().supportsRefunds, await env.refunded(reference: reference) != nil
            else { return (outcome, 0) }  // no refunds here: nothing to cut
            let scope = LedgerScope(merchantID: "power", locationID: env.locationID)
            let request = PaymentRequest(amount: Money(minorUnits: 2_500, currency: .usd), reference: reference)
            try await connect(env)
            await env.presentNextCard(.approve)
            let ledger = try await self.ledger(device!.vfs, device!.url)
            let paying = PaymentTerminal(processor: env.processor, ledger: ledger, scope: scope, clock: env.clock)
            let paid = try await paying.takePayment(request)
            outcome.charges = await env.charges(reference: reference)
            guard paid.state == .succeeded else {
                outcome.problems.append("the payment to refund ended \(paid.state)")
                await ledger.close()
                return (outcome, 0)
            }

            // The refund's life: the ledger fails at write `cutAt`, then the power goes.
            let crashing = CrashingLedger(wrapping: ledger, crashAtWrite: cutAt)
            let first = PaymentTerminal(processor: env.processor, ledger: crashing, scope: scope, clock: env.clock)
            _ = try? await first.refund(reference: reference, amount: Money(minorUnits: 1_000, currency: .usd))
            writes = await crashing.attemptedWrites
            try await device!.cut(ledger, torn: torn, seed: cutAt)

            // The next life: relaunched, reopened, recovered; the vendor settles.
            let reopened = try await SQLitePaymentLedger.open(url: device!.url)
            defer { Task { await reopened.close() } }
            let processor = try await env.relaunch()
            let second = PaymentTerminal(processor: processor, ledger: reopened, scope: scope, clock: env.clock)
            _ = await second.recover()
            var session = try await second.session(reference: reference)
            for _ in 0..<30 where session?.refunds.contains(where: { $0.status == .pending }) ?? false {
                await env.advanceClock(by: 5)
                _ = await second.pollOnce()
                session = try await second.session(reference: reference)
            }
            outcome.finalState = session?.state
            if session?.state != .succeeded {
                outcome.problems.append("the refunded payment is \(session.map { "\($0.state)" } ?? "gone") after the cut")
            }
            let recorded = session?.refunds.filter { $0.status == .succeeded }.reduce(Int64(0)) { $0 + $1.amount.minorUnits } ?? 0
            let atProcessor = await env.refunded(reference: reference) ?? 0
            if atProcessor > 1_000 { outcome.problems.append("refunded \(atProcessor) for one refund of 1000: twice") }
            if atProcessor != recorded {
                outcome.problems.append("the processor refunded \(atProcessor), the ledger records \(recorded)")
            }
            if session?.refunds.contains(where: { $0.status == .pending }) ?? false {
                outcome.problems.append("a refund is still pending after recovery")
            }
        } catch {
            outcome.problems.append("threw \(error)")
        }
        return (outcome, writes)
    }
}
