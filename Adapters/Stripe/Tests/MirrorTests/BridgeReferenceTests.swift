import Foundation
import Testing

extension SurfaceReference {
    /// Every name and declaration text the reference holds.
    var texts: [String] {
        var texts = types.flatMap { type in
            [type.name, type.declaration] + (type.members ?? []).flatMap(\.forms) + (type.cases ?? []).map(\.name)
        }
        texts += typealiases.flatMap { [$0.name, $0.swift] } + globals.map(\.swift)
        return texts
    }
}

/// Every mirror declaration a Stripe bridge file uses has a real counterpart in the surface data: the public ones by
/// the mirror-vs-surface comparison, the rest by ``BridgeReferenceCheck`` here.
@Suite struct BridgeReferenceTests {
    static func check() throws -> BridgeReferenceCheck {
        try BridgeReferenceCheck(mirrorFolder: "Adapters/Stripe/Sources/Mirror", packageRoot: SurfaceReference.packageRoot(),
                                 referenceTexts: try SurfaceReference.load().texts)
    }

    @Test func theBridgeUsesNoMirrorOnlyDeclaration() throws {
        let check = try Self.check()
        // The check knows what to look for: the backend's initializer label and the backend slot, at least.
        #expect(check.mirrorOnlyNames.isSuperset(of: ["surface", "SurfaceBackend", "SurfaceBackendSlot"]))
        #expect(check.mirrorOnlySetters.contains("chargeId"))
        let violations = check.violations(in: try SurfaceReference.bridgeSources())
        #expect(violations.isEmpty, "\(violations.map(\.description).joined(separator: "\n"))")
    }

    /// A deliberate bad reference in a fixture bridge file: a backend-only initializer, the backend slot, and a
    /// setter only the mirror has. Each compiles over the mirror (same package) and not against the SDK.
    @Test func aBridgeFileUsingAMirrorOnlyDeclarationFails() throws {
        let check = try Self.check()
        let fixture = BridgeSourceScan(files: [.init(name: "StripeBridge+Fixture.swift", code: BridgeSourceScan.code(of: """
            extension StripeTerminalBridge {
                @MainActor func fabricatedRefund() -> Refund {
                    // A refund the SDK never made: `init(surface:…)` is the mirror's, for a backend.
                    let refund = Refund(surface: .backend, stripeId: "re_1", amount: 1, chargeId: nil, created: Date(),
                                        currency: "cad", metadata: [:], status: .succeeded)
                    refund.chargeId = "ch_1"    // the SDK's `chargeId` is read-only
                    _ = SurfaceBackendSlot.installed
                    return refund
                }
            }
            """))])
        let violations = check.violations(in: fixture)
        #expect(violations.contains { $0.name == "surface" })
        #expect(violations.contains { $0.name == "SurfaceBackendSlot" })
        #expect(violations.contains { $0.name == "chargeId" && $0.reason.contains("setter") })
        // Names the SDK has are fine, in code as in comments and strings (which the scan ignores).
        let clean = BridgeSourceScan(files: [.init(name: "Clean.swift", code: BridgeSourceScan.code(of: """
            let parameters = try RefundParametersBuilder(chargeId: "ch_1", amount: 1, currency: "cad").build()
            // Refund(surface: .backend) is only mentioned here.
            let text = "SurfaceBackendSlot"
            """))])
        #expect(check.violations(in: clean).isEmpty)
    }

    @Test func theScanNamesWhatTheBridgeNames() throws {
        let scan = BridgeSourceScan(files: [.init(name: "F.swift", code: BridgeSourceScan.code(of: """
            let code: ErrorCode.Code = .canceled   // Reader in a comment
            let value = Stripe.Refund(x)            // the adapter's type, qualified
            let text = "Cart"
            func f(_ reader: Reader) {}
            """))])
        let named = scan.namedTypes(among: ["ErrorCode", "ErrorCode.Code", "Reader", "Refund", "Cart", "Stripe"])
        #expect(Set(named.keys) == ["ErrorCode.Code", "Reader", "Stripe"])
    }

    /// Issue 20: every bridge line compiles in the mirror build; only the imports may differ.
    @Test func onlyTheImportsDifferBetweenTheMirrorBuildAndTheSDKBuild() throws {
        let folder = SurfaceReference.packageRoot().appendingPathComponent("Adapters/Stripe/Sources/Bridge")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let problems = BridgeSourceScan.mirrorOnlyAlternatives(in: text)
            #expect(problems.isEmpty, "\(file): \(problems.joined(separator: "; "))")
        }
        // The check sees an alternative implementation: the shape the refunds file had before issue 20.
        let before = """
            #if TENDER_SURFACE_MIRROR
            import StripeTerminalSurface
            #elseif StripeTerminalSDK
            import StripeTerminal
            #endif
            #if StripeTerminalSDK || TENDER_SURFACE_MIRROR
            extension StripeTerminalBridge {
                #if TENDER_SURFACE_MIRROR
                func refund() { refuse() }
                #else
                func refund() { terminal.confirmRefund { _, _ in } }
                #endif
            }
            #else
            let nothing = 0
            #endif
            """
        let problems = BridgeSourceScan.mirrorOnlyAlternatives(in: before)
        #expect(problems.contains { $0.hasPrefix("line 9:") && $0.contains("refuse()") })
        #expect(problems.contains { $0.hasPrefix("line 11:") && $0.contains("confirmRefund") })
        #expect(problems.contains { $0.hasPrefix("line 14:") && $0.contains("guard") })
    }

    /// `Tests/BridgeOverSurface` (the target the tests and the demo build with `TENDER_SURFACE_MIRROR`) holds a
    /// link to each bridge file and nothing else, so what is checked is what ships.
    @Test func theOverSurfaceTargetCompilesExactlyTheBridgeFiles() throws {
        let root = SurfaceReference.packageRoot()
        let bridge = root.appendingPathComponent("Adapters/Stripe/Sources/Bridge")
        let links = root.appendingPathComponent("Adapters/Stripe/Tests/BridgeOverSurface")
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
