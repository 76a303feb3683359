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
}
