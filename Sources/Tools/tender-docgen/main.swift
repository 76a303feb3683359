// tender-docgen: regenerates the parts of Sources/Tender/Tender.docc that come from code, so they cannot drift.
//   swift run tender-docgen            writes them
//   swift run tender-docgen --check    exits 1 if the committed files differ from what the code generates (CI)
import Foundation

let arguments = CommandLine.arguments.dropFirst()
let check = arguments.contains("--check")
let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
let catalog = root.appendingPathComponent("Sources/Tender/Tender.docc")

/// Replaces the text between `<!-- generated: NAME -->` and `<!-- end generated -->`.
func replacingSection(_ name: String, in text: String, with body: String) -> String {
    let start = "<!-- generated: \(name) -->", end = "<!-- end generated -->"
    guard let s = text.range(of: start), let e = text.range(of: end, range: s.upperBound..<text.endIndex) else {
        FileHandle.standardError.write(Data("missing generated section \(name)\n".utf8))
        exit(2)
    }
    return text.replacingCharacters(in: s.upperBound..<e.lowerBound, with: "\n" + body + "\n")
}

var outputs: [(URL, String)] = []
outputs.append((catalog.appendingPathComponent("Resources/payment-lifecycle.svg"), Lifecycle.svg()))
let lifecycleURL = catalog.appendingPathComponent("PaymentLifecycle.md")
let errorsURL = catalog.appendingPathComponent("ErrorsAndRecovery.md")
do {
    let lifecycle = try String(contentsOf: lifecycleURL, encoding: .utf8)
    outputs.append((lifecycleURL, replacingSection("transitions", in: lifecycle, with: Lifecycle.table())))
    let errors = try String(contentsOf: errorsURL, encoding: .utf8)
    outputs.append((errorsURL, replacingSection("errors", in: errors, with: ErrorTables.markdown())))
} catch {
    FileHandle.standardError.write(Data("cannot read the catalog: \(error)\n".utf8))
    exit(2)
}

var stale: [String] = []
for (url, text) in outputs {
    let current = try? String(contentsOf: url, encoding: .utf8)
    if current == text { continue }
    if check {
        stale.append(url.path)
    } else {
        try text.write(to: url, atomically: true, encoding: .utf8)
        print("wrote \(url.path)")
    }
}
if check {
    if stale.isEmpty {
        print("documentation is up to date with the code")
    } else {
        print("stale generated documentation (run `swift run tender-docgen`):\n" + stale.joined(separator: "\n"))
        exit(1)
    }
}
