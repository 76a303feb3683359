import Foundation
import Testing

/// The reference and the mirror's symbol graph, read once per test.
struct SurfaceFixture {
    var reference: SurfaceReference
    var graph: SymbolGraph
    /// The types that must be complete (those the bridge names).
    var complete: Set<String>

    /// Reads `square-mobile-payments-ios.json` and extracts the built mirror's symbol graph. Throws (failing the
    /// test) when either is unavailable.
    static func load() throws -> SurfaceFixture {
        let root = try SurfaceReference.packageRoot(from: #filePath)
        let reference = try SurfaceReference.load(fileName: SquareSurfaceAllowances.referenceFile, packageRoot: root)
        let module = SquareSurfaceAllowances.module
        guard let modules = BuildProducts.modulesDirectory(containing: module, packageRoot: root) else {
            throw SymbolGraph.ExtractionError(description: "\(module).swiftmodule not found in the build directory")
        }
        let graph = try SymbolGraph.extract(
            module: module, modulesDirectory: modules, target: BuildProducts.targetTriple(modulesDirectory: modules))
        return SurfaceFixture(reference: reference, graph: graph,
                              complete: try reference.typesNamedByTheBridge(packageRoot: root))
    }

    /// The comparison under the Square allowances.
    func compare(allowances: SurfaceAllowances = SquareSurfaceAllowances.current)
        -> (mismatches: [SurfaceMismatch], matched: SurfaceComparison.Summary) {
        SurfaceComparison(reference: reference, graph: graph, allowances: allowances, complete: complete).run()
    }

    /// The mismatches after `doctor` changed the mirror's graph.
    func mismatches(doctoring doctor: (inout SymbolGraph) -> Void) -> [SurfaceMismatch] {
        var doctored = graph
        doctor(&doctored)
        return SurfaceComparison(reference: reference, graph: doctored, allowances: SquareSurfaceAllowances.current,
                                 complete: complete).run().mismatches
    }
}

extension SymbolGraph {
    /// Index of the symbol at `path`; the test fails if there is none.
    func index(of path: [String], sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        try #require(symbols.firstIndex { $0.path == path && $0.extendedModule == nil }, sourceLocation: sourceLocation)
    }
}

@Suite("Square surface mirror matches square-mobile-payments-ios.json")
struct MirrorSurfaceTests {
    @Test("every reference type, member and case is mirrored with its spelling, and nothing else is declared")
    func mirrorMatchesReference() throws {
        let fixture = try SurfaceFixture.load()
        let (mismatches, matched) = fixture.compare()
        let listing = mismatches.map(\.description).joined(separator: "\n")
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches:\n\(listing)")

        let reference = fixture.reference
        let members = reference.types.reduce(0) { $0 + $1.members.count }
        let cases = reference.types.reduce(0) { $0 + ($1.cases?.count ?? 0) }
        #expect(reference.types.count == 80 && members == 291, "the reference is Square 2.5.0's full surface")
        #expect((reference.referencedButNotDescribed ?? []).isEmpty)
        // Every type a bridge names is mirrored completely; the mirror in fact mirrors all 80.
        #expect(fixture.complete.isSuperset(of: ["SDKManager", "PaymentManager", "ReaderInfo", "AuthorizationState"]))
        #expect(matched.types == reference.types.count)
        #expect(matched.members == members)
        #expect(matched.cases == cases)
        #expect(matched.partial == 0)
        let samples = reference.types.flatMap(\.members).filter { $0.alternateSpelling != nil }
        #expect(samples.count == 6 && matched.overridden == samples.count, "the compiled sample's spellings")
        print("""
            Square surface mirror: \(matched.types)/\(reference.types.count) types (\(fixture.complete.count) named by the \
            bridge, all complete), \(matched.members)/\(members) \
            members (\(matched.overridden) with the compiled sample's spelling), \(matched.cases)/\(cases) cases, \
            \(matched.witnesses) conformance witnesses, \(fixture.graph.symbols.count) public symbols
            """)
    }

    @Test("a missing reference file fails loudly")
    func missingReferenceThrows() throws {
        let root = try SurfaceReference.packageRoot(from: #filePath)
        #expect(throws: SurfaceReference.LoadError.self) {
            try SurfaceReference.load(fileName: "no-such-sdk.json", packageRoot: root)
        }
    }
}

@Suite("The surface check reports doctored declarations")
struct MirrorSurfaceCheckFailsTests {
    @Test("a changed argument label is a missing member and an extra one")
    func changedLabel() throws {
        let fixture = try SurfaceFixture.load()
        let path = ["PaymentManager", "getIdempotencyKey(withPaymentAttemptId:)"]
        _ = try fixture.graph.index(of: path)
        let mismatches = fixture.mismatches { graph in
            let index = try! graph.index(of: path)
            graph.symbols[index].declaration =
                "func getIdempotencyKey(withPaymentAttemptID paymentAttemptId: String) -> String?"
        }
        #expect(mismatches.contains {
            $0.kind == .missingMember && $0.type == "PaymentManager" && $0.detail.contains("withPaymentAttemptId")
        })
        #expect(mismatches.contains {
            $0.kind == .extraMember && $0.type == "PaymentManager" && $0.detail.contains("withPaymentAttemptID")
        })
    }

    @Test("optionality, static, @discardableResult, throws and get/set are significant", arguments: [
        (["PaymentParameters", "tipMoney"], "var tipMoney: any MoneyAmount"),
        (["MobilePaymentsSDK", "shared"], "var shared: any SDKManager { get }"),
        (["ReaderManager", "startPairing(with:)"],
         "func startPairing(with delegate: any ReaderPairingDelegate) -> (any PairingHandle)?"),
        (["AdditionalPaymentMethod", "triggerPayment(with:)"], "func triggerPayment(with source: any PaymentSource)"),
        (["PaymentHandle", "payment"], "var payment: any Payment { get set }"),
        (["PromptParameters", "mode"], "var mode: PromptMode"),
    ])
    func doctoredDeclaration(path: [String], doctored: String) throws {
        var fixture = try SurfaceFixture.load()
        fixture.complete.formUnion(fixture.reference.types.map(\.name))   // every type checked as if a bridge named it
        _ = try fixture.graph.index(of: path)
        let mismatches = fixture.mismatches { graph in
            graph.symbols[try! graph.index(of: path)].declaration = doctored
        }
        #expect(mismatches.contains { $0.kind == .missingMember && $0.type == path[0] })
        #expect(mismatches.contains { $0.kind == .extraMember && $0.type == path[0] && $0.detail.contains(doctored) })
    }

    @Test("a removed member, case or conformance is reported")
    func removals() throws {
        let fixture = try SurfaceFixture.load()
        let member = ["PaymentHandle", "cancelPayment()"]
        let caseName = ["PaymentError", "timedOut"]
        _ = try fixture.graph.index(of: member)
        _ = try fixture.graph.index(of: caseName)
        let removed = fixture.mismatches { graph in
            graph.symbols.removeAll { $0.path == member || $0.path == caseName }
            let status = graph.symbols.first { $0.path == ["PaymentStatus"] }!
            graph.relationships.removeAll { $0.source == status.usr && $0.targetFallback == "Swift.Decodable" }
        }
        #expect(removed.contains { $0.kind == .missingMember && $0.type == "PaymentHandle" })
        #expect(removed.contains { $0.kind == .missingCase && $0.type == "PaymentError" && $0.detail == "timedOut" })
        #expect(removed.contains {
            $0.kind == .missingConformance && $0.type == "PaymentStatus" && $0.detail == "Decodable"
        })
    }

    @Test("an added type or case is reported")
    func additions() throws {
        let fixture = try SurfaceFixture.load()
        let added = fixture.mismatches { graph in
            graph.symbols.append(.init(usr: "s:extra", kind: "swift.struct", path: ["Terminal"],
                                       declaration: "struct Terminal", accessLevel: "public"))
            graph.symbols.append(.init(usr: "s:case", kind: "swift.enum.case",
                                       path: ["PaymentError", "idempotencyKeyReused"],
                                       declaration: "case idempotencyKeyReused", accessLevel: "public"))
        }
        #expect(added.contains { $0.kind == .extraType && $0.type == "Terminal" })
        #expect(added.contains { $0.kind == .extraCase && $0.detail == "idempotencyKeyReused" })
    }

    @Test("type-level changes are reported: kind, declaration, superclass, an added conformance")
    func typeLevel() throws {
        let fixture = try SurfaceFixture.load()
        let mismatches = fixture.mismatches { graph in
            let money = graph.symbols.firstIndex { $0.path == ["Money"] }!
            graph.symbols[money].kind = "swift.struct"
            let payment = graph.symbols.firstIndex { $0.path == ["Payment"] }!
            graph.symbols[payment].declaration = "protocol Payment : AnyObject"
            let parameters = graph.symbols.first { $0.path == ["PaymentParameters"] }!
            graph.relationships.removeAll { $0.kind == "inheritsFrom" && $0.source == parameters.usr }
            let state = graph.symbols.first { $0.path == ["AuthorizationState"] }!
            graph.relationships.append(.init(kind: "conformsTo", source: state.usr, target: "s:s8SendableP",
                                             targetFallback: "Swift.Sendable"))
        }
        #expect(mismatches.contains { $0.kind == .kindDiffers && $0.type == "Money" })
        #expect(mismatches.contains { $0.kind == .declarationDiffers && $0.type == "Payment" })
        #expect(mismatches.contains { $0.kind == .superclassDiffers && $0.type == "PaymentParameters" })
        #expect(mismatches.contains { $0.kind == .extraConformance && $0.type == "AuthorizationState" && $0.detail == "Sendable" })
    }

    @Test("requirement versus extension, and optional requirements, are checked")
    func protocolRoles() throws {
        let fixture = try SurfaceFixture.load()
        let didFinishPath = ["PaymentManagerDelegate", "paymentManager(_:didFinish:)"]
        let didFinish = try fixture.graph.symbols[fixture.graph.index(of: didFinishPath)]
        let defaults = fixture.graph.symbols.filter {
            $0.path == ["PaymentManagerDelegate", "paymentManager(_:didStart:)"]
        }
        #expect(defaults.count == 2, "a requirement and its default implementation")
        let mismatches = fixture.mismatches { graph in
            graph.relationships.removeAll { $0.kind == "requirementOf" && $0.source == didFinish.usr }
            let defaultUSRs = Set(graph.relationships.filter { $0.kind == "defaultImplementationOf" }.map(\.source))
            graph.symbols.removeAll { $0.path == defaults[0].path && defaultUSRs.contains($0.usr) }
        }
        #expect(mismatches.contains { $0.kind == .notARequirement && $0.detail.contains("didFinish") })
        #expect(mismatches.contains { $0.kind == .optionalWithoutDefault && $0.detail.contains("didStart") })
    }

    @Test("a doctored reference is reported, and the sample's spelling is required where the reference records one")
    func doctoredReference() throws {
        var fixture = try SurfaceFixture.load()
        let parameters = try #require(fixture.reference.types.firstIndex { $0.name == "PaymentParameters" })
        let note = try #require(fixture.reference.types[parameters].members.firstIndex {
            $0.swift == "@objc var note: String?"
        })
        fixture.reference.types[parameters].members[note].swift = "@objc var note: String"
        let settings = try #require(fixture.reference.types.firstIndex { $0.name == "SettingsManager" })
        let consent = try #require(fixture.reference.types[settings].members.firstIndex {
            $0.swift.contains("updateTrackingConsent")
        })
        // Without the sample's spelling, the DocC one is expected, and the mirror's is extra.
        fixture.reference.types[settings].members[consent].alternateSpelling = nil
        fixture.complete.formUnion(fixture.reference.types.map(\.name))
        let mismatches = fixture.compare().mismatches
        #expect(mismatches.contains { $0.kind == .missingMember && $0.detail.contains("var note: String") })
        #expect(mismatches.contains { $0.kind == .extraMember && $0.detail.contains("note") })
        #expect(mismatches.contains { $0.kind == .missingMember && $0.detail.contains("updateTrackingConsent(granted:") })
        #expect(mismatches.contains { $0.kind == .extraMember && $0.detail.contains("withGranted") })
    }

    @Test("a type a bridge names must be complete; one no bridge names may leave members out")
    func typesTheBridgeNamesMustBeComplete() throws {
        var fixture = try SurfaceFixture.load()
        #expect(fixture.complete.contains("PaymentHandle"))
        let member = ["PaymentHandle", "cancelPayment()"]
        _ = try fixture.graph.index(of: member)
        let named = fixture.mismatches { graph in graph.symbols.removeAll { $0.path == member } }
        #expect(named.contains { $0.kind == .missingMember && $0.type == "PaymentHandle" })
        fixture.complete.remove("PaymentHandle")
        let unnamed = fixture.mismatches { graph in graph.symbols.removeAll { $0.path == member } }
        #expect(!unnamed.contains { $0.type == "PaymentHandle" })
        // What an unnamed type declares must still be the SDK's.
        let extra = fixture.mismatches { graph in
            graph.symbols.append(.init(usr: "s:extra.member", kind: "swift.method", path: ["TapToPaySettings", "unlink()"],
                                       declaration: "func unlink()", accessLevel: "public"))
            let settings = graph.symbols.first { $0.path == ["TapToPaySettings"] }!
            graph.relationships.append(.init(kind: "requirementOf", source: "s:extra.member", target: settings.usr))
        }
        #expect(extra.contains { $0.kind == .extraMember && $0.type == "TapToPaySettings" && $0.detail.contains("unlink") })
    }
}
