import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import MerchantServer
import NIOCore
import TenderWire

/// `merchant-bench --fleet-load --postgres URL [--devices N] [--seconds S] [--every E] [--connections C]`: N devices
/// each reporting every E seconds for S seconds, with signed Stripe webhooks in parallel, against one server on
/// PostgreSQL; every report and event must be stored once. Then the same reports written directly with PostgresNIO
/// (the store, no HTTP, no server) on the same schedule: the baseline. Prints reports per second and the p99 latency
/// of both, and their ratio.
enum FleetLoad {
    static func run(_ options: BenchOptions, devices count: Int, seconds: Int, every: Int) async throws {
        guard let url = options.postgres else { throw BenchError("--fleet-load needs --postgres URL") }
        let store = try PostgresMerchantStore(url: url, logger: Bench.logger)
        try await store.migrate()
        let secret = "whsec_" + Secrets.token()
        let run = String(UUID().uuidString.prefix(8)).lowercased()
        var tokens: [(id: String, token: String)] = []
        for index in 0..<count {
            let code = Secrets.enrolmentCode(), token = Secrets.token(), id = "load-\(run)-\(index)"
            let hash = Secrets.hash(Secrets.normalizedCode(code))
            try await store.createEnrolmentCode(EnrolmentCode(codeHash: hash, merchantID: "acct_test_merchant",
                                                              locationID: "shop-\(index % 50)", role: "cashier",
                                                              createdAt: Date(), expiresAt: Date() + 600))
            _ = try await store.enrol(codeHash: hash, deviceID: id, tokenHash: Secrets.hash(token), name: "till",
                                      now: Date())
            tokens.append((id, token))
        }
        let devices = tokens
        let admin = Secrets.token()
        var configuration = MerchantConfiguration(testMode: true, adminTokenHash: Secrets.hash(admin),
                                                  merchantID: "acct_test_merchant", rateLimit: 1_000_000)
        configuration.webhooks = WebhookSettings(stripeSecrets: [WebhookSecret(secret)])
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(router: MerchantApp(configuration: configuration, store: store).router(),
                              configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) },
                              logger: Bench.logger)
        let server = Task { try await app.runService() }
        defer { server.cancel() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw BenchError("the server did not start") }
        let rounds = max(1, seconds / every)
        print("fleet load: \(count) devices, a report every \(every) s for \(rounds * every) s, "
            + "\(options.connections) connections, signed Stripe webhooks in parallel, one server on PostgreSQL")

        // Through the server: each connection serves its share of the devices, round after round.
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let started = ContinuousClock.now
        let events = Counter()
        let hooks = Task {
            let client = TestClient(host: "127.0.0.1", port: port)
            client.connect()
            while ContinuousClock.now - started < .seconds(rounds * every) {
                let number = events.next()
                let body = Data("""
                    {"id":"evt_\(run)_\(number)","object":"event","type":"payment_intent.succeeded","created":\
                    \(Int(Date().timeIntervalSince1970)),"data":{"object":{"id":"pi_\(run)_\(number)",\
                    "object":"payment_intent","amount":1000,"currency":"usd","status":"succeeded",\
                    "metadata":{"tender_reference":"r-\(number)","tender_location":"shop-1"}}}}
                    """.utf8)
                let stamp = Int(Date().timeIntervalSince1970)
                let mac = HMAC<SHA256>.authenticationCode(for: Data("\(stamp).".utf8) + body,
                                                          using: SymmetricKey(data: Data(secret.utf8)))
                let signature = mac.map { String(format: "%02x", $0) }.joined()
                var headers: HTTPFields = [.contentType: "application/json"]
                headers[HTTPFields.Element.Name("Stripe-Signature")!] = "t=\(stamp),v1=\(signature)"
                let answer = try await client.execute(.init("/webhooks/stripe", method: .post, headers: headers,
                                                            body: ByteBuffer(bytes: body)))
                guard answer.status == .ok else { throw BenchError("a webhook was answered \(answer.status.code)") }
                try await Task.sleep(for: .milliseconds(50))
            }
            try? await client.shutdown()
        }
        let served = try await schedule(count: count, rounds: rounds, every: every,
                                        connections: options.connections) { index, round, client in
            let report = Self.report(index: index, round: round)
            var headers: HTTPFields = [.contentType: "application/json"]
            headers[.authorization] = "Bearer \(devices[index].token)"
            let answer = try await client!.execute(.init("/v1/fleet/reports", method: .post, headers: headers,
                                                         body: ByteBuffer(bytes: try encoder.encode(report))))
            guard answer.status == .noContent else { throw BenchError("a report was answered \(answer.status.code)") }
        } client: { TestClient(host: "127.0.0.1", port: port) }
        try await hooks.value
        let sent = events.next() - 1

        // Stored once each: the latest per device, a change per report (each round changes it), each event once.
        var changes = 0
        for device in devices { changes += try await store.fleetReportChanges(deviceID: device.id).count }
        let latest = try await store.fleetReports(locationID: nil).filter { $0.deviceID.hasPrefix("load-\(run)-") }
        let stored = try await store.vendorEvents(vendor: "stripe").filter { $0.eventID.hasPrefix("evt_\(run)_") }
        print("stored: \(latest.count) latest reports (devices \(count)), \(changes) changes (reports sent "
            + "\(count * rounds)), \(stored.count) webhook events (sent \(sent))")
        guard latest.count == count, changes == count * rounds, stored.count == sent else {
            throw BenchError("a report or an event was lost or stored twice")
        }

        // The page for the fleet just loaded (this run's devices among any others in the database).
        let pageClient = TestClient(host: "127.0.0.1", port: port)
        pageClient.connect()
        var pageTimes: [Double] = []
        var pageBytes = 0
        for _ in 0..<20 {
            var headers: HTTPFields = [:]
            headers[.authorization] = "Bearer \(admin)"
            let asked = ContinuousClock.now
            let page = try await pageClient.execute(.init("/fleet", method: .get, headers: headers))
            let elapsed = ContinuousClock.now - asked
            guard page.status == .ok else { throw BenchError("/fleet answered \(page.status.code)") }
            pageBytes = page.body?.readableBytes ?? 0
            pageTimes.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        try? await pageClient.shutdown()
        pageTimes.sort()
        print("GET /fleet with \(count)+ devices: median \(String(format: "%.1f", pageTimes[10] * 1000)) ms, "
            + "max \(String(format: "%.1f", pageTimes.last! * 1000)) ms over 20 loads (\(pageBytes / 1024) KiB)")

        // The baseline: the same writes, directly with PostgresNIO, on the same schedule.
        let baseline = try await schedule(count: count, rounds: rounds, every: every,
                                          connections: options.connections) { index, round, _ in
            let json = String(decoding: try encoder.encode(Self.report(index: index, round: round)), as: UTF8.self)
            try await store.storeFleetReport(StoredFleetReport(deviceID: "base-\(run)-\(index)",
                                                               merchantID: "acct_test_merchant",
                                                               locationID: "shop-\(index % 50)", receivedAt: Date(),
                                                               json: json), changed: true)
        } client: { nil }
        for (name, result) in [("server", served), ("baseline (PostgresNIO, no HTTP)", baseline)] {
            print("\(name): \(String(format: "%.0f", result.rate)) reports/s, p99 \(String(format: "%.1f", result.p99 * 1000)) ms, "
                + "p50 \(String(format: "%.1f", result.p50 * 1000)) ms")
        }
        let ratio = served.rate / baseline.rate
        print("throughput ratio server/baseline: \(String(format: "%.2f", ratio)) — goal ≥ 0.50: "
            + (ratio >= 0.5 ? "met" : "NOT met"))
    }

    static func report(index: Int, round: Int) -> FleetReport {
        let taken = Date(timeIntervalSince1970: 1_800_000_000)
        let payments = (0...round % 5).map { number in
            FleetReport.Payment(reference: "d\(index)-\(number)", processor: "square", processorPaymentID: nil,
                                amount: Money(minorUnits: 1_000 + Int64(number), currency: .usd),
                                standing: .storedOffline, takenAt: taken, deadline: taken + 86_400)
        }
        return FleetReport(deviceID: "till-\(index)", scope: LedgerScope(merchantID: "acct_test_merchant",
                                                                         locationID: "shop-\(index % 50)"),
                           generatedAt: Date(), appVersion: "load", tenderVersion: "0.4.0",
                           totals: [FleetReport.Totals(currency: "USD",
                                                       storedOffline: .init(count: payments.count, minorUnits: 1_000),
                                                       outcomeUnknown: .init(count: round, minorUnits: 0))],
                           payments: payments)
    }

    struct Result { var rate: Double; var p50: Double; var p99: Double }

    /// Runs `send` for every device once per round (rounds `every` seconds apart), spread over `connections`
    /// workers; the rate is what was sent over the time it took, the latencies each send's.
    static func schedule(count: Int, rounds: Int, every: Int, connections: Int,
                         _ send: @escaping @Sendable (Int, Int, TestClient?) async throws -> Void,
                         client make: @escaping @Sendable () -> TestClient?) async throws -> Result {
        let started = ContinuousClock.now
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for worker in 0..<connections {
                group.addTask {
                    let client = make()
                    client?.connect()
                    var mine: [Double] = []
                    for round in 0..<rounds {
                        let roundStart = started + .seconds(round * every)
                        if ContinuousClock.now < roundStart { try await Task.sleep(until: roundStart) }
                        for index in stride(from: worker, to: count, by: connections) {
                            // Spread each device's send over the round, as real devices are.
                            let due = roundStart + .milliseconds(index * every * 1_000 / count)
                            if ContinuousClock.now < due { try await Task.sleep(until: due) }
                            let sent = ContinuousClock.now
                            try await send(index, round, client)
                            let elapsed = ContinuousClock.now - sent
                            mine.append(Double(elapsed.components.seconds)
                                + Double(elapsed.components.attoseconds) / 1e18)
                        }
                    }
                    try? await client?.shutdown()
                    return mine
                }
            }
            return try await group.reduce(into: [Double]()) { $0 += $1 }
        }
        let total = ContinuousClock.now - started
        let seconds = Double(total.components.seconds) + Double(total.components.attoseconds) / 1e18
        let sorted = latencies.sorted()
        return Result(rate: Double(sorted.count) / seconds, p50: sorted[sorted.count / 2],
                      p99: sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))])
    }
}
