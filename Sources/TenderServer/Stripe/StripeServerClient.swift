public import Foundation
package import TenderWire

/// Stripe's REST API for the server half of a Terminal integration: connection tokens, PaymentIntents (create,
/// retrieve, capture, cancel, find by Tender's reference), refunds. It conforms to `PaymentCaptureService`,
/// `PaymentRefundService` and `StripeRESTLookup` (TenderWire); the Stripe adapter's `StripeRESTServerLookup` turns
/// the last into its server lookup, so the adapter and a server-side Swift app use the same code.
///
/// - Every request sends `Stripe-Version: ` ``apiVersion`` (the version of the OpenAPI document the models
///   mirror) and the secret key as a bearer token; the key never appears in any string the client produces.
/// - Every capture, cancel and refund carries the `Idempotency-Key` the device computed
///   (``TenderWire/IdempotencyKey``: merchant, location, reference, attempt and operation), fitted to Stripe's 255
///   characters (``maximumIdempotencyKeyLength``), so a retried capture or refund is the same request at Stripe and
///   two locations of one account never share a key. A key Stripe holds for another request (`idempotency_error`)
///   is ``TenderWire/PaymentError/Code/duplicateReference``, never a success.
/// - Errors are ``TenderWire/PaymentError``s keeping Stripe's `type`, `code`, `decline_code`, `param` and request id in
///   ``TenderWire/PaymentError/vendor`` (``StripeRESTErrorTable``).
public struct StripeServerClient: Sendable, CustomStringConvertible {
    /// The API version the models follow: the version of Stripe's OpenAPI document of 2023-09-12.
    @usableFromInline package static let apiVersion = "2023-08-16"
    /// `https://api.stripe.com`.
    @usableFromInline package static let defaultBaseURL = URL(string: "https://api.stripe.com")!
    /// `"stripe"`: the processor name the adapter reports and the services are called with.
    package static let processor = "stripe"
    /// `"tender_reference"`: the metadata key under which the Stripe adapter stores Tender's reference on every
    /// intent (`StripeMapping.referenceMetadataKey`; a test checks they agree).
    @usableFromInline package static let referenceMetadataKey = "tender_reference"
    /// `"tender_location"`: the metadata key holding the Stripe location id an intent belongs to (Stripe's intents
    /// record none); the routes refuse a caller of another location (``TenderRoutes``).
    package static let locationMetadataKey = "tender_location"

    /// How the client finds PaymentIntents by metadata.
    public enum SearchMode: String, Sendable, Hashable {
        /// Search (`/v1/payment_intents/search`); where Search is unavailable (HTTP 404, or an error whose code
        /// says so), list every intent and match the metadata here.
        case searchThenList
        /// Search only.
        case searchOnly
        /// List only: consistent, but reads every intent (bounded by ``Configuration/listCreatedSince``).
        case listOnly
    }

    /// Settings that rarely change.
    public struct Configuration: Sendable {
        /// The API's base URL (tests point it at a loopback peer).
        public var baseURL: URL
        /// The `Stripe-Version` header.
        public var apiVersion: String
        /// The metadata key holding Tender's reference: the adapter's (`StripeMapping.referenceMetadataKey`, the same
        /// as ``StripeServerClient/referenceMetadataKey``).
        public var referenceMetadataKey: String
        /// How intents are found by reference.
        public var searchMode: SearchMode
        /// With listing: only intents created at or after this date are read (`created[gte]`); nil reads all.
        public var listCreatedSince: Date?
        /// The largest number of pages a search or list reads (100 objects each) before answering unknown.
        public var maximumPages: Int

        /// Creates a configuration.
        public init(baseURL: URL = StripeServerClient.defaultBaseURL, apiVersion: String = StripeServerClient.apiVersion,
                    referenceMetadataKey: String = StripeServerClient.referenceMetadataKey,
                    searchMode: SearchMode = .searchThenList, listCreatedSince: Date? = nil, maximumPages: Int = 20) {
            self.baseURL = baseURL
            self.apiVersion = apiVersion
            self.referenceMetadataKey = referenceMetadataKey
            self.searchMode = searchMode
            self.listCreatedSince = listCreatedSince
            self.maximumPages = maximumPages
        }
    }

    /// Stripe's longest `Idempotency-Key` (and the longest key kept in a refund's metadata).
    package static let maximumIdempotencyKeyLength = 255

    /// The metadata key under which a refund records its idempotency key, so that a refund is found again by it
    /// (``lookUpRefund(processor:processorPaymentID:idempotencyKey:processorRefundID:)``).
    package static let refundKeyMetadataKey = "tender_idempotency_key"

    let secretKey: Credential
    /// The settings.
    public let configuration: Configuration
    let transport: any HTTPTransport

    /// Creates a client.
    /// - Parameters:
    ///   - secretKey: the account's secret (or restricted) key, from the app's secret store.
    ///   - configuration: base URL, version, search mode.
    ///   - transport: how requests are sent (`URLSession` by default).
    public init(secretKey: Credential, configuration: Configuration = Configuration(),
                transport: any HTTPTransport = URLSessionTransport()) {
        self.secretKey = secretKey
        self.configuration = configuration
        self.transport = transport
    }

    /// `StripeServerClient(https://api.stripe.com, 2023-08-16)`: never the key.
    public var description: String {
        "StripeServerClient(\(configuration.baseURL.absoluteString), \(configuration.apiVersion))"
    }

    // MARK: - Requests

    /// Sends one request and decodes a success body as `T`, or returns how it failed.
    func perform<T: Decodable>(_ method: String, _ path: String, query: [(String, String)] = [],
                               form: [String: FormValue]? = nil, idempotencyKey: String? = nil,
                               as type: T.Type) async -> Result<T, ServerFailure> {
        var components = URLComponents(url: configuration.baseURL.appendingPathComponent(path),
                                       resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.percentEncodedQuery = FormEncoding.query(query) }
        var headers = [
            "Authorization": "Bearer \(secretKey.secret)",
            "Stripe-Version": configuration.apiVersion,
            "Accept": "application/json",
        ]
        var body: Data?
        if let form {
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            body = Data(FormEncoding.encode(form).utf8)
        }
        if method == "POST" {
            headers["Idempotency-Key"] = idempotencyKey.map {
                IdempotencyKey.fitted($0, maximumLength: Self.maximumIdempotencyKeyLength)
            } ?? UUID().uuidString
        }
        let request = HTTPRequest(method: method, url: components.url!, headers: headers, body: body)
        let response: HTTPResponse
        do { response = try await transport.send(request) } catch { return .failure(.transport(error)) }
        let requestID = response.header("Request-Id")
        guard (200..<300).contains(response.status) else {
            guard let envelope = try? JSONDecoder().decode(StripeAPI.ErrorEnvelope.self, from: response.body) else {
                return .failure(.undecodable(status: response.status, requestID: requestID,
                                             what: "an error without Stripe's error object"))
            }
            let error = envelope.error
            return .failure(.api(status: response.status, vendor: .init(
                code: secretKey.scrubbed(error.code), category: secretKey.scrubbed(error.type),
                declineCode: secretKey.scrubbed(error.declineCode), message: secretKey.scrubbed(error.message),
                field: secretKey.scrubbed(error.param), requestID: requestID)))
        }
        do {
            return .success(try JSONDecoder().decode(T.self, from: response.body))
        } catch {
            return .failure(.undecodable(status: response.status, requestID: requestID,
                                         what: "not a \(String(describing: T.self).split(separator: ".").last ?? "value")"))
        }
    }

    /// ``perform(_:_:query:form:idempotencyKey:as:)`` throwing the mapped ``TenderWire/PaymentError``.
    func request<T: Decodable>(_ method: String, _ path: String, query: [(String, String)] = [],
                               form: [String: FormValue]? = nil, idempotencyKey: String? = nil, as type: T.Type,
                               operation: String, phase: PaymentError.Phase) async throws(PaymentError) -> T {
        switch await perform(method, path, query: query, form: form, idempotencyKey: idempotencyKey, as: type) {
        case .success(let value): return value
        case .failure(let failure): throw StripeRESTErrorTable.paymentError(failure, operation: operation, phase: phase)
        }
    }

    /// A path segment from an id, escaped (an id never changes the path's shape).
    static func segment(_ id: String) -> String {
        FormEncoding.escape(id)
    }

    // MARK: - Connection tokens

    /// `POST /v1/terminal/connection_tokens`: a token for the Terminal SDK's token provider, scoped to `location`
    /// when given (required for Internet readers to be scoped; optional for Bluetooth readers).
    package func createConnectionToken(location: String? = nil) async throws(PaymentError) -> StripeAPI.ConnectionToken {
        var form: [String: FormValue] = [:]
        if let location { form["location"] = .string(location) }
        return try await request("POST", "v1/terminal/connection_tokens", form: form, as: StripeAPI.ConnectionToken.self,
                                 operation: "Creating a connection token", phase: .authorization)
    }
}
