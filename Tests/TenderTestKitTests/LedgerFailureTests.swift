import Foundation
import Testing
@testable import Tender
import TenderTestKit
import TenderTesting

private let shop = LedgerScope(merchantID: "acct_L", locationID: "loc_L")
private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }

private func polled(_ condition: () async -> Bool) async -> Bool {
    for _ in 0..<5_000 {
        if await condition() { return true }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return await condition()
}

/// Issue 18, item 4: a ledger that fails after the vendor may have charged never reads as an integration error.
@Suite struct LedgerFailureTests {
    @Test("the outcome of a charge that cannot be recorded: outcomeUnknown, retry the same reference, charged once")
    func outcomeNotRecorded() async throws {
        let processor = InMemoryPaymentProcessor()
        let ledger = FaultInjectingLedger(wrapping: InMemoryPaymentLedger())
        let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: shop, clock: ManualClock())
        ledger.failWrites(times: 1) { $0.newState == .succeeded }
        let sale = PaymentRequest(amount: usd(4_200), reference: "disk-1")
        do {
            let session = try await terminal.takePayment(sale)
            Issue.record("takePayment returned \(session.state) although its outcome could not be recorded")
        } catch let error as PaymentError {
            #expect(error.code == .outcomeUnknown, "\(error)")
            #expect(error.recovery == .retrySamePayment)
            #expect(error.message.contains("may have been charged"), "\(error.message)")
            #expect(error.message.contains("disk-1"))
        }
        #expect(processor.charges(reference: "disk-1") == 1)
        #expect(ledger.failedWrites == 1)
        // The cashier retries the same reference: the same payment, never a second charge.
        let retried = try await terminal.takePayment(sale)
        #expect(retried.state == .succeeded)
        #expect(processor.charges(reference: "disk-1") == 1)
    }

    @Test("recover() repairs the record of a charge whose outcome could not be recorded, from its write-ahead row")
    func recoverRepairs() async throws {
        let processor = InMemoryPaymentProcessor()
        let ledger = FaultInjectingLedger(wrapping: InMemoryPaymentLedger())
        let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: shop, clock: ManualClock())
        ledger.failWrites(times: 1) { $0.newState == .authorized }
        await #expect(throws: PaymentError.self) {
            try await terminal.takePayment(PaymentRequest(amount: usd(3_000), reference: "disk-2", captureMode: .manual))
        }
        // The intermediate states were to be written with the outcome: the write-ahead record is what is left.
        #expect(try await terminal.session(reference: "disk-2")?.state == .created)
        let report = await terminal.recover()
        #expect(report.resolved.map(\.reference) == ["disk-2"])
        #expect(try await terminal.session(reference: "disk-2")?.state == .authorized)
        #expect(processor.charges(reference: "disk-2") == 1)
    }

    @Test("a second process holding the SQLite ledger's lock (SQLITE_BUSY) after the charge: outcomeUnknown, then recovered")
    func sqliteBusyAfterCharge() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tender-busy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("ledger.sqlite")
        let ledger = try await SQLitePaymentLedger.open(url: url, busyTimeout: 0.05)
        let processor = InMemoryPaymentProcessor()
        let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: shop, clock: ManualClock())
        processor.holdNextAuthorization()
        let sale = PaymentRequest(amount: usd(5_100), reference: "busy-1")
        let payment = Task { try await terminal.takePayment(sale) }
        #expect(await polled { processor.isHolding })
        // Another process takes the write lock while the vendor authorizes.
        let other = try SQLiteDatabase(path: url.path, mode: .readWrite)
        try other.execute("BEGIN IMMEDIATE")
        processor.releaseHeld()
        do {
            let session = try await payment.value
            Issue.record("takePayment returned \(session.state) under another writer's lock")
        } catch let error as PaymentError {
            #expect(error.code == .outcomeUnknown, "\(error)")
            #expect(error.recovery == .retrySamePayment)
            #expect(error.message.contains("may have been charged"), "\(error.message)")
        }
        try other.execute("ROLLBACK")
        other.close()
        #expect(processor.charges(reference: "busy-1") == 1)
        _ = await terminal.recover()
        #expect(try await terminal.session(reference: "busy-1")?.state == .succeeded)
        #expect(try await terminal.takePayment(sale).state == .succeeded)
        #expect(processor.charges(reference: "busy-1") == 1)
    }

    @Test("a refund whose answer cannot be recorded: outcomeUnknown saying what the ledger holds; retryRefund continues it, refunded once")
    func refundAnswerNotRecorded() async throws {
        let processor = InMemoryPaymentProcessor()
        let ledger = FaultInjectingLedger(wrapping: InMemoryPaymentLedger())
        let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: shop, clock: ManualClock())
        _ = try await terminal.takePayment(PaymentRequest(amount: usd(2_500), reference: "ref-1"))
        ledger.failRefundWrites(times: 1) { $0.newStatus == .succeeded }
        do {
            let refund = try await terminal.refund(reference: "ref-1", amount: usd(1_000))
            Issue.record("refund returned \(refund.status) although its answer could not be recorded")
        } catch let error as PaymentError {
            #expect(error.code == .outcomeUnknown, "\(error)")
            #expect(error.recovery == .retrySamePayment)
            #expect(error.message.contains("may have been refunded"), "\(error.message)")
            #expect(error.message.contains("The ledger holds it pending"), "\(error.message)")
            #expect(error.message.contains("retryRefund"), "\(error.message)")
        }
        #expect(processor.refunded(reference: "ref-1") == 1_000)
        let pending = try #require(try await terminal.session(reference: "ref-1")?.refunds.first)
        #expect(pending.status == .pending)
        let again = try await terminal.retryRefund(pending)
        #expect(again.status == .succeeded && again.id == pending.id)
        #expect(processor.refunded(reference: "ref-1") == 1_000)
        #expect(try await terminal.session(reference: "ref-1")?.refunds.count == 1)
        // Retrying a settled refund answers it as the ledger holds it; nothing is sent.
        #expect(try await terminal.retryRefund(pending) == again)
        #expect(processor.refunded(reference: "ref-1") == 1_000)
        // A new refund of the same amount is a new refund (a second item).
        let second = try await terminal.refund(reference: "ref-1", amount: usd(1_000))
        #expect(second.number == 2 && second.status == .succeeded)
        #expect(processor.refunded(reference: "ref-1") == 2_000)
    }
}

/// Issue 18, item 7: recovery records what it can, and says what it could not.
@Suite struct RecoveryLedgerFailureTests {
    @Test("recover() with a ledger failing one session's write: the others are recorded, that one is reported")
    func recoverReportsWhatItCouldNotRecord() async throws {
        let processor = InMemoryPaymentProcessor()
        let ledger = FaultInjectingLedger(wrapping: InMemoryPaymentLedger())
        let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: shop, clock: ManualClock())
        for reference in ["rec-Y", "rec-X"] {
            processor.injectTimeout(.answerLostAfterCharge)
            #expect(try await terminal.takePayment(PaymentRequest(amount: usd(700), reference: reference)).state
                    == .outcomeUnknown)
        }
        ledger.failWrites { $0.reference == "rec-X" }
        let report = await terminal.recover()
        #expect(report.resolved.map(\.reference) == ["rec-Y"], "\(report)")
        #expect(report.notRecorded == ["rec-X"])
        #expect(report.skipped.isEmpty)
        #expect(try await terminal.session(reference: "rec-Y")?.state == .succeeded)
        #expect(try await terminal.session(reference: "rec-X")?.state == .outcomeUnknown)
        ledger.heal()
        let again = await terminal.recover()
        #expect(again.resolved.map(\.reference) == ["rec-X"])
    }
}
