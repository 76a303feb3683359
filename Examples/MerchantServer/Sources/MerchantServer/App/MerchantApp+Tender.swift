import Foundation
import Hummingbird
import NIOCore
import TenderServer
import TenderWire

extension MerchantApp {
    /// Every other `/v1/…` request: authenticates the device, hands the request to Tender's routes as the device's
    /// merchant, location, id and role, and records capture, void, refund and sign-in hand-offs in the audit trail
    /// before the answer leaves.
    func tender(_ request: Request, context: MerchantRequestContext) async -> Response {
        let device: DeviceRecord
        switch await authenticate(request, context: context) {
        case .success(let found): device = found
        case .failure(let refusal): return refusal.response
        }
        guard let body = await Self.body(request) else {
            return failure(413, .invalidRequest, "The request body is larger than 1 MiB.", recovery: .fixRequest)
        }
        let tenderRequest = TenderHTTPRequest(method: request.method.rawValue,
                                              url: URL(string: request.uri.description) ?? URL(string: "/")!,
                                              body: body.isEmpty ? nil : body)
        let caller = LedgerScope(merchantID: device.merchantID, locationID: device.locationID)
        let audited = AuditedOperation(method: request.method.rawValue, path: request.uri.path, body: body)
        let answer: @Sendable () async -> Response = {
            let response = await MerchantAuthorizer.$idempotencyKey.withValue(audited?.idempotencyKey) {
                await routes.respond(to: tenderRequest, caller: caller, device: device.id, role: device.role)
            }
            if let audited {
                let entry = audited.entry(device: device, response: response, at: now())
                do { try await store.recordAudit(entry) } catch {
                    // Nothing leaves unrecorded: the device retries the same request (same idempotency key).
                    return failure(503, .outcomeUnknown, "The server could not record this \(audited.operation) "
                        + "in its audit trail; retry the same request.", recovery: .retrySamePayment)
                }
            }
            return Self.response(response, testMode: configuration.testMode)
        }
        // A device's refunds run one at a time, so the policy reads its day's total after the previous one is recorded.
        if audited?.operation == "refund" { return await refunds.run(device.id, answer) }
        return await answer()
    }

    /// TenderRoutes' answer as Hummingbird's.
    static func response(_ response: TenderHTTPResponse, testMode: Bool) -> Response {
        var headers = HTTPFields()
        for (name, value) in response.headers {
            if let field = HTTPFields.Element.Name(name) { headers[field] = value }
        }
        if testMode { headers[modeHeader] = "test" }
        return Response(status: .init(code: response.status), headers: headers,
                        body: .init(byteBuffer: ByteBuffer(bytes: response.body)))
    }
}

/// What the audit trail records of one request: capture, void, refund, and the sign-in hand-offs (connection token,
/// Square authorization). Lookups are not audited.
struct AuditedOperation: Sendable {
    var operation: String
    var processor: String?
    var amount: Money?
    var idempotencyKey: String?

    init?(method: String, path: String, body: Data) {
        guard method == "POST" else { return nil }
        let parts = path.split(separator: "/").map(String.init)
        let decoder = JSONDecoder()
        switch parts {
        case ["v1", "payments", "capture"]:
            operation = "capture"
            let request = try? decoder.decode(CaptureRequest.self, from: body)
            (processor, amount, idempotencyKey) = (request?.processor, request?.amount, request?.idempotencyKey)
        case ["v1", "payments", "void"]:
            operation = "void"
            let request = try? decoder.decode(VoidRequest.self, from: body)
            (processor, idempotencyKey) = (request?.processor, request?.idempotencyKey)
        case ["v1", "refunds"]:
            operation = "refund"
            let request = try? decoder.decode(RefundRequest.self, from: body)
            (processor, amount, idempotencyKey) = (request?.processor, request?.amount, request?.idempotencyKey)
        case ["v1", "square", "payments", "cancel-by-idempotency-key"]:
            operation = "void"
            processor = "square"
            idempotencyKey = (try? decoder.decode([String: String].self, from: body))?["idempotencyKey"]
        case let parts where parts.count == 5 && parts[1] == "stripe" && parts[2] == "payment-intents"
            && parts[4] == "abandon":
            operation = "void"
            processor = "stripe"
            idempotencyKey = "abandon/\(parts[3])"
        case ["v1", "stripe", "connection-token"]:
            operation = "signIn"
            processor = "stripe"
        case ["v1", "square", "authorization"]:
            operation = "signIn"
            processor = "square"
        default: return nil
        }
    }

    /// The entry for the answer the device gets: the vendor's result is `ok`, a refund's status, or the error code.
    func entry(device: DeviceRecord, response: TenderHTTPResponse, at time: Date) -> AuditEntry {
        var result = "ok"
        if response.status >= 300 {
            struct Failure: Decodable { var error: PaymentError }
            result = (try? JSONDecoder().decode(Failure.self, from: response.body))?.error.code.rawValue
                ?? "http_\(response.status)"
        } else if operation == "refund", let refund = try? JSONDecoder().decode(RefundResult.self, from: response.body) {
            result = refund.status.rawValue
        }
        return AuditEntry(deviceID: device.id, merchantID: device.merchantID, locationID: device.locationID,
                          operation: operation, processor: processor, amountMinor: amount?.minorUnits,
                          currency: amount?.currency.code, idempotencyKey: idempotencyKey, status: response.status,
                          result: result, at: time)
    }
}
