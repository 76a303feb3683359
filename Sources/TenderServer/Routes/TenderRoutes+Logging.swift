import Foundation
import TenderWire

extension TenderRoutes {
    /// Logs one answered request: `info` for a 2xx, `warning` for a refusal (4xx), `error` when the vendor or the
    /// server failed (5xx). The record names the route (method and path, no query), the caller's merchant and
    /// location, the status, and for a failure the ``TenderWire/PaymentError`` code and the vendor's error name. Neither
    /// headers nor bodies are logged: they carry the device's credentials and the sign-in routes' tokens.
    func log(_ request: HTTPRequest, caller: LedgerScope, status: Int, failure: (any Error)?) {
        guard let logHandler else { return }
        let path = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedPath
            ?? request.url.path
        let route = "\(request.method.uppercased()) \(path)"
        var metadata = ["route": route, "status": String(status), "merchant": caller.merchantID,
                        "location": caller.locationID]
        let error = (failure as? RouteFailure)?.error ?? failure as? PaymentError
        if let error {
            metadata["code"] = error.code.rawValue
            if let vendor = error.vendor { metadata["vendorError"] = vendor.name }
        }
        let level: TenderLogRecord.Level = switch status {
        case 200..<300: .info
        case 400..<500: .warning
        default: .error
        }
        let outcome = error.map { ": \($0.code.rawValue)" } ?? ""
        logHandler.log(TenderLogRecord(level, "\(route) for \(caller.locationID) → \(status)\(outcome)", metadata))
    }
}
