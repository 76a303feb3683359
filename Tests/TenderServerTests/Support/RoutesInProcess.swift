import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import Tender
import TenderBackend
@testable import TenderServer

/// A server in this process: `TenderRoutes` behind a `URLProtocol`, so `TenderBackendClient`'s `URLSession` talks to
/// the routes without a socket. It stands for the app's server: it authenticates the device by its bearer token
/// (`devices`: token → the scope the device belongs to), hands the request to the routes, and records every
/// exchange for the OpenAPI check.
final class InProcessServer: @unchecked Sendable {
    let host = "tender-\(UUID().uuidString.prefix(8).lowercased()).test"
    let routes: TenderRoutes
    let devices: [String: LedgerScope]
    private let lock = NSLock()
    private var recorded: [Exchange] = []

    /// Answers dropped on the way back to the device (nil: none).
    let lostAnswers: LostAnswers?

    init(routes: TenderRoutes, devices: [String: LedgerScope], lostAnswers: LostAnswers? = nil) {
        self.routes = routes
        self.devices = devices
        self.lostAnswers = lostAnswers
        InProcessRegistry.shared.add(self)
    }

    deinit { InProcessRegistry.shared.remove(host) }

    /// The device's client: its session hands every request to this server; it authenticates with `token`.
    func client(token: String, mountPath: String = "", logHandler: (any TenderLogHandler)? = nil) -> TenderBackendClient {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [RoutesURLProtocol.self]
        return TenderBackendClient(baseURL: URL(string: "http://\(host)\(mountPath)")!,
                                   session: URLSession(configuration: configuration), logHandler: logHandler) {
            ["Authorization": "Bearer \(token)"]
        }
    }

    /// What the app's server does: authenticate, then hand the request to the routes.
    func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let token = request.headers.first { $0.key.lowercased() == "authorization" }?.value
            .replacingOccurrences(of: "Bearer ", with: "")
        let response: HTTPResponse
        if let token, let caller = devices[token] {
            response = await routes.respond(to: request, caller: caller)
        } else {
            response = HTTPResponse(status: 401, body: Data(#"{"error":"the app's own authentication"}"#.utf8))
        }
        lock.withLock { recorded.append(Exchange(request: request, response: response)) }
        return response
    }

    var exchanges: [Exchange] { lock.withLock { recorded } }

    /// Every recorded exchange, checked against the OpenAPI document with openapi-core.
    func expectValidExchanges(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try OpenAPICheck.expectValid(exchanges.filter { $0.response.status != 401 }, sourceLocation: sourceLocation)
    }
}

/// One request and its answer, as the OpenAPI check reads them.
struct Exchange {
    var request: HTTPRequest
    var response: HTTPResponse

    var json: [String: Any] {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        var path = components?.percentEncodedPath ?? request.url.path
        if let query = components?.percentEncodedQuery { path += "?" + query }
        return [
            "method": request.method, "path": path, "requestHeaders": request.headers,
            "requestBody": request.body.flatMap { String(data: $0, encoding: .utf8) } as Any,
            "status": response.status, "responseHeaders": response.headers,
            "responseBody": String(data: response.body, encoding: .utf8) ?? "",
        ]
    }
}

/// The in-process servers by host (tests run in parallel, each with its own host).
final class InProcessRegistry: @unchecked Sendable {
    static let shared = InProcessRegistry()
    private let lock = NSLock()
    private var servers: [String: InProcessServer] = [:]

    func add(_ server: InProcessServer) { lock.withLock { servers[server.host] = server } }
    func remove(_ host: String) { lock.withLock { _ = servers.removeValue(forKey: host) } }
    func server(_ host: String?) -> InProcessServer? { lock.withLock { host.flatMap { servers[$0] } } }
}

/// Hands a `URLSession` request to the in-process server for its host.
final class RoutesURLProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool {
        InProcessRegistry.shared.server(request.url?.host) != nil
    }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let request = self.request
        guard let url = request.url, let server = InProcessRegistry.shared.server(url.host) else {
            client?.urlProtocol(self, didFailWithError: URLError(.cannotConnectToHost))
            return
        }
        var headers: [String: String] = [:]
        for (name, value) in request.allHTTPHeaderFields ?? [:] { headers[name] = value }
        let routed = HTTPRequest(method: request.httpMethod ?? "GET", url: url, headers: headers,
                                 body: request.httpBody ?? Self.read(request.httpBodyStream))
        let loading = Loading(protocol: self)
        Task {
            let response = await server.handle(routed)
            if server.lostAnswers?.takes(url.path) == true {
                loading.fail(URLError(.networkConnectionLost))
                return
            }
            let answer = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1",
                                         headerFields: response.headers)!
            loading.finish(answer, body: response.body)
        }
    }

    override func stopLoading() {}

    /// The protocol object, handed to the task that answers (URLSession calls back on its own queue).
    private struct Loading: @unchecked Sendable {
        let `protocol`: RoutesURLProtocol

        func finish(_ answer: HTTPURLResponse, body: Data) {
            let client = `protocol`.client
            client?.urlProtocol(`protocol`, didReceive: answer, cacheStoragePolicy: .notAllowed)
            if !body.isEmpty { client?.urlProtocol(`protocol`, didLoad: body) }
            client?.urlProtocolDidFinishLoading(`protocol`)
        }

        func fail(_ error: URLError) {
            `protocol`.client?.urlProtocol(`protocol`, didFailWithError: error)
        }
    }

    private static func read(_ stream: InputStream?) -> Data? {
        guard let stream else { return nil }
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count <= 0 { break }
            data.append(buffer, count: count)
        }
        return data.isEmpty ? nil : data
    }
}

/// Validates exchanges against `Documentation/tender-server.openapi.yaml` with openapi-core
/// (`Scripts/peers/check_routes.py`, in the venv `Scripts/peers/peers.sh install` makes).
enum OpenAPICheck {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `TENDER_PEERS_PYTHON`, or the venv's python when it was installed.
    static let python: String? = {
        if let path = ProcessInfo.processInfo.environment["TENDER_PEERS_PYTHON"] { return path }
        let venv = root.appendingPathComponent(".build/peers-venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : nil
    }()

    static func expectValid(_ exchanges: [Exchange], sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(!exchanges.isEmpty, "no exchange was recorded", sourceLocation: sourceLocation)
        guard let python else {
            print("TenderServer peer test skipped: openapi-core is not installed (Scripts/peers/peers.sh install); the routes' exchanges were not checked against the OpenAPI document")
            return
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tender-exchanges-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        let lines = try exchanges.map { String(data: try JSONSerialization.data(withJSONObject: $0.json), encoding: .utf8)! }
        try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-W", "ignore", root.appendingPathComponent("Scripts/peers/check_routes.py").path, file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(data: output.fileHandleForReading.readDataToEndOfFile(), encoding: .utf8) ?? ""
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "OpenAPI violations:\n\(text)", sourceLocation: sourceLocation)
        if process.terminationStatus == 0 { print("OpenAPI: \(text.trimmingCharacters(in: .whitespacesAndNewlines))") }
    }
}

/// Answers the device never receives: the routes run the request (the vendor acts), then the hop back drops it, as a
/// connection cut after the server answered. Each path named is lost once.
final class LostAnswers: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [String]

    init(_ paths: [String]) { pending = paths }

    /// Whether the answer to a request for `path` is lost (once per listed path).
    func takes(_ path: String) -> Bool {
        lock.withLock {
            guard let index = pending.firstIndex(of: path) else { return false }
            pending.remove(at: index)
            return true
        }
    }
}
