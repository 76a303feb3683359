import Foundation
import SquareMobilePaymentsSurface
import TenderSquare
import TenderSquareSimulator

/// `TapToPaySettings` over the simulator's (``SquareSimulator/tapToPaySettings``): `isDeviceCapable` answers at once;
/// the account calls answer through their completions on the main queue, as Square's, with the simulator's
/// ``Square/TapToPayReaderError`` as the SDK's `TapToPayReaderError` (an unsupported device, linking that fails or is
/// already done, an SDK that is not authorized).
final class SimulatedTapToPaySettings: NSObject, TapToPaySettings, @unchecked Sendable {
    private let backend: SimulatorSurfaceBackend

    init(backend: SimulatorSurfaceBackend) { self.backend = backend }

    var isDeviceCapable: Bool {
        backend.perform("TapToPaySettings.isDeviceCapable") { await $0.tapToPaySettings.isDeviceCapable }
    }

    func isAppleAccountLinked(completion: @escaping (Bool, (any Error)?) -> Void) {
        backend.record("TapToPaySettings.isAppleAccountLinked")
        let (backend, completion) = (backend, Unchecked(completion))
        Task.detached {
            do {
                let linked = try await backend.simulator.tapToPaySettings.isAppleAccountLinked()
                backend.post { completion.value(linked, nil) }
            } catch {
                let sdkError = Self.sdkError(error)
                backend.post { completion.value(false, sdkError) }
            }
        }
    }

    func linkAppleAccount(completion: @escaping ((any Error)?) -> Void) {
        link("TapToPaySettings.linkAppleAccount", completion) { try await $0.linkAppleAccount() }
    }

    func relinkAppleAccount(completion: @escaping ((any Error)?) -> Void) {
        link("TapToPaySettings.relinkAppleAccount", completion) { try await $0.relinkAppleAccount() }
    }

    private func link(_ name: String, _ completion: @escaping ((any Error)?) -> Void,
                      _ call: @escaping @Sendable (any Square.TapToPaySettings) async throws -> Void) {
        backend.record(name)
        let (backend, completion) = (backend, Unchecked(completion))
        Task.detached {
            var failure: (any Error)?
            do { try await call(backend.simulator.tapToPaySettings) } catch { failure = Self.sdkError(error) }
            backend.post { completion.value(failure) }
        }
    }

    /// The SDK's `TapToPayReaderError` for the simulator's, by case name; any other error as it came.
    static func sdkError(_ error: any Error) -> any Error {
        guard let error = error as? Square.TapToPayReaderError else { return error }
        return switch error {
        case .alreadyLinked: TapToPayReaderError.alreadyLinked
        case .banned: TapToPayReaderError.banned
        case .invalidToken: TapToPayReaderError.invalidToken
        case .linkingCanceled: TapToPayReaderError.linkingCanceled
        case .linkingFailed: TapToPayReaderError.linkingFailed
        case .networkError: TapToPayReaderError.networkError
        case .noNetwork: TapToPayReaderError.noNetwork
        case .notAuthorized: TapToPayReaderError.notAuthorized
        case .notAvailable: TapToPayReaderError.notAvailable
        case .other: TapToPayReaderError.other
        case .passcodeDisabled: TapToPayReaderError.passcodeDisabled
        case .unexpected: TapToPayReaderError.unexpected
        case .unsupportedDeviceModel: TapToPayReaderError.unsupportedDeviceModel
        case .unsupportedOSVersion: TapToPayReaderError.unsupportedOSVersion
        }
    }
}
