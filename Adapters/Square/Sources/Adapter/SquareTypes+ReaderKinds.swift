import Foundation
package import Tender

// MARK: - Tap to Pay settings

extension Square {
    /// Square's `TapToPaySettings` (`readerManager.tapToPaySettings`): whether the iPhone can do Tap to Pay and
    /// whether the merchant's Apple account is linked (Apple's Tap to Pay terms accepted), and the linking itself.
    package protocol TapToPaySettings: Sendable {
        /// `isDeviceCapable`: an iPhone XS or later on iOS 16.7 or later.
        var isDeviceCapable: Bool { get async }
        /// `isAppleAccountLinked(completion:)`, the completion's `(Bool, Error?)` as a result. Errors are
        /// ``Square/TapToPayReaderError``s.
        func isAppleAccountLinked() async throws -> Bool
        /// `linkAppleAccount(completion:)`: presents Apple's terms sheet; throws a ``Square/TapToPayReaderError``
        /// (`alreadyLinked`, `linkingCanceled`, `linkingFailed`, `banned`, `passcodeDisabled`…).
        func linkAppleAccount() async throws
        /// `relinkAppleAccount(completion:)`: the same sheet, for another Apple account.
        func relinkAppleAccount() async throws
    }

    /// Square's `TapToPayReaderError` (14 cases; bridged `NSError`s whose code is the raw value).
    package enum TapToPayReaderError: String, Error, Hashable, Sendable, Codable, CaseIterable {
        case alreadyLinked, banned, invalidToken, linkingCanceled, linkingFailed, networkError, noNetwork,
             notAuthorized, notAvailable, other, passcodeDisabled, unexpected, unsupportedDeviceModel,
             unsupportedOSVersion

        /// Tender's error for this case.
        package var tenderError: Tender.PaymentError { SquareErrorTable.tapToPayReaderError.error(named: caseName) }
    }
}

extension SquareErrorTable {
    /// `TapToPayReaderError`: 14 cases.
    package static let tapToPayReaderError = VendorErrorTable(
        processor: processor, vendorType: "TapToPayReaderError", rows: [
            VendorErrorMapping("alreadyLinked", nil, .configurationError, .none, .readerConnection,
                               "The Apple account is already linked."),
            VendorErrorMapping("banned", nil, .configurationError, .fixIntegration, .readerConnection,
                               "This device or account is banned from Tap to Pay."),
            VendorErrorMapping("invalidToken", nil, .notAuthorized, .fixIntegration, .readerConnection,
                               "The Tap to Pay token is invalid."),
            VendorErrorMapping("linkingCanceled", nil, .canceled, .none, .readerConnection,
                               "The merchant canceled linking the Apple account."),
            VendorErrorMapping("linkingFailed", nil, .configurationError, .fixIntegration, .readerConnection,
                               "Linking the Apple account failed."),
            VendorErrorMapping("networkError", nil, .networkUnavailable, .goOnline, .readerConnection,
                               "A network error stopped Tap to Pay."),
            VendorErrorMapping("noNetwork", nil, .networkUnavailable, .goOnline, .readerConnection,
                               "Tap to Pay needs the network."),
            VendorErrorMapping("notAuthorized", nil, .notAuthorized, .fixIntegration, .readerConnection,
                               "The SDK is not authorized."),
            VendorErrorMapping("notAvailable", nil, .featureUnavailable, .fixIntegration, .readerConnection,
                               "Tap to Pay is not available."),
            VendorErrorMapping("other", nil, .readerFault, .reconnectReader, .readerConnection,
                               "Tap to Pay failed."),
            VendorErrorMapping("passcodeDisabled", nil, .devicePermissionDenied, .fixIntegration, .readerConnection,
                               "Tap to Pay needs a device passcode."),
            VendorErrorMapping("unexpected", nil, .unexpected, .reconnectReader, .readerConnection,
                               "Tap to Pay failed unexpectedly."),
            VendorErrorMapping("unsupportedDeviceModel", nil, .featureUnavailable, .fixIntegration, .readerConnection,
                               "This iPhone cannot do Tap to Pay (an iPhone XS or later is needed)."),
            VendorErrorMapping("unsupportedOSVersion", nil, .featureUnavailable, .fixIntegration, .readerConnection,
                               "Tap to Pay needs iOS 16.7 or later."),
        ])
}

// MARK: - Defaults for clients that do not implement Tap to Pay settings or reboot

// The bridge (`SquareMobilePaymentsBridge`) and ``SquareSimulator`` implement both; these defaults serve other
// clients (wrappers, test doubles), which then refuse instead of pretending.

/// The Tap to Pay settings of a client that does not implement them: every call refuses.
struct UnimplementedTapToPaySettings: Square.TapToPaySettings {
    var isDeviceCapable: Bool { false }
    func isAppleAccountLinked() async throws -> Bool {
        throw Square.notImplemented("tapToPaySettings.isAppleAccountLinked")
    }
    func linkAppleAccount() async throws { throw Square.notImplemented("tapToPaySettings.linkAppleAccount") }
    func relinkAppleAccount() async throws { throw Square.notImplemented("tapToPaySettings.relinkAppleAccount") }
}

extension Square.ReaderManager {
    /// `tapToPaySettings`, for a client that does not implement it: every call refuses with
    /// ``Tender/PaymentError/Code/featureUnavailable`` (and the device reads as not capable).
    package var tapToPaySettings: any Square.TapToPaySettings { UnimplementedTapToPaySettings() }

    /// `rebootReader(_:)`, for a client that does not implement it: ``Tender/PaymentError/Code/featureUnavailable``.
    package func rebootReader(_ readerInfo: Square.ReaderInfo) async throws {
        throw Square.notImplemented("rebootReader(_:)")
    }
}

extension Square {
    /// The refusal of a call the client does not implement.
    package static func notImplemented(_ call: String) -> Tender.PaymentError {
        Tender.PaymentError(.featureUnavailable, recovery: .fixIntegration, phase: .readerConnection,
                            message: "This Square client does not implement \(call).")
    }
}

// MARK: - Kinds and features by model

extension Square.ReaderModel {
    /// How the reader connects: the contactless and chip reader over Bluetooth; Stand and the magstripe reader on a
    /// cable (``ReaderKind/usb``); Tap to Pay as itself. Square has no internet readers.
    package var kind: ReaderKind {
        switch self {
        case .contactlessAndChip, .unknown: .bluetooth
        case .magstripe, .stand: .usb
        case .tapToPay: .tapToPay
        }
    }

    /// What the model can do, from Square's documentation as the reference records it: offline on the contactless
    /// and chip reader, the magstripe reader and Stand (2nd generation; the SDK does not tell generations apart) —
    /// not Tap to Pay; no on-reader tipping (Square takes an app-entered `tipMoney`), no cart display, no in-person
    /// refunds.
    package var features: Set<ReaderFeature> {
        switch self {
        case .contactlessAndChip, .magstripe, .stand: [.offline]
        case .tapToPay: [.tapToPay]
        case .unknown: []
        }
    }
}
