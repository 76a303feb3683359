import Foundation
import Hummingbird
import NIOCore
import TenderWire

extension MerchantApp {
    /// `POST /v1/fleet/reports` (a device), `GET /v1/fleet` and `GET /fleet` (the administrator).
    func addFleetRoutes(to router: Router<MerchantRequestContext>) {
        router.post("/v1/fleet/reports") { request, context in await receiveReport(request, context: context) }
        router.get("/v1/fleet") { request, context in
            await asAdmin(request, context) {
                do {
                    return Self.json(200, try await fleetView(), testMode: configuration.testMode, noStore: true)
                } catch { return storeFailure() }
            }
        }
        router.get("/fleet") { request, context in await fleetPage(request, context: context) }
    }

    /// Keeps a device's report as its latest, and as a change when it differs from the one before (its time aside).
    func receiveReport(_ request: Request, context: MerchantRequestContext) async -> Response {
        let device: DeviceRecord
        switch await authenticate(request, context: context) {
        case .success(let found): device = found
        case .failure(let refusal): return refusal.response
        }
        guard let data = await Self.body(request) else {
            return failure(413, .invalidRequest, "The report is larger than 1 MiB.", recovery: .fixRequest)
        }
        guard let report = try? MerchantJSON.decoder.decode(FleetReport.self, from: data) else {
            return failure(400, .invalidRequest, "The body is not a fleet report (JSON, ISO 8601 times).",
                           recovery: .fixRequest)
        }
        guard report.scope.merchantID == device.merchantID, report.scope.locationID == device.locationID else {
            return failure(403, .notAuthorized, "The report is for another location than this device's.")
        }
        do {
            let before = try await store.fleetReport(deviceID: device.id)
                .flatMap { try? MerchantJSON.decoder.decode(FleetReport.self, from: Data($0.json.utf8)) }
            let json = String(decoding: try MerchantJSON.encoder.encode(report), as: UTF8.self)
            try await store.storeFleetReport(
                StoredFleetReport(deviceID: device.id, merchantID: device.merchantID, locationID: device.locationID,
                                  receivedAt: now(), json: json),
                changed: before.map { !report.sameContent(as: $0) } ?? true)
        } catch { return storeFailure() }
        return Response(status: .noContent)
    }

    /// The fleet as it stands now.
    func fleetView() async throws -> FleetView {
        async let devices = store.devices(locationID: nil)
        async let reports = store.fleetReports(locationID: nil)
        let vendor = try await vendorSummaries()
        let decoded = await fleetReports.reports(try await reports)
        return FleetView.build(devices: try await devices, reports: decoded, vendor: vendor.payments,
                               lastVendorEvent: vendor.lastEvent, now: now(),
                               silentAfter: configuration.fleetSilentAfter)
    }

    /// The page: the administrator's token as a bearer token, or as the password of HTTP Basic authentication (what
    /// a browser asks for); never a device token.
    func fleetPage(_ request: Request, context: MerchantRequestContext) async -> Response {
        guard await failures.allows(context.client) else { return rateLimited() }
        guard let token = Self.bearer(request) ?? Self.basicPassword(request), !configuration.adminTokenHash.isEmpty,
              Secrets.constantTimeEqual(Secrets.hash(token), configuration.adminTokenHash) else {
            await failures.fail(context.client)
            var refusal = failure(401, .notAuthorized, "The fleet page needs the administrator's token.")
            refusal.headers[.wwwAuthenticate] = "Basic realm=\"merchant-server fleet\", charset=\"UTF-8\""
            return refusal
        }
        do {
            let html = FleetPage.render(try await fleetView(), testMode: configuration.testMode)
            var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
            if configuration.testMode { headers[Self.modeHeader] = "test" }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
        } catch { return storeFailure() }
    }

    /// The password of an `Authorization: Basic …` header.
    static func basicPassword(_ request: Request) -> String? {
        guard let value = request.headers[.authorization], value.lowercased().hasPrefix("basic "),
              let data = Data(base64Encoded: String(value.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
              let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":") else { return nil }
        let password = String(text[text.index(after: colon)...])
        return password.isEmpty ? nil : password
    }

    /// What the vendors said (their webhooks): per payment, and the last event per vendor.
    func vendorSummaries() async throws -> (payments: [VendorPaymentSummary], lastEvent: [String: Date]) {
        (try await store.vendorPayments(location: nil).map(\.summary), try await store.lastVendorEvent())
    }
}
