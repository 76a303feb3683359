public import Foundation
import TenderWire

/// Square's Payments and Refunds APIs for the server half of a Mobile Payments integration: complete (capture) and
/// cancel (void) delayed-capture payments, cancel by idempotency key when a `CreatePayment` outcome is unknown,
/// list payments to find Tender's reference, refund. It conforms to ``TenderWire/PaymentCaptureService``,
/// ``TenderWire/PaymentRefundService`` and `SquareRESTLookup` (TenderWire; the Square adapter's `SquareRESTServerLookup` turns it into its server lookup).
///
/// Every request sends `Square-Version: ` ``apiVersion`` and the access token as a bearer token; the token never
/// appears in any string the client produces. Errors (`{"errors": [...]}`) become ``TenderWire/PaymentError``s keeping
/// `category`, `code`, `detail` and `field` (``SquareRESTErrorTable``).
public struct SquareServerClient: Sendable, CustomStringConvertible {
    /// The API version: that of Square's published OpenAPI document.
    @usableFromInline package static let apiVersion = "2025-08-20"
    /// `https://connect.squareup.com` (the sandbox is `https://connect.squareupsandbox.com`).
    @usableFromInline package static let defaultBaseURL = URL(string: "https://connect.squareup.com")!
    /// `"square"`: the processor name the adapter reports.
    package static let processor = "square"
    /// Square's longest idempotency key (`RefundPayment`, `CancelPaymentByIdempotencyKey`).
    package static let maximumIdempotencyKeyLength = 45

    /// Settings that rarely change.
    public struct Configuration: Sendable {
        /// The API's base URL (tests point it at a loopback peer).
        public var baseURL: URL
        /// The `Square-Version` header.
        public var apiVersion: String
        /// The largest number of `ListPayments` pages one lookup reads before answering "cannot tell".
        public var maximumPages: Int
        /// How far back a lookup by reference looks (`begin_time`); Square's own default is one year.
        public var lookbackInterval: TimeInterval

        /// Creates a configuration.
        public init(baseURL: URL = SquareServerClient.defaultBaseURL, apiVersion: String = SquareServerClient.apiVersion,
                    maximumPages: Int = 50, lookbackInterval: TimeInterval = 366 * 24 * 3600) {
            self.baseURL = baseURL
            self.apiVersion = apiVersion
            self.maximumPages = maximumPages
            self.lookbackInterval = lookbackInterval
        }
    }

    let accessToken: Credential
    /// The settings.
    public let configuration: Configuration
    let transport: any HTTPTransport
    let now: @Sendable () -> Date

    /// Creates a client.
    /// - Parameters:
    ///   - accessToken: the seller's access token, from the app's secret store.
    ///   - configuration: base URL, version, paging limits.
    ///   - transport: how requests are sent (`URLSession` by default).
    ///   - now: the clock for lookup windows.
    public init(accessToken: Credential, configuration: Configuration = Configuration(),
                transport: any HTTPTransport = URLSessionTransport(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.accessToken = accessToken
        self.configuration = configuration
        self.transport = transport
        self.now = now
    }

    /// `SquareServerClient(https://connect.squareup.com, 2025-08-20)`: never the token.
    public var description: String {
        "SquareServerClient(\(configuration.baseURL.absoluteString), \(configuration.apiVersion))"
    }

    /// Sends one request (a JSON body for POST) and decodes a success body as `T`, or returns how it failed.
    func perform<T: Decodable>(_ method: String, _ path: String, query: [(String, String)] = [],
                               json: (any Encodable & Sendable)? = nil, as type: T.Type) async
        -> Result<T, ServerFailure> {
        var components = URLComponents(url: configuration.baseURL.appendingPathComponent(path),
                                       resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.percentEncodedQuery = FormEncoding.query(query) }
        var headers = [
            "Authorization": "Bearer \(accessToken.secret)",
            "Square-Version": configuration.apiVersion,
            "Accept": "application/json",
        ]
        var body: Data?
        if let json {
            headers["Content-Type"] = "application/json"
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            body = try? encoder.encode(json)
        }
        let request = HTTPRequest(method: method, url: components.url!, headers: headers, body: body)
        let response: HTTPResponse
        do { response = try await transport.send(request) } catch { return .failure(.transport(error)) }
        let decoder = JSONDecoder()
        let errors = (try? decoder.decode(SquareAPI.ErrorsResponse.self, from: response.body))?.errors ?? []
        guard (200..<300).contains(response.status), errors.isEmpty else {
            guard let first = errors.first else {
                return .failure(.undecodable(status: response.status, requestID: nil,
                                             what: "an error without Square's errors array"))
            }
            var detail: String? = accessToken.scrubbed(first.detail)
            if errors.count > 1 { detail = (detail ?? "") + " (and \(errors.count - 1) more errors)" }
            return .failure(.api(status: response.status, vendor: .init(
                code: accessToken.scrub(first.code), category: accessToken.scrub(first.category), declineCode: nil,
                message: detail, field: accessToken.scrubbed(first.field), requestID: nil)))
        }
        do {
            return .success(try decoder.decode(T.self, from: response.body))
        } catch {
            return .failure(.undecodable(status: response.status, requestID: nil,
                                         what: "not a \(String(describing: T.self).split(separator: ".").last ?? "value")"))
        }
    }

    /// ``perform(_:_:query:json:as:)`` throwing the mapped ``TenderWire/PaymentError``.
    func request<T: Decodable>(_ method: String, _ path: String, query: [(String, String)] = [],
                               json: (any Encodable & Sendable)? = nil, as type: T.Type, operation: String,
                               phase: PaymentError.Phase) async throws(PaymentError) -> T {
        switch await perform(method, path, query: query, json: json, as: type) {
        case .success(let value): return value
        case .failure(let failure): throw SquareRESTErrorTable.paymentError(failure, operation: operation, phase: phase)
        }
    }

    /// The error for an answer that lacks the object it should carry.
    func missing(_ what: String, operation: String, phase: PaymentError.Phase) -> PaymentError {
        SquareRESTErrorTable.paymentError(.undecodable(status: 200, requestID: nil, what: "no \(what) in the answer"),
                                      operation: operation, phase: phase)
    }

    /// RFC 3339 with milliseconds, as Square writes times.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// A Square time, with or without fractional seconds.
    static func date(_ text: String?) -> Date? { SquareAPI.date(text) }

    /// Refuses a payment of another processor (a wiring mistake), before any request.
    static func checkProcessor(_ name: String, phase: PaymentError.Phase) throws(PaymentError) {
        guard name == processor else {
            throw PaymentError(.integrationError, recovery: .fixIntegration, phase: phase,
                               message: "The Square server client was asked to act on a \(name) payment.")
        }
    }
}
