import Foundation
import Tender
import TenderTestKit
import Testing

/// The conformance kit's race and amount checks (issue 28: items 1–3) on their own, for a focused run; the full
/// suite runs them too.
@Suite("Stripe conformance: races and amounts")
struct StripeRaceConformanceTests {
    @Test("recovery's verdict for an earlier attempt, a scope switch mid-payment, a lost capture answer's amount")
    func racesAndAmounts() async {
        let report = await ConformanceSuite(subject: StripeConformanceSubject())
            .run(where: { $0.hasPrefix("races:") || $0.hasPrefix("amounts:") })
        #expect(report.results.count == 3, "\(report)")
        #expect(report.passed, "\(report)")
    }
}
