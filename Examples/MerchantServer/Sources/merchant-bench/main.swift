// merchant-bench: the merchant server's requests per second for the capture and refund routes against the
// test-mode Stripe in this process, as a ratio to the same Hummingbird server answering a route that does nothing
// but the same database write (one audit row), measured in one run over loopback HTTP/1.1. Goal: ≥ 0.7.
//
//   swift run -c release --package-path Examples/MerchantServer merchant-bench [--requests N] [--rounds R]
//       [--connections C] [--postgres URL]
//   … merchant-bench --fleet-load --postgres URL [--devices 1000] [--seconds 60] [--every 10] [--connections 32]
//       (the fleet's load test: FleetLoad.swift)
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MerchantServer
import NIOCore
import TenderWire

struct BenchOptions {
    var requests = 2_000
    var rounds = 5
    var connections = 8
    var postgres: String?
    var fleetLoad = false
    var devices = 1_000
    var seconds = 60
    var every = 10

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func number(_ name: String) throws -> Int {
            guard let text = rest.popFirst(), let value = Int(text), value > 0 else {
                throw BenchError("\(name) takes a positive number")
            }
            return value
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--requests": requests = try number(argument)
            case "--rounds": rounds = try number(argument)
            case "--connections": connections = try number(argument)
            case "--fleet-load": fleetLoad = true
            case "--devices": devices = try number(argument)
            case "--seconds": seconds = try number(argument)
            case "--every": every = try number(argument)
            case "--postgres":
                guard let url = rest.popFirst() else { throw BenchError("--postgres takes a URL") }
                postgres = url
            default: throw BenchError("unknown option \(argument); see the comment at the top of main.swift")
            }
        }
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One server for the whole run: the merchant app's router plus `POST /bench/write` (one audit row, nothing else).
struct Bench {
    let options: BenchOptions
    let store: any MerchantStore
    let stripe = TestModeStripe()
    let location = "tml_bench"
    var devices: [String] = []
    var written = 0

    static let logger: Logger = { var logger = Logger(label: "merchant-bench"); logger.logLevel = .error; return logger }()

    /// Enrols one manager device per connection (a device's refunds run one at a time; a manager's device is above
    /// the refund limits), directly in the store.
    mutating func enrolDevices() async throws {
        for index in 0..<options.connections {
            let code = Secrets.enrolmentCode(), token = Secrets.token()
            try await store.createEnrolmentCode(EnrolmentCode(
                codeHash: Secrets.hash(Secrets.normalizedCode(code)), merchantID: "acct_test_merchant",
                locationID: location, role: "manager", createdAt: Date(), expiresAt: Date().addingTimeInterval(60)))
            guard try await store.enrol(codeHash: Secrets.hash(Secrets.normalizedCode(code)), deviceID: "bench-\(index)",
                                        tokenHash: Secrets.hash(token), name: "bench", now: Date()) != nil else {
                throw BenchError("the store did not enrol the bench device")
            }
            devices.append(token)
        }
    }

    func router() -> Router<MerchantRequestContext> {
        let configuration = MerchantConfiguration(
            testMode: true, adminTokenHash: Secrets.hash(Secrets.token()), merchantID: "acct_test_merchant",
            stripe: stripe.client, stripeAccountID: "acct_test_merchant")
        let router = MerchantApp(configuration: configuration, store: store).router()
        let store = store
        let counter = Counter()
        router.post("/bench/write") { _, _ -> Response in
            let number = counter.next()
            try await store.recordAudit(AuditEntry(
                deviceID: "bench-baseline", merchantID: "acct_test_merchant", locationID: "tml_bench_baseline",
                operation: "capture", processor: "stripe", amountMinor: 1_000, currency: "USD",
                idempotencyKey: "baseline-\(number)", status: 204, result: "ok", at: Date()))
            return Response(status: .noContent)
        }
        return router
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int { lock.withLock { value += 1; return value } }
}

/// Sends `bodies` (path and JSON body per request, split across the connections) and returns requests per second.
func load(port: Int, devices: [String], requests: [(path: String, body: Data, device: Int)]) async throws -> Double {
    let clients = devices.indices.map { _ in TestClient(host: "127.0.0.1", port: port) }
    clients.forEach { $0.connect() }
    defer { Task { for client in clients { try? await client.shutdown() } } }
    let started = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        for (index, client) in clients.enumerated() {
            let mine = requests.filter { $0.device == index }
            group.addTask {
                for request in mine {
                    var headers: HTTPFields = [.contentType: "application/json"]
                    headers[.authorization] = "Bearer \(devices[index])"
                    let response = try await client.execute(.init(request.path, method: .post, headers: headers,
                                                                  body: ByteBuffer(bytes: request.body)))
                    guard (200..<300).contains(response.status.code) else {
                        let text = response.body.map { String(buffer: $0) } ?? ""
                        throw BenchError("\(request.path) answered \(response.status.code): \(text)")
                    }
                }
            }
        }
        try await group.waitForAll()
    }
    let elapsed = ContinuousClock.now - started
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Double(requests.count) / seconds
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func run() async throws {
    let options = try BenchOptions(Array(CommandLine.arguments.dropFirst()))
    if options.fleetLoad {
        var load = options
        if !CommandLine.arguments.contains("--connections") { load.connections = 32 }
        return try await FleetLoad.run(load, devices: options.devices, seconds: options.seconds, every: options.every)
    }
    let store: any MerchantStore
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("merchant-bench-\(UUID().uuidString)")
    if let url = options.postgres {
        store = try PostgresMerchantStore(url: url, logger: Bench.logger)
    } else {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        store = try SQLiteMerchantStore(path: directory.appendingPathComponent("bench.sqlite").path)
    }
    defer { try? FileManager.default.removeItem(at: directory) }
    try await store.migrate()
    let counting = CountingStore(store)
    var bench = Bench(options: options, store: counting)
    try await bench.enrolDevices()
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let app = Application(router: bench.router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                          onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) }, logger: Bench.logger)
    let server = Task { try await app.runService() }
    defer { server.cancel() }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else { throw BenchError("the server did not start") }

    let encoder = JSONEncoder()
    let amount = Money(minorUnits: 1_000, currency: .usd)
    let refundAmount = Money(minorUnits: 400, currency: .usd)
    let scope = LedgerScope(merchantID: "acct_test_merchant", locationID: bench.location)
    let count = options.requests, connections = options.connections
    var ratios: [String: [Double]] = ["capture": [], "refund": []]
    var rates: [String: [Double]] = ["baseline": [], "capture": [], "refund": []]
    var calls: [String: Double] = [:]
    print("merchant-bench: \(options.postgres == nil ? "SQLite" : "PostgreSQL"), \(options.rounds) rounds × \(count) "
        + "requests a route, \(connections) connections (one enrolled device each), loopback HTTP/1.1")
    // A warm-up round (not counted) opens the database pages and the code paths.
    for round in 0...options.rounds {
        let tag = "r\(round)"
        let references = (0..<count).map { "bench-\(tag)-\($0)" }
        let intents = references.map { _ in bench.stripe.addIntent(location: bench.location, amount: 1_000,
                                                                   status: "requires_capture") }
        let baseline = try (0..<count).map { number in
            (path: "/bench/write", body: try encoder.encode(["n": number]), device: number % connections)
        }
        let captures = try (0..<count).map { number in
            (path: "/v1/payments/capture", device: number % connections, body: try encoder.encode(CaptureRequest(
                processor: "stripe", reference: references[number], processorPaymentID: intents[number],
                amount: amount, idempotencyKey: IdempotencyKey.capture(
                    scope: scope, reference: references[number], paymentAttempt: 1).rawValue)))
        }.map { (path: $0.path, body: $0.body, device: $0.device) }
        let refunds = try (0..<count).map { number in
            (path: "/v1/refunds", device: number % connections, body: try encoder.encode(RefundRequest(
                processor: "stripe", reference: references[number], processorPaymentID: intents[number],
                amount: refundAmount, idempotencyKey: IdempotencyKey.refund(
                    scope: scope, reference: references[number], paymentAttempt: 1, number: 1).rawValue)))
        }.map { (path: $0.path, body: $0.body, device: $0.device) }
        // Baseline first and again last, so drift (a growing database, a busy machine) is split between them.
        _ = counting.take()
        let firstHalf = baseline.filter { $0.device % 2 == 0 }, secondHalf = baseline.filter { $0.device % 2 == 1 }
        let before = try await load(port: port, devices: bench.devices, requests: firstHalf)
        calls["baseline"] = Double(counting.take()) / Double(firstHalf.count)
        let capture = try await load(port: port, devices: bench.devices, requests: captures)
        calls["capture"] = Double(counting.take()) / Double(count)
        let refund = try await load(port: port, devices: bench.devices, requests: refunds)
        calls["refund"] = Double(counting.take()) / Double(count)
        let after = try await load(port: port, devices: bench.devices, requests: secondHalf)
        let base = (before + after) / 2
        guard round > 0 else { continue }
        rates["baseline"]!.append(base)
        rates["capture"]!.append(capture)
        rates["refund"]!.append(refund)
        ratios["capture"]!.append(capture / base)
        ratios["refund"]!.append(refund / base)
    }
    guard bench.stripe.captureCount == count * (options.rounds + 1) else {
        throw BenchError("the test-mode Stripe made \(bench.stripe.captureCount) captures, not \(count * (options.rounds + 1))")
    }
    func spread(_ values: [Double], _ format: String = "%.0f") -> String {
        "\(String(format: format, median(values))) (\(String(format: format, values.min()!))–\(String(format: format, values.max()!)))"
    }
    print("baseline (one audit row, nothing else): \(spread(rates["baseline"]!)) requests/s, median (min–max)")
    print("store calls a request (counted, the last round): baseline \(String(format: "%.2f", calls["baseline"] ?? 0)), "
        + "capture \(String(format: "%.2f", calls["capture"] ?? 0)), refund \(String(format: "%.2f", calls["refund"] ?? 0))")
    for route in ["capture", "refund"] {
        let ratio = median(ratios[route]!)
        print("\(route): \(spread(rates[route]!)) requests/s; ratio to baseline \(spread(ratios[route]!, "%.2f"))"
            + " — goal ≥ 0.70: \(ratio >= 0.7 ? "met" : "NOT met")")
    }
    let audited = try await store.audit(locationID: bench.location, from: .distantPast, to: .distantFuture)
    print("audit rows for the bench location: \(audited.count) (captures and refunds: \(2 * count * (options.rounds + 1)))")
}

do {
    try await run()
} catch {
    FileHandle.standardError.write(Data("merchant-bench: \(error)\n".utf8))
    exit(1)
}
