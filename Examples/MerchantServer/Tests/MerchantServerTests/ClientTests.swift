import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import Testing
import TenderBackend
import TenderServer
import TenderWire
@testable import MerchantServer

@Suite("The device's client against the running server (HTTP on 127.0.0.1)")
struct ClientTests {
    /// Runs the server on a free port for `body`.
    static func withLiveServer(_ harness: Harness, _ body: (URL) async throws -> Void) async throws {
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let configuration = harness.server.configuration
        var live = configuration
        live.port = 0
        let server = MerchantApp(configuration: live, store: harness.server.store, now: { harness.clock.now })
        let app = server.application(logger: StoreKind.logger) { continuation.yield($0) }
        let task = Task { try await app.run() }
        defer { task.cancel() }
        var iterator = ports.makeAsyncIterator()
        let port = try #require(await iterator.next())
        try await body(URL(string: "http://127.0.0.1:\(port)")!)
    }

    @Test("TenderBackendClient enrols with a code, captures with its token; a revoked device is refused")
    func enrolAndCapture() async throws {
        let harness = Harness(store: try await StoreKind.sqlite.makeStore())
        let sale = harness.stripe.addIntent(location: "tml_A", amount: 1_250, status: "requires_capture")
        let code = try await harness.code(location: "tml_A", role: "cashier")
        try await Self.withLiveServer(harness) { url in
            let enrolment = try await TenderBackendClient(baseURL: url).enrol(code: code, deviceName: "front till")
            #expect(enrolment.locationID == "tml_A" && enrolment.role == "cashier")
            #expect(!String(describing: enrolment).contains(enrolment.token))
            let backend = TenderBackendClient(baseURL: url) { ["Authorization": "Bearer \(enrolment.token)"] }
            try await backend.capture(CaptureRequest(processor: "stripe", reference: "order-1",
                                                     processorPaymentID: sale,
                                                     amount: Money(minorUnits: 1_250, currency: .usd),
                                                     idempotencyKey: Harness.key("cap-live", reference: "order-1")))
            #expect(harness.stripe.captureCount == 1)
            // The code was used.
            await #expect(throws: PaymentError.self) { _ = try await TenderBackendClient(baseURL: url).enrol(code: code) }
            #expect(try await harness.call(.post, "/admin/devices/\(enrolment.deviceID)/revoke",
                                           token: Harness.adminToken).status == 204)
            do {
                try await backend.capture(CaptureRequest(processor: "stripe", reference: "order-1",
                                                         processorPaymentID: sale,
                                                         amount: Money(minorUnits: 1_250, currency: .usd),
                                                         idempotencyKey: Harness.key("cap-live", reference: "order-1")))
                Issue.record("a revoked device was answered")
            } catch let error as PaymentError {
                #expect(error.code == .notAuthorized && error.message == "This device was revoked.")
            }
            let entries = try await harness.server.store.audit(locationID: "tml_A", from: .distantPast,
                                                               to: .distantFuture)
            #expect(entries.count == 1 && entries[0].deviceID == enrolment.deviceID && entries[0].attempts == 1)
        }
    }
}
