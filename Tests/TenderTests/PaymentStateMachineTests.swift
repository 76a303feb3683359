import Testing
@testable import Tender
import TenderTesting

/// Every legal pair, written out independently of the code's table, so a change to either is caught.
private let expectedLegal: Set<String> = [
    "created>collecting", "created>processing", "created>canceled", "created>failed", "created>outcomeUnknown",
    "collecting>processing", "collecting>canceled", "collecting>failed", "collecting>declined",
    "collecting>outcomeUnknown",
    "processing>collecting", "processing>authorized", "processing>succeeded", "processing>storedOffline",
    "processing>declined", "processing>failed", "processing>canceled", "processing>outcomeUnknown",
    "authorized>succeeded", "authorized>canceled",
    "storedOffline>forwarded", "storedOffline>declinedAfterForwarding", "storedOffline>failedToForward",
    "forwarded>succeeded", "forwarded>canceled",
    "failedToForward>forwarded", "failedToForward>declinedAfterForwarding",
    "outcomeUnknown>collecting", "outcomeUnknown>processing", "outcomeUnknown>authorized", "outcomeUnknown>succeeded",
    "outcomeUnknown>storedOffline", "outcomeUnknown>forwarded", "outcomeUnknown>declined",
    "outcomeUnknown>declinedAfterForwarding", "outcomeUnknown>failedToForward", "outcomeUnknown>failed",
    "outcomeUnknown>canceled",
]

private let allPairs: [(PaymentState, PaymentState)] =
    PaymentState.allCases.flatMap { from in PaymentState.allCases.map { (from, $0) } }

@Suite struct PaymentStateMachineTests {
    @Test func thirteenStates() { #expect(PaymentState.allCases.count == 13) }

    @Test(arguments: allPairs)
    func everyPair(from: PaymentState, to: PaymentState) {
        let legal = expectedLegal.contains("\(from)>\(to)")
        #expect(PaymentStateMachine.canTransition(from: from, to: to) == legal, "\(from) → \(to)")
        do {
            let result = try PaymentStateMachine.transition(from: from, to: to)
            #expect(legal, "illegal \(from) → \(to) was accepted")
            #expect(result == to)
        } catch {
            #expect(!legal, "legal \(from) → \(to) was rejected")
            #expect(error.from == from && error.to == to)
            #expect(error.paymentError.code == .illegalTransition)
        }
    }

    @Test func legalPairsListMatches() {
        #expect(Set(PaymentStateMachine.legalPairs.map { "\($0.from)>\($0.to)" }) == expectedLegal)
    }

    @Test func finalAndReconciliationSets() {
        #expect(Set(PaymentState.allCases.filter(\.isFinal)) == [.succeeded, .declinedAfterForwarding, .canceled, .declined, .failed])
        #expect(Set(PaymentState.allCases.filter(\.needsReconciliation)) ==
                [.created, .collecting, .processing, .outcomeUnknown, .storedOffline, .failedToForward])
        // Outcome unknown never leads back to created: it is resolved, or the same payment is retried.
        #expect(!PaymentStateMachine.canTransition(from: .outcomeUnknown, to: .created))
    }

    @Test func sessionChangeRejectsIllegalAndStaleChanges() throws {
        let request = PaymentRequest(amount: Money(minorUnits: 100, currency: .usd), reference: "r")
        var session = PaymentSession(request: request, scope: LedgerScope(merchantID: "m", locationID: "l"),
                                     processor: "memory", route: .online, at: ManualClock().now())
        let clock = ManualClock()
        #expect(throws: PaymentError.self) {
            try SessionChange(reference: "r", expectedState: .created, newState: .forwarded, at: clock.now()).apply(to: &session)
        }
        #expect(session.state == .created)
        #expect(throws: PaymentError.self) {
            try SessionChange(reference: "r", expectedState: .processing, newState: .succeeded, at: clock.now()).apply(to: &session)
        }
        try SessionChange(reference: "r", expectedState: .created, newState: .collecting, at: clock.now()).apply(to: &session)
        #expect(session.state == .collecting && session.transitions.count == 2)
    }
}
