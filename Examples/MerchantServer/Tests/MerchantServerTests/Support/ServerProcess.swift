import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import MerchantServer

/// A `merchant-server` process started by a test (the package's own executable, built beside the tests), on
/// 127.0.0.1 and a port it picks; stopped by its pid.
final class ServerProcess: @unchecked Sendable {
    let process = Process()
    let url: URL
    private let output: Pipe

    /// The executable: `MERCHANT_SERVER_BINARY`, or the one `swift build --build-tests` put beside the test bundle.
    static func binary() throws -> URL {
        if let given = ProcessInfo.processInfo.environment["MERCHANT_SERVER_BINARY"] {
            return URL(fileURLWithPath: given)
        }
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("merchant-server")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let built = package.appendingPathComponent(".build/debug/merchant-server")
        guard FileManager.default.isExecutableFile(atPath: built.path) else {
            throw StoreError("merchant-server is not built: swift build --package-path Examples/MerchantServer "
                + "--build-tests (or set MERCHANT_SERVER_BINARY)")
        }
        return built
    }

    /// Starts it with `arguments` and `environment` added to this process's, and waits for its `listening on` line.
    init(arguments: [String], environment: [String: String]) async throws {
        process.executableURL = try Self.binary()
        process.arguments = arguments + ["--port", "0"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        var text = ""
        let deadline = Date().addingTimeInterval(60)
        var found: URL?
        while found == nil {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty {
                guard process.isRunning, Date() < deadline else {
                    throw StoreError("merchant-server did not start: \(text)")
                }
                try await Task.sleep(for: .milliseconds(50))
                continue
            }
            text += String(decoding: chunk, as: UTF8.self)
            for line in text.split(separator: "\n") where line.contains("listening on http://127.0.0.1:") {
                let address = line[line.range(of: "http://")!.lowerBound...].prefix { !$0.isWhitespace }
                found = URL(string: String(address))
            }
        }
        url = found!
        log.set(text)
        // Keep reading its output (a full pipe would block it), for ``lines(containing:)``.
        let handle = output.fileHandleForReading
        let log = log
        handle.readabilityHandler = { handle in log.append(String(decoding: handle.availableData, as: UTF8.self)) }
    }

    private let log = Log()

    /// How many lines of its output so far contain `text`.
    func lines(containing text: String) -> Int {
        log.text.split(separator: "\n").filter { $0.contains(text) }.count
    }

    private final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var value = ""
        var text: String { lock.withLock { value } }
        func set(_ text: String) { lock.withLock { value = text } }
        func append(_ text: String) { lock.withLock { value += text } }
    }

    /// SIGTERM, then waits for it to exit.
    func stop() {
        output.fileHandleForReading.readabilityHandler = nil
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit { if process.isRunning { process.terminate() } }

    /// One JSON request to it; the status and the decoded body.
    func call(_ method: String, _ path: String, token: String?, json: [String: Any]? = nil) async throws
        -> (status: Int, json: [String: Any]) {
        try await call(method, path, token: token, body: try json.map { try JSONSerialization.data(withJSONObject: $0) })
    }

    /// One request with `body` as its JSON body.
    func call(_ method: String, _ path: String, token: String?, body: Data?) async throws
        -> (status: Int, json: [String: Any]) {
        var request = URLRequest(url: URL(string: url.absoluteString + path)!)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let session = URLSession(configuration: .ephemeral)
        let (data, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        return (status, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
    }
}
