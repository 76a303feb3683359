public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// One HTTP request: as TenderServer's clients send it to a vendor (already authenticated, encoded and versioned), and
/// as a device's request reaches ``TenderRoutes`` (the URL may be relative: its path and query are what count).
public struct TenderHTTPRequest: Sendable {
    /// `GET`, `POST`…
    public var method: String
    /// The full URL, query included.
    public var url: URL
    /// The headers (including `Authorization`: never log a request's headers).
    public var headers: [String: String]
    /// The body, if any.
    public var body: Data?

    /// Creates a request.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

extension TenderHTTPRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `POST https://api.stripe.com/v1/refunds`: method and URL only, never the headers (they hold the credential)
    /// nor the body.
    public var description: String { "\(method) \(url.absoluteString)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
    /// Reflection (`dump`, `Mirror`) shows the method and URL only.
    public var customMirror: Mirror { Mirror(self, children: ["method": method, "url": url], displayStyle: .struct) }
}

/// One HTTP response.
public struct TenderHTTPResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The headers, with lowercased names.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a response; header names are lowercased.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// A header by case-insensitive name.
    package func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// How a request failed before any HTTP answer arrived. Whether the server acted on it is unknown unless
/// ``neverSent`` is true.
public struct HTTPTransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What happened, in broad terms.
    public enum Kind: String, Hashable, Sendable {
        /// No connection could be made (refused, DNS, offline): the request was never sent.
        case cannotConnect
        /// The request was sent, or may have been, and no answer came in time.
        case timedOut
        /// The connection broke after the request may have been sent.
        case connectionLost
        /// Anything else.
        case other
    }

    /// What happened.
    public var kind: Kind
    /// A short explanation (never a header or a body).
    public var message: String

    /// Creates an error.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// Whether the server certainly never received the request.
    package var neverSent: Bool { kind == .cannotConnect }

    /// `timedOut: …`.
    public var description: String { "\(kind.rawValue): \(message)" }
}

/// Sends HTTP requests. ``URLSessionTransport`` is the default; a server app can adapt its own HTTP client, and
/// tests inject scripted answers or faults.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the server's answer, whatever its status.
    /// - Throws: ``HTTPTransportError`` when no answer arrived.
    func send(_ request: TenderHTTPRequest) async throws(HTTPTransportError) -> TenderHTTPResponse
}

/// ``HTTPTransport`` over Foundation's `URLSession` (FoundationNetworking on Linux).
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let timeout: TimeInterval

    /// Creates a transport.
    /// - Parameters:
    ///   - session: the session to use (an ephemeral one by default: no cookies, no cache).
    ///   - timeout: the per-request timeout in seconds.
    public init(session: URLSession = URLSession(configuration: .ephemeral), timeout: TimeInterval = 30) {
        self.session = session
        self.timeout = timeout
    }

    /// Sends the request with `URLSession`.
    public func send(_ request: TenderHTTPRequest) async throws(HTTPTransportError) -> TenderHTTPResponse {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        do {
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else {
                throw HTTPTransportError(kind: .other, message: "The answer was not HTTP.")
            }
            var headers: [String: String] = [:]
            for (name, value) in http.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            return TenderHTTPResponse(status: http.statusCode, headers: headers, body: data)
        } catch let error as HTTPTransportError {
            throw error
        } catch let error as URLError {
            throw Self.transportError(error)
        } catch {
            throw HTTPTransportError(kind: .other, message: "The request failed (\(type(of: error))).")
        }
    }

    /// The transport error for a `URLError`, by its code (the message never includes the URL's query or headers).
    static func transportError(_ error: URLError) -> HTTPTransportError {
        switch error.code {
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            HTTPTransportError(kind: .cannotConnect, message: "The server could not be reached (URLError \(error.code.rawValue)).")
        case .timedOut:
            HTTPTransportError(kind: .timedOut, message: "The server did not answer in time (URLError \(error.code.rawValue)).")
        case .networkConnectionLost:
            HTTPTransportError(kind: .connectionLost, message: "The connection was lost (URLError \(error.code.rawValue)).")
        default:
            HTTPTransportError(kind: .other, message: "The request failed (URLError \(error.code.rawValue)).")
        }
    }
}
