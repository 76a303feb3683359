import Foundation
import Testing
@testable import Tender
import TenderTesting

private let scope = LedgerScope(merchantID: "acct_F", locationID: "loc_fleet")
private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }
private let limits = OfflineRiskLimits(perPaymentMaximum: [.usd: 10_000], storedTotalMaximum: [.usd: 50_000],
                                       storedCountMaximum: 10)

/// The device's side of the fleet view (issue 30): what a terminal reports of money not yet safe.
@Suite struct FleetReportTests {
    @Test("stored offline, declined after forwarding and forwarded payments are counted where they stand; no card data")
    func standings() async throws {
        let clock = ManualClock()
        let processor = InMemoryPaymentProcessor(clock: clock)
        let terminal = PaymentTerminal(processor: processor, scope: scope, limits: limits, clock: clock)
        processor.setNetwork(.offline)
        processor.present(.approve, .declineWhenForwarded, .approve)
        for (reference, amount) in [("f-1", 1_200), ("f-2", 3_400), ("f-3", 560)] {
            let stored = try await terminal.takePayment(
                PaymentRequest(amount: usd(Int64(amount)), reference: reference, offlinePolicy: .forceOffline))
            #expect(stored.state == .storedOffline)
            clock.advance(by: 60)
        }
        let offline = await terminal.fleetReport(deviceID: "till-7", appVersion: "2.3")
        #expect(offline.deviceID == "till-7" && offline.scope == scope && offline.appVersion == "2.3")
        #expect(offline.ledgerProblem == nil && offline.paymentsLeftOut == 0)
        #expect(offline.totals == [FleetReport.Totals(currency: "USD",
                                                      storedOffline: .init(count: 3, minorUnits: 5_160))])
        #expect(offline.payments.map(\.reference) == ["f-1", "f-2", "f-3"])
        #expect(offline.payments.allSatisfy { $0.standing == .storedOffline && $0.deadline == nil })  // in-memory: no deadline
        // Card data has no field to travel in: the JSON holds references, amounts, states and times only.
        let json = String(decoding: try JSONEncoder().encode(offline), as: UTF8.self)
        for word in ["card", "pan", "expir", "track", "cardholder", "last4"] { #expect(!json.lowercased().contains(word)) }

        // Forwarded: one approved (safe: automatic capture), one declined by the issuer (follow up).
        let run = Task { await terminal.run() }   // handles the forwarding results, with the issuer's decline
        defer { run.cancel() }
        processor.setNetwork(.online)
        #expect(processor.forwardStoredPayments() == 3)
        #expect(await eventually { (try? await terminal.session(reference: "f-2"))?.state == .declinedAfterForwarding })
        #expect(await eventually { (try? await terminal.session(reference: "f-3"))?.state == .forwarded })
        let after = await terminal.fleetReport(deviceID: "till-7", appVersion: "2.3")
        #expect(after.totals == [FleetReport.Totals(currency: "USD",
                                                    declinedAfterForwarding: .init(count: 1, minorUnits: 3_400))])
        #expect(after.payments.map(\.reference) == ["f-2"] && after.payments.first?.standing == .declinedAfterForwarding)
        #expect(after.lastForwardingError?.code == .cardDeclined)
        #expect(!after.sameContent(as: offline))
        var later = after
        later.generatedAt = after.generatedAt.addingTimeInterval(600)
        #expect(later.sameContent(as: after))
    }

    @Test("Square's documented 24-hour window is the deadline of a payment stored offline; Stripe documents none")
    func deadlines() {
        let taken = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(PaymentTerminal.forwardingDeadline("square", takenAt: taken) == taken.addingTimeInterval(86_400))
        #expect(PaymentTerminal.forwardingDeadline("stripe", takenAt: taken) == nil)
    }
}
