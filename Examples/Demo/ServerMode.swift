import Foundation
import Tender
import TenderBackend
import TenderServer
import TenderTesting

/// `--server <url>`: the demo as a device of a running merchant server (`Examples/MerchantServer`). It enrols with
/// a one-time code (`--code`, or one it asks the administrator's route for with `MERCHANT_ADMIN_TOKEN`), then takes
/// a payment on each loopback peer the server runs against (made on the peer as the reader would, the peers having
/// no readers), captures and refunds it through the server with `TenderBackendClient` and the device's token, and
/// reconciles with the peer. With the administrator's token it then revokes itself and shows the next request
/// refused.
enum ServerMode {
    static func run(server: URL, code given: String?, seed: UInt64, out: Output, environment: [String: String])
        async -> ServerHalfResult {
        var result = ServerHalfResult()
        out.heading("A device of the merchant server at \(server.absoluteString)")
        let admin = environment["MERCHANT_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        do {
            let code: String
            if let given { code = given } else {
                guard let admin else {
                    result.mismatches.append("no enrolment code: pass --code, or set MERCHANT_ADMIN_TOKEN")
                    out.bad("no enrolment code: pass --code CODE (from the administrator), or set MERCHANT_ADMIN_TOKEN")
                    return result
                }
                code = try await newCode(server: server, admin: admin)
                out.good("the administrator made a one-time enrolment code for L_DEMO_SHOP (manager)")
            }
            let enrolment = try await TenderBackendClient(baseURL: server).enrol(code: code, deviceName: "tender-demo")
            out.good("enrolled: a device of \(enrolment.merchantID) at \(enrolment.locationID) as \(enrolment.role) "
                + "(its token is kept, never printed)")
            let device = TenderBackendClient(baseURL: server) { ["Authorization": "Bearer \(enrolment.token)"] }
            let scope = LedgerScope(merchantID: enrolment.merchantID, locationID: enrolment.locationID)
            try await reportFleet(through: device, scope: scope, server: server, out: out, into: &result)
            try await pay(through: device, scope: scope, seed: seed, out: out, environment: environment,
                          into: &result)
            if let admin {
                try await revoke(enrolment.deviceID, server: server, admin: admin, device: device, out: out,
                                 into: &result)
            } else {
                out.note("MERCHANT_ADMIN_TOKEN is not set: the device is left enrolled")
            }
        } catch {
            result.mismatches.append("the merchant server: \(ServerHalf.describe(error))")
            out.bad("the merchant server refused or failed: \(error)")
        }
        return result
    }

    private static func pay(through device: TenderBackendClient, scope: LedgerScope, seed: UInt64, out: Output,
                            environment: [String: String], into result: inout ServerHalfResult) async throws {
        var random = SeededGenerator(seed: seed &+ 7_727)
        let amount = Money(minorUnits: 20_00 + Int64(random.next() % 7_000), currency: .usd)
        let tag = String(UUID().uuidString.prefix(8)).lowercased()
        let peers = LoopbackPeers(environment: environment, into: &result)
        guard result.localstripe || result.squarePeer else {
            result.mismatches.append("no peer to take a payment on")
            return out.bad("the loopback peers are not running (Scripts/peers/peers.sh start; . .build/peers/env): "
                + "no payment to take")
        }
        if let localstripe = peers.localstripe, let client = peers.stripeClient {
            out.line("Stripe, through the merchant server, against localstripe:")
            let run = StripePeerRun(client: client, server: device, baseURL: localstripe,
                                    reference: "demo-\(tag)-stripe", out: out, via: "merchant-server", scope: scope)
            await run.perform(authorizing: amount, into: &result)
        }
        if let squarePeer = peers.squarePeer, let client = peers.squareClient {
            out.line("Square, through the merchant server, against the Square peer:")
            let run = SquarePeerRun(client: client, server: device, baseURL: squarePeer,
                                    reference: "demo-\(tag)-square", out: out, via: "merchant-server", scope: scope)
            await run.perform(amount: amount, into: &result)
        }
    }

    /// A till that took three payments offline (one the issuer declines when it is forwarded) reports what it
    /// holds, as `FleetReporter` would: the server's fleet page (`/fleet`) shows it.
    private static func reportFleet(through device: TenderBackendClient, scope: LedgerScope, server: URL,
                                    out: Output, into result: inout ServerHalfResult) async throws {
        let processor = InMemoryPaymentProcessor()
        let ledgerURL = FileManager.default.temporaryDirectory.appendingPathComponent("demo-fleet-\(UUID()).sqlite")
        defer { try? FileManager.default.removeItem(at: ledgerURL) }
        let ledger = try await SQLitePaymentLedger.open(url: ledgerURL)
        let terminal = PaymentTerminal(processor: processor, ledger: ledger, scope: scope,
                                       limits: .single(perPayment: Money(minorUnits: 10_000, currency: .usd),
                                                       storedTotal: Money(minorUnits: 100_000, currency: .usd)))
        processor.setNetwork(.offline)
        processor.present(.approve, .declineWhenForwarded, .approve)
        for (reference, minor) in [("fleet-1", 2_450), ("fleet-2", 3_900), ("fleet-3", 1_275)] {
            _ = try await terminal.takePayment(PaymentRequest(amount: Money(minorUnits: Int64(minor), currency: .usd),
                                                              reference: reference, offlinePolicy: .forceOffline))
        }
        let run = Task { await terminal.run() }
        processor.setNetwork(.online)
        processor.forwardStoredPayments()
        for _ in 0..<200 where (try? await terminal.session(reference: "fleet-2"))?.state != .declinedAfterForwarding {
            try await Task.sleep(for: .milliseconds(10))
        }
        run.cancel()
        processor.setNetwork(.offline)
        _ = try await terminal.takePayment(PaymentRequest(amount: Money(minorUnits: 4_200, currency: .usd),
                                                          reference: "fleet-4", offlinePolicy: .forceOffline))
        let report = await terminal.fleetReport(deviceID: "tender-demo", appVersion: "demo")
        await ledger.close()
        try await device.send(report)
        let totals = report.totals.first
        guard totals?.storedOffline.count == 1, totals?.declinedAfterForwarding.count == 1 else {
            result.mismatches.append("the fleet report does not hold one stored and one declined payment")
            return out.bad("the fleet report is not what the till holds")
        }
        out.good("fleet report sent: 1 payment stored offline (42.00 USD), 1 declined after forwarding (39.00 USD) — "
            + "the administrator sees it at \(server.appendingPathComponent("fleet").absoluteString)")
    }

    private static func revoke(_ deviceID: String, server: URL, admin: String, device: TenderBackendClient,
                               out: Output, into result: inout ServerHalfResult) async throws {
        let (status, _) = try await ServerHalf.raw("POST", server.appendingPathComponent("admin/devices/\(deviceID)/revoke"),
                                                   headers: ["Authorization": "Bearer \(admin)"])
        guard status == 204 else {
            result.mismatches.append("the revocation answered HTTP \(status)")
            return out.bad("the administrator could not revoke the device (HTTP \(status))")
        }
        do {
            _ = try await device.squareAuthorization()
            result.mismatches.append("a revoked device was answered")
            out.bad("the revoked device was answered")
        } catch let error as PaymentError where error.code == .notAuthorized {
            out.good("revoked by the administrator; its next request is refused: \(error.message)")
        }
    }

    private static func newCode(server: URL, admin: String) async throws -> String {
        let (status, object) = try await ServerHalf.raw(
            "POST", server.appendingPathComponent("admin/enrolment-codes"),
            headers: ["Authorization": "Bearer \(admin)", "Content-Type": "application/json"],
            body: #"{"locationID": "L_DEMO_SHOP", "role": "manager"}"#)
        guard status == 201, let code = object["code"] as? String else {
            throw PaymentError(.notAuthorized, recovery: .fixIntegration, phase: .authorization,
                               message: "The administrator's route answered HTTP \(status), not a code.")
        }
        return code
    }
}
