import Foundation
import Testing
import Tender
@testable import TenderSquare
@testable import TenderSquareSimulator

/// Signing out of Square with offline payments on the device: Square advises reading the queue before
/// `deauthorize()` "so that you can alert the seller about any unprocessed payments".
@Suite("Square processor: signing out")
struct SquareSignOutTests {
    @Test("a payment whose upload Square could not verify (unknown) blocks signing out like a queued one")
    func unverifiedUploadBlocksSignOut() async throws {
        let world = try await SquareWorld()
        _ = try await world.pay("order-1", cents: 10_00, routing: .offline)
        await world.simulator.injectUploadFault(.unverifiable)
        await world.simulator.syncOfflinePayments()
        #expect(try await world.processor.queueSnapshot().payments.map(\.status) == [.unknown])
        await #expect {
            try await world.processor.deauthorize()
        } throws: { ($0 as? PaymentError)?.code == .unforwardedPaymentsAtRisk }
        // Once Square verifies and processes it, nothing is at risk.
        await world.simulator.syncUntilIdle()
        try await world.processor.deauthorize()
    }

    @Test("a queue that cannot be read refuses signing out: nothing proves it empty; accepting the risk signs out")
    func unreadableQueueBlocksSignOut() async throws {
        let world = try await SquareWorld()
        _ = try await world.pay("order-1", cents: 10_00, routing: .offline)
        await world.simulator.syncUntilIdle()
        await world.simulator.injectQueueReadFailures(1)
        do {
            try await world.processor.deauthorize()
            Issue.record("signing out with an unreadable queue was allowed")
        } catch {
            #expect(error.code == .unforwardedPaymentsAtRisk)
            #expect(error.recovery == .waitAndRetry)
            #expect(error.message.contains("could not be read"), "\(error.message)")
        }
        // The read works again and the queue is empty: signing out proceeds.
        try await world.processor.deauthorize()
        await world.simulator.injectQueueReadFailures(1)
        try await world.processor.deauthorize(acceptingQueuedPayments: true)
    }
}
