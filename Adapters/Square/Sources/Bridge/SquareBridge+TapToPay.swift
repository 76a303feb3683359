#if TENDER_SURFACE_MIRROR           // test builds: the surface mirror (checked first, so tests never need the SDK)
import SquareMobilePaymentsSurface
#elseif SquareMobilePaymentsSDK     // the package trait: the real SDK
public import SquareMobilePaymentsSDK      // re-exports MobilePaymentsSDKAPI, the module of the SDK's protocols and types
#endif
#if SquareMobilePaymentsSDK || TENDER_SURFACE_MIRROR
import Foundation
import func Tender.awaitCallback
package import TenderSquare

extension SquareMobilePaymentsBridge {
    /// `readerManager.tapToPaySettings`: every call goes to the SDK's object on the main actor (read again each time,
    /// never held).
    package var tapToPaySettings: any Square.TapToPaySettings { SquareBridgeTapToPaySettings(registry: registry) }

    /// `rebootReader(_:)` of the SDK's reader with this `id`, on the main actor. The SDK's call returns nothing and
    /// ignores a reader that is not `isRebootable`; the reader's status changes reach the reader observers. A reader
    /// the SDK no longer lists is left alone, as the SDK would leave it.
    package func rebootReader(_ readerInfo: Square.ReaderInfo) async throws {
        await rebootOnMain(readerInfo.id)
    }

    @MainActor
    private func rebootOnMain(_ id: UInt) {
        guard let reader = sdk.readerManager.readers.first(where: { $0.id == id }) else { return }
        sdk.readerManager.rebootReader(reader)
    }
}

/// Square's `TapToPaySettings` as the adapter's ``Square/TapToPaySettings``: `isDeviceCapable` read on the main
/// actor; `isAppleAccountLinked(completion:)`, `linkAppleAccount(completion:)` and `relinkAppleAccount(completion:)`
/// called on the main actor and awaited, their errors mapped by case to ``Square/TapToPayReaderError`` (an error that
/// is not one, or a case a newer SDK adds, is thrown as it came). Linking presents Apple's terms sheet.
struct SquareBridgeTapToPaySettings: Square.TapToPaySettings {
    /// The registry holding the SDK.
    let registry: SquareObjectRegistry

    /// `isDeviceCapable`, on the main actor.
    var isDeviceCapable: Bool {
        get async { await deviceCapableOnMain() }
    }

    @MainActor
    private func deviceCapableOnMain() -> Bool { registry.sdk.readerManager.tapToPaySettings.isDeviceCapable }

    /// `isAppleAccountLinked(completion:)`.
    func isAppleAccountLinked() async throws -> Bool {
        try await linkedOnMain().get()
    }

    @MainActor
    private func linkedOnMain() async -> Result<Bool, any Error> {
        await awaitCallback { resume in
            registry.sdk.readerManager.tapToPaySettings.isAppleAccountLinked { linked, error in
                resume(error.map { .failure(SquareBridgeErrors.tapToPay($0)) } ?? .success(linked))
            }
        }
    }

    /// `linkAppleAccount(completion:)`.
    func linkAppleAccount() async throws {
        if let error = await linkOnMain(relink: false) { throw error }
    }

    /// `relinkAppleAccount(completion:)`.
    func relinkAppleAccount() async throws {
        if let error = await linkOnMain(relink: true) { throw error }
    }

    @MainActor
    private func linkOnMain(relink: Bool) async -> (any Error)? {
        await awaitCallback { resume in
            let settings = registry.sdk.readerManager.tapToPaySettings
            let completion: ((any Error)?) -> Void = { error in resume(error.map(SquareBridgeErrors.tapToPay)) }
            if relink { settings.relinkAppleAccount(completion: completion) } else {
                settings.linkAppleAccount(completion: completion)
            }
        }
    }
}

extension SquareBridgeErrors {
    /// The error a `TapToPaySettings` completion hands the adapter: the mapped ``Square/TapToPayReaderError``, or the
    /// SDK's error as it came when it is not a `TapToPayReaderError` this SDK version knows.
    package static func tapToPay(_ error: any Error) -> any Error {
        sdkError(error, as: TapToPayReaderError.self).flatMap(value) ?? error
    }

    /// The SDK's `TapToPayReaderError` → ``Square/TapToPayReaderError``; `nil` for a case this SDK version adds.
    static func value(_ error: TapToPayReaderError) -> Square.TapToPayReaderError? {
        switch error {
        case .alreadyLinked: .alreadyLinked
        case .banned: .banned
        case .invalidToken: .invalidToken
        case .linkingCanceled: .linkingCanceled
        case .linkingFailed: .linkingFailed
        case .networkError: .networkError
        case .noNetwork: .noNetwork
        case .notAuthorized: .notAuthorized
        case .notAvailable: .notAvailable
        case .other: .other
        case .passcodeDisabled: .passcodeDisabled
        case .unexpected: .unexpected
        case .unsupportedDeviceModel: .unsupportedDeviceModel
        case .unsupportedOSVersion: .unsupportedOSVersion
        @unknown default: nil
        }
    }
}
#endif
