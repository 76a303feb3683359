import Foundation
import Tender
import TenderTesting

func fuzzStateMachine(iterations: Int, random: inout SeededGenerator, report: inout FuzzReport) {
    let states = PaymentState.allCases
    let base = PaymentSession(request: PaymentRequest(amount: Money(minorUnits: 100, currency: .usd), reference: "sm"),
                              scope: LedgerScope(merchantID: "m", locationID: "l"), processor: "memory", route: .online,
                              at: Accounts.epoch)
    var session = base
    for index in 0..<iterations {
        if index % 12 == 0 { session = base }
        let from = session.state
        let to = states.randomElement(using: &random)!
        report.transitions += 1
        let legal = PaymentStateMachine.canTransition(from: from, to: to)
        do {
            let result = try PaymentStateMachine.transition(from: from, to: to)
            if !legal || result != to {
                report.tally.mismatch("fuzz: transition \(from)→\(to) accepted")
            }
        } catch {
            if legal {
                report.tally.mismatch("fuzz: legal transition \(from)→\(to) refused")
            }
        }
        // A change expecting the wrong state must also throw and leave the session as it was.
        let expected = random.chance(0.1) ? states.randomElement(using: &random)! : from
        let change = SessionChange(reference: "sm", expectedState: expected, newState: to,
                                   at: Accounts.epoch.addingTimeInterval(Double(index)))
        let before = session
        do {
            try change.apply(to: &session)
            if expected != from || (!legal && to != from) || session.state != to {
                report.tally.mismatch("fuzz: SessionChange \(expected)→\(to) applied to a \(from) session")
            }
        } catch {
            if session != before {
                report.tally.mismatch("fuzz: a refused SessionChange \(from)→\(to) changed the session")
            }
            if expected == from, legal || to == from {
                report.tally.mismatch("fuzz: legal SessionChange \(from)→\(to) refused")
            }
        }
    }
}

/// Random forwarding results (any state, known and unknown references, duplicates) through
/// `applyForwardingResults`: every state a session reaches must be legal from the one before.
func fuzzForwardingSequences(iterations: Int, random: inout SeededGenerator, report: inout FuzzReport) async {
    let ledger: any PaymentLedger = InMemoryPaymentLedger()
    let scope = LedgerScope(merchantID: "m", locationID: "l")
    let terminal = PaymentTerminal(processor: InMemoryPaymentProcessor(name: "memory"), ledger: ledger, scope: scope,
                                   clock: ManualClock(start: Accounts.epoch))
    let states = PaymentState.allCases
    for round in 0..<iterations {
        var references: [String] = []
        for index in 0..<5 {
            let reference = "seq\(round)-\(index)"
            let request = PaymentRequest(amount: Money(minorUnits: 500, currency: .usd), reference: reference,
                                         offlinePolicy: .forceOffline)
            var session = PaymentSession(request: request, scope: scope, processor: "memory", route: .offline,
                                         at: Accounts.epoch)
            session.state = states.randomElement(using: &random)!
            do { try await ledger.insert(session) } catch { continue }
            references.append(reference)
        }
        for _ in 0..<6 {
            report.eventSequences += 1
            let updates = (0..<random.int(1...6)).map { _ in
                ProcessorPaymentUpdate(reference: random.chance(0.1) ? "nobody" : references.randomElement(using: &random)!,
                                       state: states.randomElement(using: &random)!,
                                       processorPaymentID: random.chance(0.3) ? "pi_\(random.int(0...9))" : nil)
            }
            var before: [String: PaymentState] = [:]
            for reference in references {
                before[reference] = try? await ledger.session(reference: reference, scope: scope, includingHistory: false)?.state
            }
            do {
                _ = try await terminal.applyForwardingResults(updates)
            } catch {
                report.tally.mismatch("fuzz: applyForwardingResults threw: \(error)")
            }
            for reference in references {
                guard let session = try? await ledger.session(reference: reference, scope: scope) else { continue }
                // Every recorded transition must be legal, and the history must end where the state is.
                for transition in session.transitions.dropFirst() {
                    guard let from = transition.from, PaymentStateMachine.canTransition(from: from, to: transition.to)
                    else {
                        report.tally.mismatch("fuzz: ledger recorded illegal \(transition.from?.rawValue ?? "nil")→\(transition.to)")
                        continue
                    }
                }
                if let previous = before[reference], previous != session.state,
                   !reachable(from: previous, to: session.state) {
                    report.tally.mismatch("fuzz: \(reference) jumped \(previous)→\(session.state)")
                }
            }
        }
    }
}
