import Foundation
import Hummingbird
import TenderWire

extension MerchantApp {
    // MARK: - Administrator

    func addAdminRoutes(to router: Router<MerchantRequestContext>) {
        router.post("/admin/enrolment-codes") { request, context in
            await asAdmin(request, context) {
                guard let data = await Self.body(request),
                      let body = try? MerchantJSON.decoder.decode(MerchantBodies.NewCode.self, from: data),
                      !body.locationID.isEmpty, !body.role.isEmpty else {
                    return failure(400, .invalidRequest, "The request needs a JSON body with locationID and role.",
                                   recovery: .fixRequest)
                }
                return await createCode(body)
            }
        }
        router.get("/admin/devices") { request, context in
            await asAdmin(request, context) {
                do {
                    let devices = try await store.devices(locationID: request.uri.queryParameters.get("location"))
                    return Self.json(200, MerchantBodies.Devices(devices: devices.map(MerchantBodies.Device.init)),
                                     testMode: configuration.testMode)
                } catch { return storeFailure() }
            }
        }
        router.post("/admin/devices/:id/revoke") { request, context in
            await asAdmin(request, context) {
                guard let id = context.parameters.get("id") else { return failure(404, .invalidRequest, "No device.") }
                do {
                    guard try await store.revokeDevice(id: id, at: now()) else {
                        return failure(404, .unknownReference, "No active device \(id).", recovery: .fixRequest)
                    }
                    return Response(status: .noContent)
                } catch { return storeFailure() }
            }
        }
        router.get("/admin/audit") { request, context in
            await asAdmin(request, context) {
                guard let location = request.uri.queryParameters.get("location"),
                      let day = request.uri.queryParameters.get("day").flatMap(Self.utcDay) else {
                    return failure(400, .invalidRequest, "The audit needs location and day (YYYY-MM-DD, UTC).",
                                   recovery: .fixRequest)
                }
                do {
                    let entries = try await store.audit(locationID: location, from: day,
                                                        to: day.addingTimeInterval(86_400))
                    return Self.json(200, MerchantBodies.Audit(entries: entries), testMode: configuration.testMode)
                } catch { return storeFailure() }
            }
        }
    }

    /// Runs `body` when the request carries the administrator's token; counts a wrong one against the client.
    func asAdmin(_ request: Request, _ context: MerchantRequestContext,
                 _ body: () async -> Response) async -> Response {
        guard await failures.allows(context.client) else { return rateLimited() }
        guard let token = Self.bearer(request), !configuration.adminTokenHash.isEmpty,
              Secrets.constantTimeEqual(Secrets.hash(token), configuration.adminTokenHash) else {
            await failures.fail(context.client)
            return failure(401, .notAuthorized, "The administrator's token is missing or wrong.")
        }
        return await body()
    }

    func createCode(_ body: MerchantBodies.NewCode) async -> Response {
        let code = Secrets.enrolmentCode()
        let time = now()
        let record = EnrolmentCode(codeHash: Secrets.hash(Secrets.normalizedCode(code)),
                                   merchantID: body.merchantID ?? configuration.merchantID,
                                   locationID: body.locationID, role: body.role, createdAt: time,
                                   expiresAt: time.addingTimeInterval(configuration.enrolmentCodeLifetime))
        do { try await store.createEnrolmentCode(record) } catch { return storeFailure() }
        return Self.json(201, MerchantBodies.Code(code: code, merchantID: record.merchantID,
                                                  locationID: record.locationID, role: record.role,
                                                  expiresAt: record.expiresAt),
                         testMode: configuration.testMode, noStore: true)
    }

    // MARK: - Devices

    /// `POST /v1/devices/enrol`: exchanges a one-time code for a device token.
    func enrol(_ request: Request, context: MerchantRequestContext) async -> Response {
        guard await failures.allows(context.client) else { return rateLimited() }
        guard let data = await Self.body(request, limit: 4_096),
              let body = try? MerchantJSON.decoder.decode(MerchantBodies.Enrol.self, from: data) else {
            return failure(400, .invalidRequest, "The request needs a JSON body with the enrolment code.",
                           recovery: .fixRequest)
        }
        let token = Secrets.token()
        let device: DeviceRecord?
        do {
            device = try await store.enrol(codeHash: Secrets.hash(Secrets.normalizedCode(body.code)),
                                           deviceID: "dev_" + String(Secrets.token().prefix(16)),
                                           tokenHash: Secrets.hash(token),
                                           name: String((body.name ?? "device").prefix(100)), now: now())
        } catch { return storeFailure() }
        guard let device else {
            await failures.fail(context.client)
            return failure(401, .notAuthorized, "The enrolment code is unknown, used or expired.",
                           recovery: .fixRequest)
        }
        return Self.json(201, MerchantBodies.Enrolled(deviceID: device.id, token: token, merchantID: device.merchantID,
                                                      locationID: device.locationID, role: device.role),
                         testMode: configuration.testMode, noStore: true)
    }

    /// The enrolled, unrevoked device the request's bearer token belongs to, read from the store on every request
    /// (so a revocation is seen at once, by every instance on the same database), or the refusal.
    func authenticate(_ request: Request, context: MerchantRequestContext) async -> Result<DeviceRecord, FailureAnswer> {
        guard await failures.allows(context.client) else { return .failure(FailureAnswer(rateLimited())) }
        guard let token = Self.bearer(request) else {
            await failures.fail(context.client)
            return .failure(FailureAnswer(failure(401, .notAuthorized, "This request needs a device token.")))
        }
        let hash = Secrets.hash(token)
        let found: DeviceRecord?
        do { found = try await store.device(tokenHash: hash) } catch {
            return .failure(FailureAnswer(storeFailure()))
        }
        guard let device = found, Secrets.constantTimeEqual(device.tokenHash, hash) else {
            await failures.fail(context.client)
            return .failure(FailureAnswer(failure(401, .notAuthorized, "The device token is not known.")))
        }
        guard device.revokedAt == nil else {
            await failures.fail(context.client)
            return .failure(FailureAnswer(failure(401, .notAuthorized, "This device was revoked.")))
        }
        return .success(device)
    }

    // MARK: - Failures

    func rateLimited() -> Response {
        var response = failure(429, .rateLimited, "Too many failed attempts from this address; wait and retry.",
                               recovery: .waitAndRetry)
        response.headers[.retryAfter] = String(Int(configuration.rateLimitWindow))
        return response
    }

    func storeFailure() -> Response {
        failure(503, .outcomeUnknown, "The server's database did not answer; retry the same request.",
                recovery: .retrySamePayment)
    }

    /// `2026-12-02` as the start of that UTC day.
    static func utcDay(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.date(from: text)
    }
}

/// A refusal carried through a `Result`.
struct FailureAnswer: Error { let response: Response; init(_ response: Response) { self.response = response } }
