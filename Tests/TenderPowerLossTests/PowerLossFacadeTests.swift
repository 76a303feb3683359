import Foundation
import Testing
import Tender
import TenderPowerLoss
import TenderTesting

@Suite("A payment through the facade with the power cut: the write-ahead record and the outcome survive")
struct PowerLossFacadeTests {
    let scope = LedgerScope(merchantID: "acct_power", locationID: "loc_1")
    let request = PaymentRequest(amount: Money(minorUnits: 4_200, currency: .usd), reference: "order-42",
                                 offlinePolicy: .requireOnline)

    /// A facade over `processor` and `ledger`, reader connected, network on.
    func terminal(_ processor: InMemoryPaymentProcessor, _ ledger: any PaymentLedger) async throws -> PaymentTerminal {
        let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: scope)
        let readers = try await terminal.discoverReaders(timeout: 1)
        _ = try await terminal.connectReader(try #require(readers.first))
        return terminal
    }

    /// The first life: a payment with the power cut at the armed write (or after the payment, if it comes later).
    func firstLife(vfs: PowerLossVFS, url: URL, processor: InMemoryPaymentProcessor) async {
        do {
            let ledger = try await vfs.openLedger(at: url)
            processor.present(.approve)
            _ = try? await terminal(processor, ledger).takePayment(request)
            if vfs.isPowered { vfs.cutPower() }
            await ledger.close()
        } catch {
            #expect(!vfs.isPowered, "only the cut fails the first life: \(error)")
        }
    }

    /// The ledger opens, a charge is never unknown to it, and recovery with the app's retry ends with exactly one
    /// charge, recorded as succeeded.
    @Test("a cut at every write of a payment: the ledger opens, recovery and the retry charge exactly once")
    func cutAtEveryWriteOfAPayment() async throws {
        try await withDirectory { directory in
            // The payment's writes, counted once (opening included).
            let reference = try PowerLossVFS()
            await firstLife(vfs: reference, url: directory.appendingPathComponent("reference.sqlite"),
                            processor: InMemoryPaymentProcessor())
            reference.unregister()
            let total = reference.statistics.writes
            var chargedBeforeRecovery = 0
            for write in 1...(total + 1) {
                let vfs = try PowerLossVFS()
                defer { vfs.unregister() }
                let url = directory.appendingPathComponent("cut-\(write).sqlite")
                let processor = InMemoryPaymentProcessor()
                vfs.cutPower(atWrite: write, write.isMultiple(of: 2) ? .tornWrite(seed: UInt64(write)) : .wholePages)
                await firstLife(vfs: vfs, url: url, processor: processor)
                try vfs.restorePower()

                // The next life: the device restarted (the SDK forgot its handles), the ledger reopened.
                let relaunched = processor.relaunched()
                let ledger = try await SQLitePaymentLedger.open(url: url)
                let charged = processor.charges(reference: request.reference)
                chargedBeforeRecovery += charged
                if charged > 0 {
                    #expect(try await ledger.session(reference: request.reference, scope: scope) != nil,
                            "cut at write \(write): charged, and the write-ahead record is gone")
                }
                if write > total {
                    let outcome = try await ledger.session(reference: request.reference, scope: scope)
                    #expect(outcome?.state == .succeeded, "a cut after the payment returned keeps its synced outcome")
                }
                let next = try await terminal(relaunched, ledger)
                _ = await next.recover()
                relaunched.present(.approve)
                let retried = try await next.takePayment(request)
                #expect(retried.state == .succeeded, "cut at write \(write): \(retried.state)")
                let charges = processor.charges(reference: request.reference)
                #expect(charges == 1, "cut at write \(write): charged \(charges) times")
                await ledger.close()
            }
            #expect(chargedBeforeRecovery > 0, "some cuts came after the charge")
        }
    }

    /// Takes a payment whose authorization is held at the processor, cuts the power while it is held (the
    /// write-ahead record committed, the outcome not yet), lets the processor charge, and reopens the ledger.
    func cutWhileTheProcessorCharges(_ open: (PowerLossVFS, URL) async throws -> SQLitePaymentLedger) async throws
        -> (session: PaymentSession?, charges: Int) {
        try await withDirectory { directory in
            let vfs = try PowerLossVFS()
            defer { vfs.unregister() }
            let url = directory.appendingPathComponent("ledger.sqlite")
            let processor = InMemoryPaymentProcessor()
            let ledger = try await open(vfs, url)
            let first = try await terminal(processor, ledger)
            processor.present(.approve)
            processor.holdNextAuthorization()
            let request = request
            let payment = Task { try await first.takePayment(request) }
            while !processor.isHolding { try await Task.sleep(nanoseconds: 1_000_000) }
            vfs.cutPower()
            processor.releaseHeld()     // the processor charges; its answer reaches a dead app
            _ = await payment.result
            await ledger.close()
            try vfs.restorePower()
            let reopened = try await SQLitePaymentLedger.open(url: url)
            defer { Task { await reopened.close() } }
            return (try await reopened.session(reference: request.reference, scope: scope),
                    processor.charges(reference: request.reference))
        }
    }

    @Test("the write-ahead record survives a cut while the processor charges: recovery can find the charge")
    func writeAheadSurvives() async throws {
        let (session, charges) = try await cutWhileTheProcessorCharges { vfs, url in try await vfs.openLedger(at: url) }
        #expect(charges == 1)
        #expect(session?.state == .created, "only the synced write-ahead record is left (collecting, processing lost)")
    }

    @Test("the VFS bites: a ledger that skips the write-ahead sync loses a payment the processor charged")
    func skippedWriteAheadSyncLosesThePayment() async throws {
        let (session, charges) = try await cutWhileTheProcessorCharges { vfs, url in
            try await vfs.openLedgerSkippingWriteAheadSync(at: url)
        }
        #expect(charges == 1)
        #expect(session == nil, "the charge is unknown to the ledger: lost")
    }
}
