import Foundation
import SquareMobilePaymentsSurface

/// A ``SurfaceBackend`` for the mirror's own tests: answers with fixed, recognisable values and records what it was
/// asked. Not a simulator: it proves the seam, not Square's behaviour.
final class RecordingSurfaceBackend: SurfaceBackend, @unchecked Sendable {
    private let lock = NSLock()
    private var _initializedWith: [String] = []
    private var _textRequests: [SurfaceText] = []

    let manager = StubSDKManager()
    let now: Date
    let defaultAutocomplete: Bool
    /// What ``allCaseNames(ofOptionSet:)`` answers.
    let optionSetNames: [String]

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    init(now: Date = Date(timeIntervalSince1970: 1_800_000_000), defaultAutocomplete: Bool = true,
         optionSetNames: [String] = ["cash", "keyed", "tapToPay"]) {
        self.now = now
        self.defaultAutocomplete = defaultAutocomplete
        self.optionSetNames = optionSetNames
    }

    var initializedWith: [String] { locked { _initializedWith } }
    var textRequests: [SurfaceText] { locked { _textRequests } }

    func initialize(squareApplicationID: String) {
        locked { _initializedWith.append(squareApplicationID) }
    }

    var sdkManager: any SDKManager { manager }

    /// Every text is `"text:<request>"`, so a test sees which request produced it.
    func text(_ request: SurfaceText) -> String {
        locked { _textRequests.append(request) }
        if case .description(let value) = request { return "<\(value.name)>" }
        return "text:\(request)"
    }

    func allCaseNames(ofOptionSet type: String) -> [String] { optionSetNames }

    func encode(_ value: SurfaceCase, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value.name)
    }

    func decodeCase(of type: String, from decoder: any Decoder) throws -> String {
        try decoder.singleValueContainer().decode(String.self)
    }
}

/// An `SDKManager` whose managers are never used by these tests (they stop the process if touched).
final class StubSDKManager: NSObject, SDKManager {
    var authorizationManager: any AuthorizationManager { fatalError("not used by the mirror's tests") }
    var paymentManager: any PaymentManager { fatalError("not used by the mirror's tests") }
    var readCardInfoManager: any ReadCardInfoManager { SurfaceReadCardInfoManager() }
    var readerManager: any ReaderManager { fatalError("not used by the mirror's tests") }
    var settingsManager: any SettingsManager { fatalError("not used by the mirror's tests") }
}
