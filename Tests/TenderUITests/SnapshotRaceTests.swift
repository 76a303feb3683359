import Foundation
import Testing
@testable import Tender
import TenderTestKit
import TenderTesting
@testable import TenderUI

/// A snapshot read while a reader action finishes holds the reader as it was before the action: applied after it,
/// it would undo what the action showed (the update just installed shown as required again). Seen as a flaky
/// preview scenario under load; made deterministic here by holding the snapshot's queue read.
// Each test and helper carries Observation's availability (the model's): Swift Testing refuses it on a suite.
@MainActor
@Suite("TerminalModel: a snapshot read across a reader action")
struct SnapshotRaceTests {
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("an update installed while a snapshot is being read stays installed: the model reads the snapshot again")
    func updateInstalledDuringALoad() async throws {
        let processor = InMemoryPaymentProcessor()
        let ledger = FaultInjectingLedger(wrapping: InMemoryPaymentLedger())
        let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: uiScope)
        let reader = try #require(try await terminal.discoverReaders(timeout: 1).first)
        _ = try await terminal.connectReader(reader)
        processor.injectReaderFault(.updateRequired)
        let model = TerminalModel(terminal: terminal)
        await model.load()
        #expect(model.softwareUpdate?.isRequired == true)

        // A second load reads the reader (update required), then waits in the queue read.
        let latch = TestLatch()
        ledger.holdNextStoredSummary { await latch.wait() }
        let loading = Task { await model.load() }
        for _ in 0..<5_000 where !(await latch.arrived) { try await Task.sleep(nanoseconds: 1_000_000) }
        #expect(await latch.arrived)
        // Meanwhile the update is installed.
        await model.installUpdate()
        #expect(model.softwareUpdate == nil && model.lastError == nil)
        // The held snapshot comes back: it must not show the update as required again.
        await latch.open()
        await loading.value
        #expect(model.softwareUpdate == nil, "a snapshot older than the install undid it")
        #expect(await terminal.connectedReader()?.availableUpdate == nil)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("an announcement of the version just installed, arriving late, does not show it again; a newer one does")
    func lateAnnouncementOfTheInstalledVersion() async throws {
        let processor = InMemoryPaymentProcessor()
        let terminal = PaymentTerminal(processor: processor, scope: uiScope)
        let reader = try #require(try await terminal.discoverReaders(timeout: 1).first)
        _ = try await terminal.connectReader(reader)
        processor.injectReaderFault(.updateRequired)
        let model = TerminalModel(terminal: terminal)
        await model.load()
        let update = try #require(model.softwareUpdate)
        await model.installUpdate()
        #expect(model.softwareUpdate == nil && model.lastError == nil)
        model.apply(.processor(.softwareUpdateAvailable(update)))
        #expect(model.softwareUpdate == nil, "the update just installed came back as available")
        let newer = ReaderSoftwareUpdate(version: update.version + ".1", isRequired: false)
        model.apply(.processor(.softwareUpdateAvailable(newer)))
        #expect(model.softwareUpdate == newer)
    }
}
