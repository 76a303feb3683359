import Foundation
import Testing
import Tender
import TenderPreviews
import TenderUI

/// The preview factory builds every named scenario, and each behaves as its name says.
// Each test and helper carries Observation's availability (the model's): Swift Testing refuses it on a suite.
@MainActor
@Suite("Preview scenarios")
struct PreviewScenarioTests {
    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    private func sale(_ reference: String) -> PaymentRequest {
        PaymentRequest(amount: Money(minorUnits: 1_250, currency: .usd), reference: reference,
                       offlinePolicy: .preferOnline)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("online: a reader is connected and a card is approved")
    func online() async throws {
        let model = await TerminalModel.preview(.online)
        #expect(model.reader != nil && model.readerStatus == .connected)
        #expect(await model.charge(sale("p-online"))?.state == .succeeded)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("offline: the sale is stored on the device and counted in the queue")
    func offline() async throws {
        let model = await TerminalModel.preview(.offline)
        #expect(model.reader != nil && model.networkStatus == .offline)
        #expect(await model.charge(sale("p-offline"))?.state == .storedOffline)
        #expect(model.prompt == .storedOffline)
        let queue = try await model.terminal.queueStatus()
        #expect(queue.storedCount == 1)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("declines: the card is declined and the advice is to ask for another card")
    func declines() async throws {
        let model = await TerminalModel.preview(.declines)
        let session = await model.charge(sale("p-decline"))
        #expect(session?.state == .declined)
        #expect(model.lastError?.recovery == .collectAnotherCard)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("reader update required: payments are refused until the update is installed")
    func updateRequired() async throws {
        let model = await TerminalModel.preview(.readerUpdateRequired)
        #expect(model.softwareUpdate?.isRequired == true, "\(String(describing: model.reader))")
        #expect(await model.charge(sale("p-update-1")) == nil)
        #expect(model.lastError?.code == .readerUpdateRequired)
        await model.installUpdate()
        #expect(model.softwareUpdate == nil && model.lastError == nil)
        #expect(await model.charge(sale("p-update-2"))?.state == .succeeded)
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test("a UI test names the scenario in its launch arguments")
    func launchArguments() {
        #expect(PreviewScenario(launchArguments: ["App", "-TenderScenario", "offline"]) == .offline)
        #expect(PreviewScenario(launchArguments: ["App", "-TenderScenario", "readerUpdateRequired"]) == .readerUpdateRequired)
        #expect(PreviewScenario(launchArguments: ["App", "-TenderScenario", "nonsense"]) == nil)
        #expect(PreviewScenario(launchArguments: ["App", "-TenderScenario"]) == nil)
        #expect(PreviewScenario(launchArguments: ["App"]) == nil)
        #expect(PreviewScenario.allCases.count == 4)
    }
}
