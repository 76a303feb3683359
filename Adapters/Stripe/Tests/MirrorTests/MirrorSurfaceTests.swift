import Foundation
import Testing

/// The mirror-vs-surface check: the public declarations of `StripeTerminalSurface`, as the toolchain extracts them,
/// against `Tests/Reference/sdk-surface/stripe-terminal-ios.json` (the SDK's whole documented surface): everything the
/// mirror declares is there with exactly that shape, and every type a bridge file names is mirrored completely.
@Suite struct MirrorSurfaceTests {
    /// The module's symbol graph, extracted once per test run (a second or two).
    static let extracted = Result { try SymbolGraphExtractor.extract() }

    @Test func mirrorMatchesTheReferenceBothWays() throws {
        let reference = try SurfaceReference.load()
        let complete = try reference.typesNamedByTheBridge()
        let comparison = SurfaceComparison(reference: reference, graph: try Self.extracted.get(), complete: complete)
        let listing = comparison.mismatches.map(\.description).joined(separator: "\n")
        #expect(comparison.mismatches.isEmpty, "\(comparison.mismatches.count) mismatches:\n\(listing)")

        // The reference is the full 5.5.0 surface, and the check looked at all of it.
        let counts = comparison.counts
        let referenceMembers = reference.types.reduce(0) { $0 + ($1.members?.count ?? 0) }
        #expect(reference.types.count == 210 && referenceMembers == 873, "the reference is Stripe 5.5.0's full surface")
        #expect(reference.referencedButNotDescribed.isEmpty)
        #expect(counts.typesInReference == reference.types.count)
        #expect(counts.membersInReference == referenceMembers)
        // Every type a bridge names is mirrored, completely; the bridge names the SDK's central types at least.
        #expect(complete.isSuperset(of: ["Terminal", "Reader", "PaymentIntent", "Refund", "RefundParameters",
                                         "MobileReaderDelegate", "ErrorCode", "ErrorCode.Code"]))
        #expect(counts.typesRequiredComplete == complete.count)
        #expect(counts.typesComplete == complete.count)
        #expect(counts.membersLeftOut == StripeSurfaceAllowances.leftOut.count)
        #expect(counts.typealiasesMirrored == reference.typealiases.count)
        #expect(counts.globalsMirrored == reference.globals.count)
        #expect(counts.casesMirrored == counts.casesInReference)
        print("""
            StripeTerminalSurface vs \(reference.sdk) \(reference.version): \
            types \(counts.typesMirrored)/\(counts.typesInReference) mirrored \
            (\(counts.typesComplete)/\(counts.typesRequiredComplete) named by the bridge, all complete; \
            \(counts.typesPartial) partial), \
            members \(counts.membersMirrored)/\(counts.membersInReference) \
            (\(counts.membersLeftOut) left out, \(counts.membersWithDeviation) with a deviation, \
            \(counts.membersCheckedByTypedReference) checked by typed reference, \(counts.uncertainMirrored) uncertain), \
            async forms \(counts.asyncFormsMirrored)/\(counts.asyncFormsInReference), \
            enum cases \(counts.casesMirrored)/\(counts.casesInReference), derived members \(counts.derivedMembers), \
            typealiases \(counts.typealiasesMirrored)/\(counts.typealiasesInReference), \
            globals \(counts.globalsMirrored)/\(counts.globalsInReference)
            """)
    }

    @Test func aMissingReferenceFailsTheCheck() {
        let nowhere = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/stripe-terminal-ios.json")
        #expect(throws: SurfaceReference.LoadError.self) { try SurfaceReference.load(from: nowhere) }
        let fromEnvironment = SurfaceReference.referenceURL(environment: ["TENDER_SDK_SURFACE_DIR": "/elsewhere"])
        #expect(fromEnvironment.path == "/elsewhere/stripe-terminal-ios.json")
        let byDefault = SurfaceReference.referenceURL(environment: [:])
        #expect(byDefault.path.hasSuffix("/Tests/Reference/sdk-surface/stripe-terminal-ios.json"))
    }

    @Test func normalizationKeepsWhatCallersCanSee() {
        let normalize = DeclarationNormalizer.normalize
        #expect(normalize("func f(_ x: [String : Any]) -> (any Error)?") == normalize("func f(_ x: [String: Any]) -> (Error)?"))
        #expect(normalize("@discardableResult override func build() throws -> T") == normalize("func build() throws -> T"))
        #expect(normalize("var delegate: (any TerminalDelegate)?") == normalize("var delegate: (any TerminalDelegate)? { get set }"))
        // Differences a caller would notice stay differences.
        #expect(normalize("var x: Float { get }") != normalize("var x: Double { get }"))
        #expect(normalize("var x: Int { get }") != normalize("var x: Int { get set }"))
        #expect(normalize("func f() async throws") != normalize("func f() throws"))
        #expect(normalize("func f(_ a: Int)") != normalize("func f(a: Int)"))
        #expect(normalize("func f(_ a: Int = 0)") != normalize("func f(_ a: Int)"))
        #expect(normalize("class func f()") != normalize("static func f()"))
        #expect(normalize("var company: Int { get }") != normalize("var comp: Int { get }"))
    }
}
