import Foundation
import Testing
import Tender
import TenderBackend
import TenderTesting
import TenderWire
@testable import MerchantServer

/// A device's terminal over the in-memory processor, enrolled at `location`, reporting through the real client.
private struct ReportingDevice {
    let terminal: PaymentTerminal
    let processor: InMemoryPaymentProcessor
    let reporter: FleetReporter
    let clock = ManualClock()

    init(url: URL, token: String, location: String, name: String) async throws {
        processor = InMemoryPaymentProcessor(clock: clock)
        let ledger = try await SQLitePaymentLedger.open(url: FileManager.default.temporaryDirectory
            .appendingPathComponent("fleet-\(UUID().uuidString).sqlite"))
        terminal = PaymentTerminal(
            processor: processor, ledger: ledger,
            scope: LedgerScope(merchantID: "acct_test_merchant", locationID: location),
            limits: OfflineRiskLimits(perPaymentMaximum: [.usd: 50_000], storedTotalMaximum: [.usd: 500_000]),
            clock: clock)
        let client = TenderBackendClient(baseURL: url) { ["Authorization": "Bearer \(token)"] }
        reporter = FleetReporter(source: terminal, client: client, deviceID: name, appVersion: "2.3",
                                 interval: .milliseconds(100), checkEvery: .milliseconds(50))
    }

    func takeOffline(_ reference: String, _ minor: Int64, card: InMemoryPaymentProcessor.Card = .approve) async throws {
        processor.setNetwork(.offline)
        processor.present(card)
        let session = try await terminal.takePayment(PaymentRequest(
            amount: Money(minorUnits: minor, currency: .usd), reference: reference, offlinePolicy: .forceOffline))
        #expect(session.state == .storedOffline)
        clock.advance(by: 60)
    }
}

@Suite("The fleet: devices report money not yet safe; the page shows it to the administrator",
       .timeLimit(.minutes(2)))
struct FleetTests {
    @Test("reports through the real client, stored once per change; the page and its JSON twin show totals, a silent device and a follow-up", arguments: StoreKind.available)
    func fleet(kind: StoreKind) async throws {
        let harness = Harness(store: try await kind.makeStore(), clock: TestClock(start: Date()))
        let till = try await harness.enrol(location: "shop-1", role: "cashier", name: "front till")
        let back = try await harness.enrol(location: "shop-1", role: "manager", name: "back office")
        let quiet = try await harness.enrol(location: "shop-2", role: "cashier", name: "pop-up stand")
        try await ClientTests.withLiveServer(harness) { url in
            let devices = [try await ReportingDevice(url: url, token: till.token, location: "shop-1", name: "till"),
                           try await ReportingDevice(url: url, token: back.token, location: "shop-1",
                                                     name: "back office"),
                           try await ReportingDevice(url: url, token: quiet.token, location: "shop-2", name: "pop-up")]
            try await devices[0].takeOffline("order-<1>", 1_250)
            try await devices[0].takeOffline("order-2", 4_000)
            try await devices[1].takeOffline("order-9", 7_700, card: .declineWhenForwarded)
            try await devices[2].takeOffline("order-5", 900)
            // The back office forwards: the issuer declines it (the merchant must follow up).
            let run = Task { await devices[1].terminal.run() }
            devices[1].processor.setNetwork(.online)
            #expect(devices[1].processor.forwardStoredPayments() == 1)
            #expect(await eventually {
                (try? await devices[1].terminal.session(reference: "order-9"))?.state == .declinedAfterForwarding
            })
            run.cancel()

            let reporters = devices.map { device in Task { await device.reporter.run() } }
            defer { reporters.forEach { $0.cancel() } }
            for device in [till, back, quiet] {
                #expect(await eventually { (try? await harness.server.store.fleetReport(deviceID: device.id)) != nil })
            }
            // Reporting again without a change adds no change row.
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await harness.server.store.fleetReportChanges(deviceID: till.id).count == 1)
            reporters[2].cancel()   // the pop-up goes quiet
            await reporters[2].value
            // A send cancelled on the device may still be written by the server: let it land before the clock moves.
            try await Task.sleep(for: .milliseconds(500))

            harness.clock.advance(16 * 60)   // past the 15 minutes of silence: the others report again meanwhile
            let advanced = harness.clock.now
            for device in [till, back] {
                #expect(await eventually {
                    ((try? await harness.server.store.fleetReport(deviceID: device.id))?.receivedAt ?? .distantPast)
                        >= advanced.addingTimeInterval(-1)
                })
            }
            let json = try await harness.call(.get, "/v1/fleet", token: Harness.adminToken)
            #expect(json.status == 200)
            let view = try MerchantJSON.decoder.decode(FleetView.self, from: json.body)
            let shop1 = try #require(view.locations.first { $0.locationID == "shop-1" })
            #expect(shop1.notYetSafe == ["USD": 5_250])
            #expect(view.followUp.map(\.reference) == ["order-9"])
            #expect(view.locations.flatMap(\.devices).filter(\.silent).map(\.deviceID) == [quiet.id])
            #expect(view.atRisk.map(\.reference) == ["order-5"] && view.atRisk.first?.why == "on a silent device")
            // The page: the administrator's token as a browser sends it (Basic), every value escaped.
            let basic = "Basic " + Data("admin:\(Harness.adminToken)".utf8).base64EncodedString()
            let page = try await harness.callWithHeader(.get, "/fleet", authorization: basic)
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(page.status == 200 && html.contains("TEST MODE") && html.contains("Money at risk"))
            #expect(html.contains("order-&lt;1&gt;") && !html.contains("order-<1>"))
            #expect(html.contains("order-9") && html.contains("money lost — follow up"))
            #expect(html.contains("52.50 USD"))
            // What a person sees, in a real browser (headless Chromium, JavaScript off), with a screenshot.
            try await Browser.expectPage(url, path: "/fleet", adminToken: Harness.adminToken, screenshot: "fleet-\(kind)",
                                   showing: ["TEST MODE", "Money at risk", "shop-1 — not yet safe: 52.50 USD",
                                             "order-5", "on a silent device", "pop-up stand",
                                             "order-9", "money lost — follow up", "order-<1>"])
            // Never a device token; without a token the browser is asked for one.
            let x = harness.exchanges
            #expect(try await x.invalid { try await harness.call(.get, "/fleet", token: till.token) }.status == 401)
            let anonymous = try await x.invalid { try await harness.call(.get, "/fleet") }
            #expect(anonymous.status == 401 && anonymous.headers[.wwwAuthenticate]?.hasPrefix("Basic") == true)
            #expect(try await harness.call(.get, "/fleet", token: Harness.adminToken).status == 200)
            try harness.exchanges.expectValid()
        }
    }

    @Test("a report for another location than the device's is refused")
    func otherLocation() async throws {
        let harness = Harness(store: try await StoreKind.sqlite.makeStore())
        let device = try await harness.enrol(location: "shop-1", role: "cashier")
        let report = FleetReport(deviceID: "x", scope: LedgerScope(merchantID: "acct_test_merchant",
                                                                   locationID: "shop-2"),
                                 generatedAt: Date(), appVersion: nil, tenderVersion: "0.4.0", totals: [], payments: [])
        let answer = try await harness.call(.post, "/v1/fleet/reports", token: device.token,
                                            body: try MerchantJSON.encoder.encode(report))
        #expect(answer.status == 403 && answer.errorCode == "not_authorized")
        #expect(try await harness.server.store.fleetReport(deviceID: device.id) == nil)
    }
}
