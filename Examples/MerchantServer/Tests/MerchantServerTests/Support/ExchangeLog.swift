import Foundation
import Hummingbird
import Testing

/// The requests and answers a harness saw, as `Scripts/peers/check_routes.py` reads them (one JSON object a line).
final class ExchangeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [[String: Any]] = []

    private var invalidNext = false

    var count: Int { lock.withLock { lines.count } }

    /// Runs `body`, whose request breaks the document on purpose (a missing field, a body that is not JSON, no
    /// token): its answer is still checked against the document, its request is not.
    func invalid<T>(_ body: () async throws -> T) async rethrows -> T {
        lock.withLock { invalidNext = true }
        defer { lock.withLock { invalidNext = false } }
        return try await body()
    }

    func record(method: String, path: String, requestHeaders: HTTPFields, requestBody: Data?, status: Int,
                responseHeaders: HTTPFields, responseBody: Data) {
        func dictionary(_ fields: HTTPFields) -> [String: String] {
            Dictionary(fields.map { ($0.name.canonicalName, $0.value) }, uniquingKeysWith: { first, _ in first })
        }
        var line: [String: Any] = [
            "method": method, "path": path, "requestHeaders": dictionary(requestHeaders),
            "requestBody": requestBody.map { String(decoding: $0, as: UTF8.self) } ?? NSNull(), "status": status,
            "responseHeaders": dictionary(responseHeaders),
            "responseBody": String(decoding: responseBody, as: UTF8.self)]
        lock.withLock {
            if invalidNext { line["requestIsInvalid"] = true }
            lines.append(line)
        }
    }

    /// Checks every exchange against the bundled OpenAPI document (merchant-server's routes and Tender's) with
    /// openapi-core, in the peers' virtual environment (`Scripts/peers/peers.sh install`; `TENDER_PEERS_PYTHON`).
    /// Under CI=true a missing environment fails; otherwise it is said and skipped.
    func expectValid(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let root = package.deletingLastPathComponent().deletingLastPathComponent()
        let environment = ProcessInfo.processInfo.environment
        let venv = root.appendingPathComponent(".build/peers-venv/bin/python").path
        let python = environment["TENDER_PEERS_PYTHON"] ?? (FileManager.default.isExecutableFile(atPath: venv) ? venv : nil)
        guard let python else {
            #expect(environment["CI"] != "true", "openapi-core is not installed: Scripts/peers/peers.sh install",
                    sourceLocation: sourceLocation)
            print("merchant-server OpenAPI check skipped: openapi-core is not installed (Scripts/peers/peers.sh install)")
            return
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("merchant-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        let text = try lock.withLock {
            try lines.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }
        }.joined(separator: "\n") + "\n"
        try text.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-W", "ignore", root.appendingPathComponent("Scripts/peers/check_routes.py").path,
                             file.path, "--spec", package.appendingPathComponent("merchant-server.bundled.openapi.yaml").path,
                             "--host", "http://127.0.0.1:8080"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let answer = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "OpenAPI violations:\n\(answer)", sourceLocation: sourceLocation)
        if process.terminationStatus == 0 { print("merchant-server OpenAPI: \(answer.trimmingCharacters(in: .whitespacesAndNewlines))") }
    }
}
