public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif
public import TenderWire

/// The device's side of the hop to your server: the adapters' server seams over `URLSession`, against the routes
/// `TenderServer` serves (`TenderRoutes`, described by `Documentation/tender-server.openapi.yaml`).
///
/// One client is every seam the adapters take: ``TenderWire/PaymentCaptureService``,
/// ``TenderWire/PaymentRefundService``, ``TenderWire/StripeRESTLookup`` and ``TenderWire/SquareRESTLookup``; and
/// ``connectionToken()`` is what Stripe's token provider calls, ``squareAuthorization()`` what a Square sign-in
/// passes to `SquareProcessor.authorize(accessToken:locationID:)`:
/// ```swift
/// let backend = TenderBackendClient(baseURL: URL(string: "https://pos.example.com/tender")!) {
///     ["Authorization": "Bearer \(try await session.deviceToken())"]   // your own device authentication
/// }
/// Terminal.initWithTokenProvider(StripeBridgeTokenProvider { try await backend.connectionToken() },
///                                delegate: nil, offlineDelegate: nil, logLevel: .none)
/// let stripe = StripeProcessor.terminal(offlineModeEnabled: true, captureService: backend,
///                                       serverLookup: backend, refundService: backend)
/// ```
///
/// Requests carry the core's wire types as they encode, so idempotency keys reach the vendor unchanged. Failures
/// are ``TenderWire/PaymentError``s: the server's own (decoded from its error body), or, when the server could not
/// be reached, ``TenderWire/PaymentError/Code/networkUnavailable`` (nothing was sent) or
/// ``TenderWire/PaymentError/Code/timedOut`` (the outcome is unknown: retry the same request). Tokens are returned
/// to the caller and kept nowhere; no string the client makes contains one.
public struct TenderBackendClient: PaymentCaptureService, PaymentRefundService, StripeRESTLookup, SquareRESTLookup,
    CustomStringConvertible {
    let baseURL: URL
    let session: URLSession
    let timeout: TimeInterval
    let headers: @Sendable () async throws -> [String: String]
    let logHandler: (any TenderLogHandler)?

    /// Creates a client.
    /// - Parameters:
    ///   - baseURL: where your server mounts the routes (e.g. `https://pos.example.com/tender`).
    ///   - session: the session (an ephemeral one by default: no cookies, no cache).
    ///   - timeout: the per-request timeout in seconds.
    ///   - headers: your own authentication of the device, asked before each request (e.g. a bearer token your
    ///     server turns into the device's merchant and location).
    ///   - logHandler: receives one record per request (method, route, status; a failure's code and the vendor's
    ///     error name), redacted like every ``TenderWire/TenderLogRecord``; never a header, a body or a token.
    public init(baseURL: URL, session: URLSession = URLSession(configuration: .ephemeral), timeout: TimeInterval = 30,
                logHandler: (any TenderLogHandler)? = nil,
                headers: @escaping @Sendable () async throws -> [String: String] = { [:] }) {
        self.baseURL = baseURL
        self.session = session
        self.timeout = timeout
        self.logHandler = logHandler
        self.headers = headers
    }

    /// `TenderBackendClient(https://pos.example.com/tender)`: never a header.
    public var description: String { "TenderBackendClient(\(baseURL.absoluteString))" }

    // MARK: - Requests

    /// Sends one request and returns the status and body of a 2xx answer.
    /// - Throws: the server's ``TenderWire/PaymentError``, or one saying how the request failed; with `absentOn404`,
    ///   `nil` is returned for the server's "no such payment" (`404`, `unknown_reference`) instead.
    func send(_ method: String, _ path: [String], query: [URLQueryItem] = [], body: (any Encodable)? = nil,
              phase: PaymentError.Phase, absentOn404: Bool = false) async throws(PaymentError) -> Data? {
        let route = "\(method) /\(path.joined(separator: "/"))"
        do {
            let data = try await exchange(method, path, query: query, body: body, phase: phase,
                                          absentOn404: absentOn404)
            log(.debug, route, data == nil ? "absent" : "done", error: nil)
            return data
        } catch {
            log(error.code == .timedOut || error.code == .outcomeUnknown ? .error : .warning, route, "failed",
                error: error)
            throw error
        }
    }

    /// One record of a request (nothing when no handler was given).
    private func log(_ level: TenderLogRecord.Level, _ route: String, _ outcome: String, error: PaymentError?) {
        guard let logHandler else { return }
        var metadata = ["call": route, "server": baseURL.host ?? ""]
        if let error {
            metadata["code"] = error.code.rawValue
            if let vendor = error.vendor { metadata["vendorError"] = vendor.name }
        }
        logHandler.log(TenderLogRecord(level, "server \(route): \(outcome)\(error.map { " (\($0.code.rawValue))" } ?? "")",
                                       metadata))
    }

    /// ``send(_:_:query:body:phase:absentOn404:)`` without the log record.
    private func exchange(_ method: String, _ path: [String], query: [URLQueryItem], body: (any Encodable)?,
                          phase: PaymentError.Phase, absentOn404: Bool) async throws(PaymentError) -> Data? {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) ?? URLComponents()
        let base = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast())
            : components.percentEncodedPath
        components.percentEncodedPath = base + "/" + path.map(Self.segment).joined(separator: "/")
        if !query.isEmpty { components.queryItems = query }
        guard let url = components.url else {
            throw PaymentError(.configurationError, recovery: .fixIntegration, phase: phase,
                               message: "The server's base URL \(baseURL.absoluteString) cannot take a path.")
        }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            encoder.dateEncodingStrategy = .iso8601   // a fleet report's times, as its server reads them
            request.httpBody = try? encoder.encode(body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let extra: [String: String]
        do { extra = try await headers() } catch {
            throw PaymentError(.notAuthorized, recovery: .fixIntegration, phase: phase,
                               message: "The app could not authenticate this device with its server.")
        }
        for (name, value) in extra { request.setValue(value, forHTTPHeaderField: name) }
        let data: Data
        let response: URLResponse
        do { (data, response) = try await session.data(for: request) } catch {
            throw Self.transportError(error, method: method, path: path, phase: phase)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        if (200..<300).contains(status) { return data }
        let error = Self.serverError(status: status, body: data, phase: phase)
        if absentOn404, status == 404, error.code == .unknownReference { return nil }
        throw error
    }

    /// ``send(_:_:query:body:phase:absentOn404:)`` decoding a 2xx body as `T`.
    func call<T: Decodable>(_ method: String, _ path: [String], query: [URLQueryItem] = [], body: (any Encodable)? = nil,
                            as type: T.Type, phase: PaymentError.Phase, absentOn404: Bool = false)
        async throws(PaymentError) -> T? {
        guard let data = try await send(method, path, query: query, body: body, phase: phase,
                                        absentOn404: absentOn404) else { return nil }
        do { return try JSONDecoder().decode(T.self, from: data) } catch {
            throw PaymentError(.unexpected, recovery: .retrySamePayment, phase: phase,
                               message: "The server's answer to \(method) /\(path.joined(separator: "/")) is not a \(String(describing: T.self).split(separator: ".").last ?? "value").")
        }
    }

    /// A path segment from an id, escaped (an id never changes the path's shape).
    static func segment(_ part: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;?#%")
        return part.addingPercentEncoding(withAllowedCharacters: allowed) ?? part
    }

    /// The server's error body, or what its status says when it has none.
    static func serverError(status: Int, body: Data, phase: PaymentError.Phase) -> PaymentError {
        if let envelope = try? JSONDecoder().decode(BackendBodies.ErrorBody.self, from: body) { return envelope.error }
        let (code, recovery): (PaymentError.Code, PaymentError.Recovery) = switch status {
        case 401, 403: (.notAuthorized, .fixIntegration)
        case 429: (.rateLimited, .waitAndRetry)
        case 500...: (.outcomeUnknown, .retrySamePayment)
        default: (.integrationError, .fixIntegration)
        }
        return PaymentError(code, recovery: recovery, phase: phase,
                            message: "The app's server answered HTTP \(status) without Tender's error body.",
                            vendor: .init(processor: "server", name: "http_\(status)"))
    }

    /// The error for a request that got no answer: nothing sent (cannot connect), or an outcome not known.
    static func transportError(_ error: any Error, method: String, path: [String], phase: PaymentError.Phase)
        -> PaymentError {
        let what = "\(method) /\(path.joined(separator: "/"))"
        if let error = error as? URLError {
            switch error.code {
            case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
                return PaymentError(.networkUnavailable, recovery: .waitAndRetry, phase: phase,
                                    message: "\(what) could not reach the app's server; nothing was sent.",
                                    vendor: .init(processor: "server", name: "urlerror_\(error.code.rawValue)"))
            default:
                return PaymentError(.timedOut, recovery: .retrySamePayment, phase: phase,
                                    message: "\(what) got no answer from the app's server: whether it took effect is not known. Retrying sends the same request.",
                                    vendor: .init(processor: "server", name: "urlerror_\(error.code.rawValue)"))
            }
        }
        return PaymentError(.timedOut, recovery: .retrySamePayment, phase: phase,
                            message: "\(what) failed (\(type(of: error))): whether it took effect is not known.")
    }
}

/// The routes' own bodies, as `TenderServer` writes them (the OpenAPI document describes both sides).
enum BackendBodies {
    struct ErrorBody: Codable { var error: PaymentError }
    struct ConnectionToken: Codable { var secret: String }
    struct SquareAuthorization: Codable { var accessToken: String; var locationID: String }
    struct RefundLookup: Codable {
        var processor: String
        var processorPaymentID: String
        var idempotencyKey: String
        var processorRefundID: String?
    }
    struct RefundLookupAnswer: Codable { var refund: RefundResult? }
    struct StripeLookup: Codable {
        var result: String
        var complete: Bool
        var paymentIntents: [StripeAPI.PaymentIntent]
    }
    struct SquarePayments: Codable { var payments: [SquareAPI.Payment] }
    struct SquarePayment: Codable { var payment: SquareAPI.Payment }
    struct CancelByKey: Codable { var idempotencyKey: String }
}
