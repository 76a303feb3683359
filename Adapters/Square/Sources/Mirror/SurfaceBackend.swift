package import Foundation

/// The one seam through which the surface mirror gets its behaviour.
///
/// `SquareMobilePaymentsSurface` declares Square's Mobile Payments SDK API exactly as Swift imports it, so that
/// bridge code written against `MobilePaymentsSDK.shared` compiles on Linux. The declarations themselves decide
/// nothing. Everything the SDK *does* comes from the backend installed here:
///
/// - **The entry point.** ``MobilePaymentsSDK/initialize(squareApplicationID:)`` calls
///   ``initialize(squareApplicationID:)`` and ``MobilePaymentsSDK/shared`` returns ``sdkManager``. From that
///   `SDKManager` the bridge reaches every manager, observer list, payment, reader and handle, so a backend that vends
///   a simulator-driven `SDKManager` drives the whole surface. The managers are protocols: the backend implements
///   them, in another target of this package, with the simulator behind them.
/// - **SDK-made objects.** Payments, card details, locations, settings, reader infos and handles are protocols too.
///   The `package` classes in `SurfaceObjects*.swift` (``SurfaceOnlinePayment``, ``SurfaceReaderInfo``,
///   ``SurfacePaymentHandle``…) conform to them with plain stored properties or closures, so a backend can build
///   them without redeclaring anything; it may also conform its own classes.
/// - **What the SDK produces but does not document**: the text of `description`, `errorDescription`, `debugInfo`
///   and the localized reader-status strings (``text(_:)``), the Codable representation of the SDK's enums
///   (``encode(_:to:)`` / ``decodeCase(of:from:)``, by case name), the `allCases` of `AdditionalPaymentMethods`,
///   the device clock and the unstated default of `PaymentParameters.autocomplete`. The mirror never guesses these.
///
/// Behaviour that is certain from the SDK's own declarations and documentation (stored parameters, option-set
/// arithmetic, `totalMoney = amountMoney + tipMoney`, `Money(totaling:)` in one currency, error codes equal to raw
/// values) is implemented in the mirror and needs no backend.
///
/// Until a backend is installed, every member that needs one stops the process with
/// `preconditionFailure("SquareMobilePaymentsSurface: no backend installed")`: a missing backend is a test-setup bug,
/// never a silent default.
///
/// ## Driving the surface from a simulator
///
/// 1. In a target of this package that depends on `SquareMobilePaymentsSurface` and the Square simulator (the
///    `package` API is visible there, never to apps), write a class conforming to `SurfaceBackend`, and classes
///    conforming to `SDKManager`, `AuthorizationManager`, `PaymentManager`, `OfflinePaymentQueue`, `ReaderManager`
///    and `SettingsManager` that translate each call to the simulator.
/// 2. Hand SDK objects out as the `Surface…` classes: a finished payment as ``SurfaceOnlinePayment`` or
///    ``SurfaceOfflinePayment``, a started one as a ``SurfacePaymentHandle`` whose closures cancel in the simulator,
///    readers as ``SurfaceReaderInfo`` (updated in place, then `readerDidChange(_:change:)`), and so on.
/// 3. Call the app's delegates and observers as Square does: `PaymentManagerDelegate` for every outcome (the
///    optional callbacks too: unimplemented ones do nothing), errors as the mirrored error enums so that
///    `(error as NSError).code` is the raw value, completion handlers exactly once.
/// 4. Install it before the code under test first touches `MobilePaymentsSDK`, and uninstall it afterwards. The slot
///    is process-global: tests that install backends must not run in parallel with each other (hold
///    ``SurfaceBackendLease`` while installed; every test target of the package shares the process).
///
/// ```swift
/// SurfaceBackendSlot.install(SimulatorSurfaceBackend(simulator: simulator, clock: clock))  // Mirror/Backend
/// defer { SurfaceBackendSlot.uninstall() }
/// MobilePaymentsSDK.initialize(squareApplicationID: "sandbox-sq0idb-…")
/// let sdk = MobilePaymentsSDK.shared                                           // the backend's SDKManager
/// ```
///
/// The bridge itself never sees this protocol: it is written against `MobilePaymentsSDK.shared` only, so the same
/// source compiles against the real SDK.
package protocol SurfaceBackend: AnyObject, Sendable {
    /// `MobilePaymentsSDK.initialize(squareApplicationID:)`: the SDK requires it once, before any other call.
    func initialize(squareApplicationID: String)
    /// What `MobilePaymentsSDK.shared` returns.
    var sdkManager: any SDKManager { get }
    /// The device clock (`PaymentParameters.createdAt`). A simulator answers with its injectable clock.
    var now: Date { get }
    /// The initial `PaymentParameters.autocomplete`, which Square's documentation does not state (the Payments API
    /// default is `true`). Configurable because it is unverified.
    var defaultAutocomplete: Bool { get }
    /// Text the SDK produces but does not document.
    func text(_ request: SurfaceText) -> String
    /// `AdditionalPaymentMethods.allCases`, as the names of its static members (`"cash"`, `"keyed"`, `"tapToPay"`,
    /// `"all"`), in order. The SDK does not document which values it lists.
    func allCaseNames(ofOptionSet type: String) -> [String]
    /// `Encodable.encode(to:)` of an SDK enum. The SDK's representation is not documented; the case is given by name.
    func encode(_ value: SurfaceCase, to encoder: any Encoder) throws
    /// `Decodable.init(from:)` of an SDK enum: the name of the case that `decoder` holds for `type`.
    func decodeCase(of type: String, from decoder: any Decoder) throws -> String
}

/// One case of one of the SDK's enums, named as Square names them (`PaymentStatus` / `completed`).
package struct SurfaceCase: Hashable, Sendable, CustomStringConvertible {
    /// The enum's Swift name, e.g. `"PaymentStatus"`.
    package let type: String
    /// The case's Swift name, e.g. `"completed"` (`"default"` for `PromptMode.default`).
    package let name: String

    /// Names one case.
    package init(type: String, name: String) {
        self.type = type
        self.name = name
    }

    /// `"PaymentStatus.completed"`.
    package var description: String { "\(type).\(name)" }
}

/// A piece of text the SDK produces but Square does not document, requested from the backend.
package enum SurfaceText: Hashable, Sendable {
    /// `CustomStringConvertible.description` of an enum value.
    case description(SurfaceCase)
    /// `LocalizedError.errorDescription` of an error case.
    case errorDescription(SurfaceCase)
    /// `debugInfo.code` of an error case.
    case debugCode(SurfaceCase)
    /// `debugInfo.message` of an error case.
    case debugMessage(SurfaceCase)
    /// `Currency.currencyCode` of a case that is not an ISO 4217 currency (`Currency.unknown`).
    case currencyCode(SurfaceCase)
    /// `description` of an option set (`CardInputMethods`, `AdditionalPaymentMethods`) and the names of the
    /// documented members it contains.
    case optionSetDescription(type: String, rawValue: Int, members: [String])
    /// `Money.description`.
    case moneyDescription(amount: UInt, currency: SurfaceCase)
    /// `ReaderStatusInfo.localizedTitle(for:)`.
    case readerStatusTitle(status: SurfaceCase, reason: SurfaceCase?, model: SurfaceCase)
    /// `ReaderStatusInfo.localizedDescription(for:)`.
    case readerStatusDescription(status: SurfaceCase, reason: SurfaceCase?, model: SurfaceCase)
    /// `ReaderUnavailableReason.localizedDescription(for:)`.
    case readerUnavailableReasonDescription(reason: SurfaceCase, model: SurfaceCase)
}

/// Where the process's one ``SurfaceBackend`` lives. Empty until a test or a later stage installs one.
package enum SurfaceBackendSlot {
    private static let storage = LockedBackend()

    /// Installs `backend`, replacing any installed one. Objects handed out by the previous backend keep working
    /// only as far as that backend does.
    package static func install(_ backend: any SurfaceBackend) {
        storage.set(backend)
    }

    /// Removes the installed backend; members that need one stop the process again.
    package static func uninstall() {
        storage.set(nil)
    }

    /// The installed backend, if any.
    package static var installed: (any SurfaceBackend)? {
        storage.get()
    }

    /// The installed backend. Stops the process when none is installed: the mirror has no behaviour of its own.
    static var current: any SurfaceBackend {
        guard let backend = storage.get() else {
            preconditionFailure("SquareMobilePaymentsSurface: no backend installed")
        }
        return backend
    }
}

/// A lock around the optional backend (the slot is process-global and read from any thread).
private final class LockedBackend: @unchecked Sendable {
    private let lock = NSLock()
    private var backend: (any SurfaceBackend)?

    func get() -> (any SurfaceBackend)? {
        lock.lock()
        defer { lock.unlock() }
        return backend
    }

    func set(_ newValue: (any SurfaceBackend)?) {
        lock.lock()
        defer { lock.unlock() }
        backend = newValue
    }
}
