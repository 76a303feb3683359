import Foundation
import Testing
import Tender
@testable import TenderSquare
@testable import TenderSquareSimulator

/// Issue 18 (found by the power-loss test, seed 20261122 round 155): Square's payments do not say which attempt made
/// them, so an earlier attempt's decline made in the same instant as a later attempt started must not be read as the
/// later attempt's outcome while the search may still be missing the later attempt's charge.
@Suite("Square processor: attributing payments to attempts")
struct SquareAttemptAttributionTests {
    @Test("an earlier attempt's decline is not the next attempt's outcome before the search has settled")
    func earlierDeclineNotAttributedEarly() async throws {
        let world = try await SquareWorld()
        await world.simulator.setPresentedCard(.declined)
        let (first, _) = try await world.pay("order-1", cents: 27_00)
        #expect(first.state == .declined)
        // Attempt 2 was recorded in the same instant (the clock did not move); a cut took everything after its
        // first record, and Square's search already shows attempt 1's decline.
        let since = world.clock.now()
        world.clock.advance(by: 6)  // past the simulator's search lag (5 s), inside the 60 s consistency window
        let early = try await world.processor.lookUpPayment(world.query("order-1", attempt: 2, state: .outcomeUnknown,
                                                                        since: since))
        #expect(early == .unknown, "attempt 1's decline was given to attempt 2: \(early)")
    }

    @Test("a charge is attributed at once; a decline of this attempt once the search has settled")
    func chargeAtOnceDeclineWhenSettled() async throws {
        let world = try await SquareWorld()
        let since = world.clock.now()
        await world.simulator.setPresentedCard(.declined)
        _ = try await world.pay("order-2", cents: 5_00)
        world.clock.advance(by: 61)
        guard case .found(let declined) = try await world.processor.lookUpPayment(
            world.query("order-2", state: .outcomeUnknown, since: since)) else {
            Issue.record("a settled search's decline of this attempt was not found")
            return
        }
        #expect(declined.state == .declined)

        let chargeSince = world.clock.now()
        await world.simulator.setPresentedCard(.visaChip)
        _ = try await world.pay("order-3", cents: 5_00)
        world.clock.advance(by: 6)
        guard case .found(let charged) = try await world.processor.lookUpPayment(
            world.query("order-3", state: .outcomeUnknown, since: chargeSince)) else {
            Issue.record("a visible charge was not attributed before the window passed")
            return
        }
        #expect(charged.state == .succeeded)
    }
}
