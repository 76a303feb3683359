import Foundation
import Testing

/// Debian's headless Chromium, for what a person sees on a page (`apt-get install chromium`; `.ci/run` installs
/// it). Under CI=true a missing browser fails the test; otherwise it is said and skipped.
enum Browser {
    static var binary: String? {
        for path in ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        where FileManager.default.isExecutableFile(atPath: path) { return path }
        return nil
    }

    /// Loads `path` of the server at `url` with the administrator's token (HTTP Basic in the URL, as a person types
    /// it), checks the page holds no script (it reads the same with JavaScript off), and expects each of `texts` in the page's visible text; saves a screenshot to
    /// the package's `.build/<screenshot>.png`.
    static func expectPage(_ url: URL, path: String, adminToken: String, screenshot: String, showing texts: [String],
                           sourceLocation: SourceLocation = #_sourceLocation) async throws {
        guard let chromium = binary else {
            #expect(ProcessInfo.processInfo.environment["CI"] != "true", "Chromium is not installed (apt-get install chromium)",
                    sourceLocation: sourceLocation)
            print("merchant-server browser check skipped: Chromium is not installed (apt-get install chromium)")
            return
        }
        var components = URLComponents(url: url.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        components.user = "admin"
        components.password = adminToken
        let address = components.url!.absoluteString
        // A profile of its own per run (two runs at once would share the default one and the second would quit).
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        // (Not `--blink-settings=scriptEnabled=false`: `--dump-dom` needs script to serialise the page; the page
        // is checked to hold no script at all instead, so it reads the same with JavaScript off.)
        let common = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                      "--user-data-dir=\(profile.path)", "--window-size=1280,1100"]
        let dom = try await run(chromium, common + ["--dump-dom", address])
        #expect(!dom.isEmpty, "Chromium gave no page for \(path)", sourceLocation: sourceLocation)
        #expect(!dom.lowercased().contains("<script"), "the page needs JavaScript", sourceLocation: sourceLocation)
        let visible = text(of: dom)
        for expected in texts {
            #expect(visible.contains(expected), "the page does not show \"\(expected)\"", sourceLocation: sourceLocation)
        }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let file = package.appendingPathComponent(".build/\(screenshot).png")
        _ = try await run(chromium, common + ["--screenshot=\(file.path)", address])
        #expect(FileManager.default.fileExists(atPath: file.path), "no screenshot", sourceLocation: sourceLocation)
    }

    /// The text a person reads: tags removed, entities decoded, white space collapsed.
    static func text(of html: String) -> String {
        var text = html.replacingOccurrences(of: "<style[^>]*>[\\s\\S]*?</style>", with: " ", options: .regularExpression)
        text = text.replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
        for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&amp;", "&")] {
            text = text.replacingOccurrences(of: entity, with: character)
        }
        return text.replacingOccurrences(of: "\\s+", with: " ", options: .regularExpression)
    }

    /// Runs the browser without holding a thread of the test's pool (the server under test answers on it): its
    /// output goes to a file, its end is awaited.
    private static func run(_ executable: String, _ arguments: [String]) async throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try FileHandle(forWritingTo: file)
        let process = Process()
        // At most a minute: a browser that hangs fails the check instead of holding the test run.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["--kill-after=5", "60", executable] + arguments
        process.standardOutput = output
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        process.standardError = try FileHandle(forWritingTo: errors)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            process.terminationHandler = { _ in done.resume() }
            do { try process.run() } catch { done.resume() }
        }
        try output.close()
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        if text.isEmpty, arguments.contains("--dump-dom") {
            print("chromium said (status \(process.terminationStatus)):", (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
        }
        return text
    }
}
