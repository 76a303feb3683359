import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import TenderServer

/// The loopback peers `Scripts/peers/peers.sh start` runs, found through the environment it writes. A test that
/// needs one is enabled only when it runs, and says why it is skipped otherwise.
enum Peers {
    static let environment = ProcessInfo.processInfo.environment

    /// localstripe's base URL (`TENDER_LOCALSTRIPE_URL`).
    static let localstripe: URL? = environment["TENDER_LOCALSTRIPE_URL"].flatMap(URL.init(string:))
    /// The Square peer's base URL (`TENDER_SQUARE_PEER_URL`).
    static let square: URL? = environment["TENDER_SQUARE_PEER_URL"].flatMap(URL.init(string:))
    /// The access token the Square peer expects (`TENDER_SQUARE_PEER_TOKEN`).
    static let squareToken: String? = environment["TENDER_SQUARE_PEER_TOKEN"]

    static let localstripeReason: Comment = "localstripe is not running: start it with Scripts/peers/peers.sh start and source .build/peers/env (TENDER_LOCALSTRIPE_URL)"
    static let squareReason: Comment = "the Square OpenAPI peer is not running: start it with Scripts/peers/peers.sh start and source .build/peers/env (TENDER_SQUARE_PEER_URL)"

    /// Whether localstripe runs; prints the reason when not.
    static var localstripeRunning: Bool { announce(localstripe != nil, localstripeReason) }
    /// Whether the Square peer runs; prints the reason when not.
    static var squareRunning: Bool { announce(square != nil && squareToken != nil, squareReason) }

    private static func announce(_ running: Bool, _ reason: Comment) -> Bool {
        if !running { print("TenderServer peer test skipped: \(reason)") }
        return running
    }

    /// The shared folder's peers directory: `TENDER_SHARED_PEERS`, or `../shared/peers` beside the package.
    static let sharedPeers: URL = {
        if let path = environment["TENDER_SHARED_PEERS"] { return URL(fileURLWithPath: path) }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.deletingLastPathComponent().appendingPathComponent("shared/peers")
    }()

    /// A raw HTTP call to a peer (for what TenderServer has no call for: confirming, seeding, reports).
    static func raw(_ method: String, _ url: URL, headers: [String: String] = [:], body: String? = nil) async throws
        -> (Int, [String: Any]) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        return (status, object)
    }
}

/// A transport answering from a script, recording what was sent: the in-process fake for what localstripe lacks
/// (Search, connection tokens, refund reasons) and for forcing every kind of failure.
final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    typealias Answer = @Sendable (HTTPRequest) -> Result<HTTPResponse, HTTPTransportError>
    private let lock = NSLock()
    private var answers: [Answer]
    private var fallback: Answer?
    private(set) var sent: [HTTPRequest] = []

    init(_ answers: [Answer] = [], otherwise fallback: Answer? = nil) {
        self.answers = answers
        self.fallback = fallback
    }

    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        let answer: Answer? = lock.withLock {
            sent.append(request)
            return answers.isEmpty ? fallback : answers.removeFirst()
        }
        guard let answer else { throw HTTPTransportError(kind: .other, message: "the script has no answer left") }
        return try answer(request).get()
    }

    var requests: [HTTPRequest] { lock.withLock { sent } }

    static func json(_ status: Int, _ text: String, headers: [String: String] = [:]) -> Answer {
        { _ in .success(HTTPResponse(status: status, headers: headers, body: Data(text.utf8))) }
    }

    static func failure(_ kind: HTTPTransportError.Kind) -> Answer {
        { _ in .failure(HTTPTransportError(kind: kind, message: "scripted \(kind.rawValue)")) }
    }
}

extension HTTPRequest {
    /// The form body's pairs, decoded.
    var formPairs: [(String, String)] {
        guard let body, let text = String(data: body, encoding: .utf8), !text.isEmpty else { return [] }
        return text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }

    /// The form body as a dictionary (last value wins).
    var form: [String: String] { Dictionary(formPairs, uniquingKeysWith: { _, last in last }) }
}
