import Foundation
import Testing
import Tender
import TenderTesting
import TenderSquare
import TenderSquareSimulator
import TenderStripe
import TenderStripeSimulator
import TenderTestKit

/// What both adapters' configurations have, under the same names (issue 19: "the adapters are twins").
protocol TwinConfiguration: Sendable {
    init()
    var searchConsistencyWindow: TimeInterval { get set }
    var refundChangeWindow: TimeInterval { get set }
    var simulatedReaders: Bool { get set }
}

extension StripeProcessor.Configuration: TwinConfiguration {}
extension SquareProcessor.Configuration: TwinConfiguration {}

/// The adapters' shared shape: one concurrency shape, one configuration vocabulary, one fault vocabulary, one
/// layout, and a public API within the budget.
@Suite("The adapters are twins")
struct AdapterTwinsTests {
    @Test("both processors are actors")
    func sameConcurrencyShape() {
        func isActor<T: Actor>(_: T.Type) -> Bool { true }
        #expect(isActor(StripeProcessor.self))
        #expect(isActor(SquareProcessor.self))
    }

    @Test("the same configuration role reaches the processor under the same name in both")
    func sameConfigurationNames() async {
        func configured<C: TwinConfiguration>(_: C.Type) -> C {
            var configuration = C()
            configuration.refundChangeWindow = 1_234
            configuration.searchConsistencyWindow = 5
            return configuration
        }
        let stripe = await StripeSimulator.preview()
            .makeProcessor(configuration: configured(StripeProcessor.Configuration.self))
        let square = await SquareSimulator.preview()
            .makeProcessor(configuration: configured(SquareProcessor.Configuration.self))
        #expect(await stripe.capabilities().refundChangeWindow == 1_234)
        #expect(await square.capabilities().refundChangeWindow == 1_234)
    }

    @Test("both processors are built with the same labels for the same roles")
    func sameInitializerLabels() async {
        let stripeSimulator = await StripeSimulator.preview()
        let squareSimulator = await SquareSimulator.preview()
        let stripe = StripeProcessor(client: stripeSimulator, captureService: stripeSimulator.server,
                                     serverLookup: stripeSimulator.server, refundService: stripeSimulator.server,
                                     configuration: .withSimulatedReaders, clock: ManualClock(),
                                     emitter: ProcessorEventEmitter())
        let square = SquareProcessor(client: squareSimulator, captureService: squareSimulator.server,
                                     serverLookup: squareSimulator.server, refundService: squareSimulator.server,
                                     configuration: .withSimulatedReaders, clock: ManualClock(),
                                     emitter: ProcessorEventEmitter())
        #expect([stripe.name, square.name] == ["stripe", "square"])
    }

    @Test("an app's preview path: a simulator's public factory gives a processor that finds and connects a reader")
    func previewPath() async throws {
        let stripe = await StripeSimulator.preview().makeProcessor()
        let stripeReader = try #require(try await stripe.discoverReaders(timeout: 1).first)
        #expect(try await stripe.connectReader(stripeReader, locationID: "tml_preview").isSimulated)
        let square = await SquareSimulator.preview().makeProcessor()
        try await square.authorize(accessToken: "EAAA_preview", locationID: "L_PREVIEW")
        let squareReader = try #require(try await square.discoverReaders(timeout: 1).first)
        #expect(try await square.connectReader(squareReader, locationID: "L_PREVIEW").isSimulated)
    }

    @Test("one fault vocabulary: the conformance kit's faults have the same names in both simulators")
    func sharedFaultVocabulary() {
        let kit: [ConformanceFault] = [.confirmNotReceived, .answerLostAfterCharge, .holdNextCard, .holdNextAuthorization]
        let stripe: [StripeSimulator.Fault] = [.confirmNotReceived, .answerLostAfterCharge, .holdNextCard,
                                               .holdNextAuthorization]
        let square: [SquareSimulator.Fault] = [.confirmNotReceived, .answerLostAfterCharge, .holdNextCard,
                                               .holdNextAuthorization]
        let names = kit.map { String(describing: $0) }
        #expect(stripe.map { String(describing: $0) } == names)
        #expect(square.map { String(describing: $0) } == names)
    }

    @Test("Adapters/Stripe and Adapters/Square have the same table of contents")
    func sameLayout() throws {
        let root = Self.repository.appendingPathComponent("Adapters")
        #expect(try Self.folders(root.appendingPathComponent("Stripe"))
            == Self.folders(root.appendingPathComponent("Square")))
        // The adapter module: file for file, the vendor's name aside.
        let stripeAdapter = try Self.files(root.appendingPathComponent("Stripe/Sources/Adapter"), dropping: "Stripe")
        let squareAdapter = try Self.files(root.appendingPathComponent("Square/Sources/Adapter"), dropping: "Square")
        #expect(stripeAdapter == squareAdapter)
        // The simulators: every Square concern has its Stripe twin (Stripe's SDK also does refunds and idempotency).
        let stripeSimulator = try Self.files(root.appendingPathComponent("Stripe/Sources/Simulator"), dropping: "Stripe")
        let squareSimulator = try Self.files(root.appendingPathComponent("Square/Sources/Simulator"), dropping: "Square")
        #expect(squareSimulator.isSubset(of: stripeSimulator))
        #expect(stripeSimulator.subtracting(squareSimulator) == ["Simulator+Idempotency.swift", "Simulator+Refunds.swift"])
        // The mirrors' simulator-driven backends: the same entry points, each its own target beside the mirror.
        for vendor in ["Stripe", "Square"] {
            let backend = try Self.files(root.appendingPathComponent("\(vendor)/Sources/Mirror/Backend"), dropping: vendor)
            #expect(backend.isSuperset(of: ["SimulatorSurfaceBackend.swift", "SimulatorSurfaceRelays.swift"]), "\(vendor)")
        }
        let manifest = try String(contentsOf: Self.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        for (backend, vendor) in [("StripeTerminalSurfaceBackend", "Stripe"), ("SquareMobilePaymentsSurfaceBackend", "Square")] {
            #expect(manifest.contains("name: \"\(backend)\""), "no \(backend) target")
            #expect(manifest.contains("path: \"Adapters/\(vendor)/Sources/Mirror/Backend\""), "\(vendor)")
            #expect(manifest.contains("path: \"Adapters/\(vendor)/Sources/Mirror\", exclude: [\"Backend\"]"), "\(vendor)")
        }
    }

    @Test("each adapter module has at most 50 public declarations, each bridge at most 15")
    func publicAPIBudget() throws {
        let adapters = Self.repository.appendingPathComponent("Adapters")
        let budgets: [(String, Int)] = [
            ("Stripe/Sources/Adapter", 50), ("Square/Sources/Adapter", 50),
            ("Stripe/Sources/Bridge", 15), ("Square/Sources/Bridge", 15),
        ]
        for (folder, budget) in budgets {
            let count = try Self.publicDeclarations(in: adapters.appendingPathComponent(folder))
            #expect(count > 0 && count <= budget, "\(folder): \(count) public declarations, budget \(budget)")
        }
    }

    // MARK: Helpers

    /// The repository's root (this file is Tests/AdapterTwinsTests/AdapterTwinsTests.swift).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Every folder under `root`, relative to it.
    static func folders(_ root: URL) throws -> Set<String> {
        var found: Set<String> = []
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey])
        while let url = enumerator?.nextObject() as? URL {
            if try url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory == true {
                found.insert(String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count)))
            }
        }
        return found
    }

    /// The Swift files directly in `folder`, with the vendor's name removed.
    static func files(_ folder: URL, dropping vendor: String) throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
            .map { $0.replacingOccurrences(of: vendor, with: "") })
    }

    /// Lines that declare something `public` or `open` (after attributes), as `Scripts/api-check.sh` counts them.
    static func publicDeclarations(in folder: URL) throws -> Int {
        var count = 0
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
                var rest = line.drop(while: { $0 == " " || $0 == "\t" })
                while rest.first == "@", let space = rest.firstIndex(of: " ") {
                    let attribute = rest[rest.startIndex..<space]
                    guard attribute.allSatisfy({ $0.isLetter || $0 == "_" || $0 == "(" || $0 == ")" || $0 == "@" })
                    else { break }
                    rest = rest[rest.index(after: space)...]
                }
                // An import is not a declaration (Scripts/api-check.sh does not count `public import` either).
                if rest.hasPrefix("public import ") { continue }
                if rest.hasPrefix("public ") || rest.hasPrefix("open ") || rest == "public" { count += 1 }
            }
        }
        return count
    }
}
