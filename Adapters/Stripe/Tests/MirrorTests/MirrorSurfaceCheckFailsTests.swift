import Foundation
import Testing

/// The reference and the extracted graph, for doctoring.
struct SurfaceFixture {
    var reference: SurfaceReference
    var graph: SymbolGraph
    /// The types that must be complete (those the bridge names).
    var complete: Set<String>

    static func load() throws -> SurfaceFixture {
        let reference = try SurfaceReference.load()
        return SurfaceFixture(reference: reference, graph: try MirrorSurfaceTests.extracted.get(),
                              complete: try reference.typesNamedByTheBridge())
    }

    /// The mismatches once `doctor` has changed the mirror's graph.
    func mismatches(doctoring doctor: (inout SymbolGraph) throws -> Void) rethrows -> [SurfaceMismatch] {
        var doctored = graph
        try doctor(&doctored)
        return SurfaceComparison(reference: reference, graph: doctored, complete: complete).mismatches
    }
}

extension SymbolGraph {
    /// The index of the one symbol declared (not as a default implementation) at `path`.
    func index(of path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        let defaults = Set(relationships.filter { $0.kind == "defaultImplementationOf" }.map(\.source))
        return try #require(
            symbols.firstIndex { $0.path == path && !$0.isSynthesized && !defaults.contains($0.identifier.precise) },
            sourceLocation: sourceLocation)
    }

    /// The precise identifier of the symbol at `path`.
    func id(of path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        symbols[try index(of: path, sourceLocation: sourceLocation)].identifier.precise
    }

    mutating func setDeclaration(_ declaration: String, at path: String) throws {
        symbols[try index(of: path)].declarationFragments = [.init(spelling: declaration)]
    }

    mutating func add(_ kind: String, _ path: String, _ declaration: String) {
        symbols.append(Symbol(
            kind: .init(identifier: kind), identifier: .init(precise: "s:doctored.\(path)"),
            pathComponents: path.split(separator: ".").map(String.init),
            declarationFragments: [.init(spelling: declaration)], availability: nil))
    }
}

/// Proof that the mirror-vs-surface check can fail: each test doctors a copy of the extracted graph (or of the
/// reference) and expects the comparison to name the difference.
@Suite struct MirrorSurfaceCheckFailsTests {
    @Test func aMisspelledDeclarationIsAMissingMemberAndAnExtraOne() throws {
        let fixture = try SurfaceFixture.load()
        let path = "TerminalDelegate.terminal(_:didChangeConnectionStatus:)"
        let mismatches = try fixture.mismatches { graph in
            try graph.setDeclaration(
                "func terminal(_ terminal: Terminal, didChangeConnectionState status: ConnectionStatus)", at: path)
        }
        #expect(mismatches.contains {
            $0.kind == .missingMember && $0.type == "TerminalDelegate" && $0.detail.contains("didChangeConnectionStatus")
        })
        #expect(mismatches.contains {
            $0.kind == .extraMember && $0.type == "TerminalDelegate" && $0.detail.contains("didChangeConnectionState")
        })
    }

    @Test(arguments: [
        ("MobileReaderDelegate.reader(_:didReportReaderSoftwareUpdateProgress:)",
         "func reader(_ reader: Reader, didReportReaderSoftwareUpdateProgress progress: Double)"),
        ("PaymentIntent.status", "var status: PaymentIntentStatus { get set }"),
        ("PaymentIntentParametersBuilder.build()", "override func build() -> PaymentIntentParameters"),
        ("Terminal.isInitialized()", "static func isInitialized() -> Bool"),
        ("Terminal.connectedReader", "var connectedReader: Reader { get }"),
        ("Terminal.connectReader(_:connectionConfig:completion:)",
         "func connectReader(_ reader: Reader, config: ConnectionConfiguration, completion: @escaping ReaderCompletionBlock)"),
        ("Terminal.stringFromReaderInputOptions(_:)", "class func stringFromReaderInputOptions(_ options: ReaderInputOptions) -> String"),
        ("Reader.batteryLevel", "var batteryLevel: Float? { get }"),
        ("ErrorKey.message", "static var message: ErrorKey { get }"),
    ])
    func aChangeACallerWouldNoticeIsReported(path: String, doctored: String) throws {
        let fixture = try SurfaceFixture.load()
        let type = String(path.prefix { $0 != "." })
        let mismatches = try fixture.mismatches { graph in try graph.setDeclaration(doctored, at: path) }
        #expect(mismatches.contains { $0.kind == .missingMember && $0.type == type })
        #expect(mismatches.contains { $0.kind == .extraMember && $0.type == type && $0.detail == doctored })
    }

    @Test func anAsyncFormThatIsNotAsyncIsReported() throws {
        let fixture = try SurfaceFixture.load()
        let mismatches = try fixture.mismatches { graph in
            let index = try #require(graph.symbols.firstIndex {
                $0.path == "Terminal.connectReader(_:connectionConfig:)"
            })
            graph.symbols[index].declarationFragments = [
                .init(spelling: "func connectReader(_ reader: Reader, connectionConfig: ConnectionConfiguration) throws -> Reader"),
            ]
        }
        #expect(mismatches.contains {
            $0.kind == .missingMember && $0.type == "Terminal" && $0.detail.contains("async throws -> Reader")
        })
    }

    @Test func removalsAreReported() throws {
        let fixture = try SurfaceFixture.load()
        let paymentIntent = try fixture.graph.id(of: "PaymentIntent")
        let mismatches = try fixture.mismatches { graph in
            let removed: Set = ["Terminal.shared", "ErrorCode.Code.canceled", "ErrorCode.canceled", "ErrorKey"]
            graph.symbols.removeAll { removed.contains($0.path) }
            graph.relationships.removeAll { $0.source == paymentIntent && $0.targetFallback == "Foundation.NSCopying" }
            let alias = try #require(graph.symbols.firstIndex { $0.path == "ErrorCompletionBlock" })
            graph.symbols.remove(at: alias)
        }
        #expect(mismatches.contains { $0.kind == .missingMember && $0.type == "Terminal" && $0.detail.contains("shared") })
        #expect(mismatches.contains { $0.kind == .missingCase && $0.type == "ErrorCode.Code" && $0.detail == "canceled" })
        #expect(mismatches.contains {
            $0.kind == .missingMember && $0.type == "ErrorCode" && $0.detail.contains("static var canceled")
        })
        #expect(mismatches.contains { $0.kind == .missingType && $0.type == "ErrorKey" })
        #expect(mismatches.contains { $0.kind == .missingConformance && $0.type == "PaymentIntent" && $0.detail == "NSCopying" })
        #expect(mismatches.contains { $0.kind == .missingMember && $0.type == "top level" && $0.detail.contains("ErrorCompletionBlock") })
    }

    @Test func additionsAreReported() throws {
        let fixture = try SurfaceFixture.load()
        let terminal = try fixture.graph.id(of: "Terminal")
        let mismatches = fixture.mismatches { graph in
            graph.add("swift.struct", "TerminalHelper", "struct TerminalHelper")
            graph.add("swift.method", "Terminal.resetForTesting()", "func resetForTesting()")
            graph.add("swift.enum.case", "PaymentIntentStatus.refunded", "case refunded")
            graph.add("swift.func", "makeTerminal()", "func makeTerminal() -> Terminal")
            graph.relationships.append(.init(kind: "conformsTo", source: terminal, target: "s:s8SendableP",
                                             targetFallback: "Swift.Sendable"))
        }
        #expect(mismatches.contains { $0.kind == .extraType && $0.type == "TerminalHelper" })
        #expect(mismatches.contains { $0.kind == .extraMember && $0.type == "Terminal" && $0.detail == "func resetForTesting()" })
        #expect(mismatches.contains { $0.kind == .extraCase && $0.type == "PaymentIntentStatus" && $0.detail == "refunded" })
        #expect(mismatches.contains { $0.kind == .extraMember && $0.type == "top level" && $0.detail.contains("makeTerminal") })
        #expect(mismatches.contains { $0.kind == .extraConformance && $0.type == "Terminal" && $0.detail == "Sendable" })
    }

    @Test func typeLevelChangesAreReported() throws {
        let fixture = try SurfaceFixture.load()
        let bluetooth = try fixture.graph.id(of: "BluetoothConnectionConfiguration")
        let mismatches = try fixture.mismatches { graph in
            graph.symbols[try graph.index(of: "Reader")].kind = .init(identifier: "swift.struct")
            try graph.setDeclaration("protocol DiscoveryDelegate : AnyObject", at: "DiscoveryDelegate")
            graph.relationships.removeAll { $0.kind == "inheritsFrom" && $0.source == bluetooth }
            try graph.setDeclaration("init?(rawValue: Int)", at: "PaymentIntentStatus.init(rawValue:)")
        }
        #expect(mismatches.contains { $0.kind == .kindDiffers && $0.type == "Reader" })
        #expect(mismatches.contains { $0.kind == .declarationDiffers && $0.type == "DiscoveryDelegate" })
        #expect(mismatches.contains { $0.kind == .superclassDiffers && $0.type == "BluetoothConnectionConfiguration" })
        #expect(mismatches.contains {
            $0.kind == .extraMember && $0.type == "PaymentIntentStatus" && $0.detail == "init?(rawValue: Int)"
        })
    }

    @Test func optionalAndRequiredRequirementsAreTold() throws {
        let fixture = try SurfaceFixture.load()
        let optional = "ReaderDelegate.readerDidFailReconnect(_:)"
        let required = try fixture.graph.id(of: "OfflineDelegate.terminal(_:didReportForwardingError:)")
        let mismatches = fixture.mismatches { graph in
            let defaults = Set(graph.relationships.filter { $0.kind == "defaultImplementationOf" }.map(\.source))
            graph.symbols.removeAll { $0.path == optional && defaults.contains($0.identifier.precise) }
            graph.add("swift.method", "OfflineDelegate.terminal(_:didReportForwardingError:)",
                      "func terminal(_ terminal: Terminal, didReportForwardingError error: any Error)")
            graph.relationships.append(.init(kind: "defaultImplementationOf",
                                             source: "s:doctored.OfflineDelegate.terminal(_:didReportForwardingError:)",
                                             target: required, targetFallback: nil))
        }
        #expect(mismatches.contains {
            $0.kind == .optionalWithoutDefault && $0.type == "ReaderDelegate" && $0.detail.contains("readerDidFailReconnect")
        })
        #expect(mismatches.contains {
            $0.kind == .unexpectedDefault && $0.type == "OfflineDelegate" && $0.detail.contains("didReportForwardingError")
        })
    }

    @Test func deprecationAndLeftOutMembersAreChecked() throws {
        let fixture = try SurfaceFixture.load()
        let mismatches = try fixture.mismatches { graph in
            graph.symbols[try graph.index(of: "PaymentIntentParameters.description")].availability = nil
            graph.add("swift.property", "Refund.refundedTwice", "var refundedTwice: Bool { get }")
            graph.add("swift.property", "BluetoothConnectionConfiguration.delegate",
                      "weak var delegate: (any MobileReaderDelegate)? { get }")
        }
        #expect(mismatches.contains { $0.kind == .deprecationDiffers && $0.type == "PaymentIntentParameters" })
        #expect(mismatches.contains { $0.kind == .extraMember && $0.type == "Refund" && $0.detail.contains("refundedTwice") })
        #expect(mismatches.contains { $0.kind == .staleAllowance && $0.type == "BluetoothConnectionConfiguration" })
    }

    /// A type a bridge names must be complete; one no bridge names may leave members out, but what it declares must
    /// still be the SDK's.
    @Test func typesTheBridgeNamesMustBeComplete() throws {
        var fixture = try SurfaceFixture.load()
        #expect(fixture.complete.contains("Refund"))
        let removed = "Refund.chargeId"
        let withoutMember = try fixture.mismatches { graph in graph.symbols.remove(at: try graph.index(of: removed)) }
        #expect(withoutMember.contains { $0.kind == .missingMember && $0.type == "Refund" && $0.detail.contains("chargeId") })
        // Were `Refund` named by no bridge file, leaving the member out would be allowed.
        fixture.complete.remove("Refund")
        let unnamed = try fixture.mismatches { graph in graph.symbols.remove(at: try graph.index(of: removed)) }
        #expect(!unnamed.contains { $0.type == "Refund" })
        // And a type a bridge names but the mirror does not declare is missing.
        fixture.complete.insert("Refund")
        let refund = try fixture.graph.id(of: "Refund")
        let withoutType = fixture.mismatches { graph in
            graph.symbols.removeAll { $0.identifier.precise == refund || $0.pathComponents.first == "Refund" }
        }
        #expect(withoutType.contains { $0.kind == .missingType && $0.type == "Refund" })
    }

    @Test func aDoctoredReferenceIsReported() throws {
        var fixture = try SurfaceFixture.load()
        let type = try #require(fixture.reference.types.firstIndex { $0.name == "Cancelable" })
        var members = try #require(fixture.reference.types[type].members)
        let completed = try #require(members.firstIndex { $0.swift == "var completed: Bool { get }" })
        members[completed] = SurfaceReference.Member(
            swift: "var isCompleted: Bool { get }", async: nil, objc: nil, optional: nil, deprecated: nil,
            uncertain: nil, swiftOverlay: nil, refinedForSwift: nil)
        fixture.reference.types[type].members = members
        let mismatches = SurfaceComparison(reference: fixture.reference, graph: fixture.graph, complete: fixture.complete).mismatches
        #expect(mismatches.contains { $0.kind == .missingMember && $0.type == "Cancelable" && $0.detail.contains("isCompleted") })
        #expect(mismatches.contains { $0.kind == .extraMember && $0.type == "Cancelable" && $0.detail.contains("completed") })
    }
}
