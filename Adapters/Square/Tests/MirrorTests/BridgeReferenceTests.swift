import Foundation
import Testing

extension SurfaceReference {
    /// Every name and declaration text the reference holds (both spellings where it records two).
    var texts: [String] {
        types.flatMap { type in
            [type.name, type.declaration ?? ""] + type.members.flatMap { [$0.swift, $0.alternateSpelling ?? ""] }
                + (type.cases ?? []).map(\.name)
        }
    }
}

@Suite("Square bridge files use only what the SDK surface has")
struct BridgeReferenceTests {
    static func load() throws -> (check: BridgeReferenceCheck, reference: SurfaceReference, root: URL) {
        let root = try SurfaceReference.packageRoot(from: #filePath)
        let reference = try SurfaceReference.load(fileName: SquareSurfaceAllowances.referenceFile, packageRoot: root)
        let check = try BridgeReferenceCheck(mirrorFolder: "Adapters/Square/Sources/Mirror", packageRoot: root,
                                             referenceTexts: reference.texts)
        return (check, reference, root)
    }

    @Test("no bridge file uses a mirror declaration without a counterpart in the surface data")
    func bridgeUsesNoMirrorOnlyDeclaration() throws {
        let (check, _, root) = try Self.load()
        #expect(check.mirrorOnlyNames.isSuperset(of: ["SurfaceBackendSlot", "SurfaceTapToPaySettings"]))
        let violations = check.violations(in: try SurfaceReference.bridgeSources(packageRoot: root))
        #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
    }

    @Test("a fixture bridge file that uses mirror-only declarations fails the check")
    func fixtureFails() throws {
        let (check, _, _) = try Self.load()
        let fixture = BridgeSourceScan(files: [.init(name: "SquareBridge+Fixture.swift", code: BridgeSourceScan.code(of: """
            extension SquareMobilePaymentsBridge {
                func linkedForSure() -> any TapToPaySettings { SurfaceTapToPaySettings() }
                func backend() -> Any? { SurfaceBackendSlot.self }
            }
            """))])
        let names = Set(check.violations(in: fixture).map(\.name))
        #expect(names.isSuperset(of: ["SurfaceTapToPaySettings", "SurfaceBackendSlot"]))
    }

    /// Where the reference records two spellings, the mirror declares the compiled sample's (checked by the
    /// comparison) and its doc comment says so.
    @Test("each member spelled as Square's compiled sample spells it says so in its doc comment")
    func sampleSpellingsAreDocumented() throws {
        let (_, reference, root) = try Self.load()
        let folder = root.appendingPathComponent("Adapters/Square/Sources/Mirror")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        let sources = try files.map { try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8) }
        let members = reference.types.flatMap(\.members).compactMap(\.alternateSpelling)
        #expect(members.count == 6)
        for sample in members {
            // `func authorize(withAccessToken accessToken: …` → `func authorize(` then `withAccessToken`.
            let head = try #require(sample.range(of: "(").map { String(sample[..<$0.lowerBound]) })
            let label = String(sample[sample.index(after: sample.firstIndex(of: "(")!)...].prefix { $0 != " " && $0 != ":" })
            let pattern = NSRegularExpression.escapedPattern(for: head) + #"\(\s*"# + NSRegularExpression.escapedPattern(for: label)
            let regex = try NSRegularExpression(pattern: pattern)
            var documented = false
            // The protocol requirement's declaration (package witnesses in the mirror's own objects are not API).
            for source in sources {
                let range = NSRange(source.startIndex..., in: source)
                for match in regex.matches(in: source, range: range) {
                    guard let found = Range(match.range, in: source) else { continue }
                    let before = source[..<found.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
                    guard let line = before.last, !line.contains("package") else { continue }
                    let comment = before.dropLast().reversed()
                        .prefix { $0.trimmingCharacters(in: .whitespaces).hasPrefix("///") }
                        .joined(separator: " ")
                    documented = documented || comment.contains("Square's compiled sample")
                }
            }
            #expect(documented, "`\(sample)`: the doc comment must say it is the spelling Square's compiled sample uses")
        }
    }

    @Test("only the imports differ between the mirror build and the SDK build")
    func onlyTheImportsDiffer() throws {
        let root = try SurfaceReference.packageRoot(from: #filePath)
        let folder = root.appendingPathComponent("Adapters/Square/Sources/Bridge")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let problems = BridgeSourceScan.mirrorOnlyAlternatives(in: text)
            #expect(problems.isEmpty, "\(file): \(problems.joined(separator: "; "))")
        }
        let alternative = """
            #if TENDER_SURFACE_MIRROR
            import SquareMobilePaymentsSurface
            let linked = false
            #elseif SquareMobilePaymentsSDK
            import SquareMobilePaymentsSDK
            #endif
            """
        #expect(BridgeSourceScan.mirrorOnlyAlternatives(in: alternative).contains { $0.hasPrefix("line 3:") })
    }

    /// `Tests/BridgeOverSurface` (the target the tests and the demo build with `TENDER_SURFACE_MIRROR`) holds a
    /// link to each bridge file and nothing else, so what is checked is what ships.
    @Test("the over-the-mirror target compiles exactly the bridge files")
    func overSurfaceCompilesTheBridgeFiles() throws {
        let root = try SurfaceReference.packageRoot(from: #filePath)
        let bridge = root.appendingPathComponent("Adapters/Square/Sources/Bridge")
        let links = root.appendingPathComponent("Adapters/Square/Tests/BridgeOverSurface")
        let sources = try FileManager.default.contentsOfDirectory(atPath: bridge.path).filter { $0.hasSuffix(".swift") }
        let linked = try FileManager.default.contentsOfDirectory(atPath: links.path)
        #expect(Set(linked) == Set(sources))
        for name in sources {
            let resolved = links.appendingPathComponent(name).resolvingSymlinksInPath().standardizedFileURL.path
            #expect(resolved == bridge.appendingPathComponent(name).resolvingSymlinksInPath().standardizedFileURL.path,
                    "\(name) in BridgeOverSurface is not a link to the bridge's file")
        }
    }
}
