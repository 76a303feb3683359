import Foundation
import Testing
import TenderWire
@testable import MerchantServer

@Suite("The fleet view reconciles the devices' reports with the vendors' word")
struct FleetViewTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func payment(_ reference: String, _ processor: String, id: String?, minor: Int64,
                        _ standing: FleetReport.Standing = .storedOffline, takenAgo: TimeInterval,
                        deadlineIn: TimeInterval? = nil) -> FleetReport.Payment {
        FleetReport.Payment(reference: reference, processor: processor, processorPaymentID: id,
                            amount: Money(minorUnits: minor, currency: .usd), standing: standing,
                            takenAt: now.addingTimeInterval(-takenAgo), deadline: deadlineIn.map(now.addingTimeInterval))
    }

    @Test("confirmed by the vendor: settled; refused after forwarding: follow up; past or near the deadline, or outcome unknown: at risk")
    func reconciles() throws {
        let device = DeviceRecord(id: "dev_1", merchantID: "m", locationID: "shop-1", role: "cashier", name: "till",
                                  tokenHash: "", createdAt: Self.now)
        let report = FleetReport(
            deviceID: "till", scope: LedgerScope(merchantID: "m", locationID: "shop-1"), generatedAt: Self.now,
            appVersion: nil, tenderVersion: "0.4.0", totals: [],
            payments: [Self.payment("a", "stripe", id: "pi_a", minor: 100, takenAgo: 600),
                       Self.payment("b", "square", id: nil, minor: 200, takenAgo: 500, deadlineIn: -60),
                       Self.payment("c", "square", id: nil, minor: 300, takenAgo: 400, deadlineIn: 3_600),
                       Self.payment("d", "square", id: nil, minor: 400, takenAgo: 300, deadlineIn: 80_000),
                       Self.payment("e", "stripe", id: "pi_e", minor: 500, takenAgo: 200),
                       Self.payment("f", "stripe", id: nil, minor: 600, .outcomeUnknown, takenAgo: 100)])
        let stored = StoredFleetReport(deviceID: "dev_1", merchantID: "m", locationID: "shop-1", receivedAt: Self.now,
                                       json: String(decoding: try MerchantJSON.encoder.encode(report), as: UTF8.self))
        let vendor = [VendorPaymentSummary(vendor: "stripe", paymentID: "pi_a", reference: "a", settled: true,
                                           failed: false),
                      VendorPaymentSummary(vendor: "stripe", paymentID: "pi_e", reference: "e", settled: false,
                                           failed: true),
                      VendorPaymentSummary(vendor: "square", paymentID: "sq_d", reference: "d", settled: true,
                                           failed: false)]
        let view = FleetView.build(devices: [device], reports: [stored], vendor: vendor,
                                   lastVendorEvent: ["stripe": Self.now], now: Self.now, silentAfter: 900)
        #expect(view.settled == 2)
        #expect(view.followUp.map(\.reference) == ["e"] && view.followUp[0].why.hasPrefix("money lost"))
        #expect(view.atRisk.map(\.reference) == ["b", "c", "f"])
        #expect(view.atRisk.map(\.why) == ["past the processor's deadline", "near the processor's deadline",
                                           "outcome unknown"])
        #expect(view.locations.first?.notYetSafe == ["USD": 200 + 300 + 600])
        #expect(view.locations.first?.devices.first?.silent == false)
        let silent = FleetView.build(devices: [device], reports: [stored], vendor: vendor, lastVendorEvent: [:],
                                     now: Self.now.addingTimeInterval(901), silentAfter: 900)
        #expect(silent.locations.first?.devices.first?.silent == true)
        #expect(silent.atRisk.contains { $0.reference == "f" && $0.why == "on a silent device" })
    }

    @Test("the page's report cache decodes a device's report again only when it changed")
    func cache() async throws {
        func stored(_ version: String) throws -> StoredFleetReport {
            let report = FleetReport(deviceID: "till", scope: LedgerScope(merchantID: "m", locationID: "s"),
                                     generatedAt: Self.now, appVersion: version, tenderVersion: "0.4.0", totals: [],
                                     payments: [])
            return StoredFleetReport(deviceID: "dev_1", merchantID: "m", locationID: "s", receivedAt: Self.now,
                                     json: String(decoding: try MerchantJSON.encoder.encode(report), as: UTF8.self))
        }
        let cache = FleetReportCache()
        #expect(await cache.reports([try stored("1")]).first?.1.appVersion == "1")
        #expect(await cache.reports([try stored("1")]).first?.1.appVersion == "1")
        #expect(await cache.reports([try stored("2")]).first?.1.appVersion == "2")
        let broken = StoredFleetReport(deviceID: "dev_2", merchantID: "m", locationID: "s", receivedAt: Self.now,
                                       json: "{not json")
        #expect(await cache.reports([broken]).isEmpty)
    }

    @Test("the page escapes what devices send")
    func escapes() {
        #expect(FleetPage.e("<script>\"x\" & 'y'</script>")
            == "&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/script&gt;")
    }
}
