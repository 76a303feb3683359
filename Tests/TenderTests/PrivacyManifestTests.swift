import Foundation
import Testing

/// Every shipping module that calls an API Apple requires a reason for declares it in its `PrivacyInfo.xcprivacy`
/// (App Store review rejects an app whose binaries call one undeclared). The sources are scanned for the calls, so a
/// new call without a declaration fails here.
@Suite("Privacy manifests")
struct PrivacyManifestTests {
    /// The required-reason API categories, with the calls that put a module in each (Apple's list, as Swift spells
    /// the calls).
    private static let categories: [(category: String, pattern: String)] = [
        ("NSPrivacyAccessedAPICategoryFileTimestamp",
         #"\b(stat|fstat|lstat|fstatat|getattrlist|getattrlistbulk|fgetattrlist|getattrlistat)\(|\.(creationDate|modificationDate|contentModificationDate)\b"#),
        ("NSPrivacyAccessedAPICategorySystemBootTime", #"\b(systemUptime|mach_absolute_time)\b"#),
        ("NSPrivacyAccessedAPICategoryDiskSpace", #"\b(statfs|statvfs|fstatfs|fstatvfs|volumeAvailableCapacity\w*)\b"#),
        ("NSPrivacyAccessedAPICategoryActiveKeyboards", #"\bactiveInputModes\b"#),
        ("NSPrivacyAccessedAPICategoryUserDefaults", #"\bUserDefaults\b"#),
    ]

    /// The source folders of the modules an app ships.
    private static let shipping = [
        "Sources/Tender", "Sources/TenderWire", "Sources/TenderUI", "Adapters/Stripe/Sources/Adapter",
        "Adapters/Square/Sources/Adapter", "Adapters/Stripe/Sources/Bridge", "Adapters/Square/Sources/Bridge",
    ]

    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The categories a folder's Swift sources call (comment lines ignored).
    private static func called(in folder: String) throws -> Set<String> {
        let directory = root.appendingPathComponent(folder)
        let files = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []
        var found = Set<String>()
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                .joined(separator: "\n")
            for (category, pattern) in categories where code.range(of: pattern, options: .regularExpression) != nil {
                found.insert(category)
            }
        }
        return found
    }

    /// The categories a folder's manifest declares with at least one reason; `nil` when it has no manifest.
    private static func declared(in folder: String) throws -> Set<String>? {
        let url = root.appendingPathComponent(folder).appendingPathComponent("PrivacyInfo.xcprivacy")
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(plist["NSPrivacyTracking"] as? Bool == false, "\(folder): Tender does no tracking")
        #expect((plist["NSPrivacyCollectedDataTypes"] as? [Any])?.isEmpty == true, "\(folder): Tender collects no data")
        let types = plist["NSPrivacyAccessedAPITypes"] as? [[String: Any]] ?? []
        return Set(types.compactMap { entry in
            guard let reasons = entry["NSPrivacyAccessedAPITypeReasons"] as? [String], !reasons.isEmpty else { return nil }
            return entry["NSPrivacyAccessedAPIType"] as? String
        })
    }

    @Test("each shipping module's manifest declares, with a reason, every required-reason API its sources call")
    func declaresWhatIsCalled() throws {
        var checked = 0
        for folder in Self.shipping {
            let calls = try Self.called(in: folder)
            guard !calls.isEmpty else { continue }
            let declared = try #require(try Self.declared(in: folder), "\(folder) calls \(calls) but has no manifest")
            #expect(calls.isSubset(of: declared), "\(folder): \(calls.subtracting(declared)) called, not declared")
            checked += 1
        }
        // The ledger's `stat` and the Square bridge's `UserDefaults` today.
        #expect(checked >= 2)
    }

    @Test("the scan finds a call: a source with stat() needs the file-timestamp reason")
    func scanFindsCalls() throws {
        #expect(try Self.called(in: "Sources/Tender").contains("NSPrivacyAccessedAPICategoryFileTimestamp"))
        #expect(try Self.called(in: "Adapters/Square/Sources/Bridge").contains("NSPrivacyAccessedAPICategoryUserDefaults"))
    }
}
