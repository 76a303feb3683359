import Foundation
import Testing
import SquareMobilePaymentsSurface
@testable import TenderSquareMobilePaymentsOverSurface

/// The SDK's `PaymentError` as it would be if it did not conform to `CustomNSError`: the same cases, a plain Swift
/// `Error` with `Int` raw values. Square's own example and its React Native and Flutter plugins never rely on the
/// conformance: they read `(error as NSError).code` back into the enum, so the bridge must work either way.
private enum PaymentErrorWithoutCustomNSError: Int, Error, CaseIterable {
    case deviceTimeDoesNotMatchServerTime, invalidPaymentParameters, invalidPaymentSource, locationPermissionNeeded
    case merchantNotOptedIntoOfflineProcessing, noNetwork, notAuthorized, offlineStoredAmountExceeded
    case offlineTransactionAmountExceeded, paymentAlreadyInProgress, paymentAttemptIdReused
    case sandboxUnsupportedForOfflineProcessing, timedOut, trackingConsentIsPending, unexpected, unsupportedMode
}

@Suite("Square bridge: the SDK's errors read back from NSError, with or without CustomNSError")
struct BridgeErrorBridgingTests {
    @Test("with CustomNSError (the mirror): every case comes back from its NSError, by its domain and code")
    func withCustomNSError() {
        let cases = allCases(PaymentError.self)
        #expect(cases.count == 16)
        for error in cases {
            let bridged = error as NSError
            #expect(SquareBridgeErrors.sdkError(bridged, as: PaymentError.self) == error, "\(error)")
            #expect(SquareBridgeErrors.sdkError(NSError(domain: bridged.domain, code: bridged.code),
                                                as: PaymentError.self) == error, "\(error)")
        }
        for error in allCases(AuthorizationError.self) {
            #expect(SquareBridgeErrors.sdkError(NSError(domain: AuthorizationError.errorDomain, code: error.rawValue),
                                                as: AuthorizationError.self) == error)
        }
        // Another domain's code is not the SDK's error.
        #expect(SquareBridgeErrors.sdkError(NSError(domain: "NSURLErrorDomain", code: 1), as: PaymentError.self) == nil)
    }

    @Test("without CustomNSError: every case comes back from the NSError Swift bridges it to; other domains do not")
    func withoutCustomNSError() {
        for error in PaymentErrorWithoutCustomNSError.allCases {
            let bridged = error as NSError
            // Swift's own bridging: the code is the raw value, the domain the module-qualified type name.
            #expect(bridged.code == error.rawValue)
            let read = SquareBridgeErrors.sdkError(NSError(domain: bridged.domain, code: bridged.code,
                                                           userInfo: bridged.userInfo),
                                                   as: PaymentErrorWithoutCustomNSError.self)
            #expect(read == error, "\(error) bridged as \(bridged.domain) \(bridged.code)")
            #expect(SquareBridgeErrors.sdkError(error, as: PaymentErrorWithoutCustomNSError.self) == error)
            #expect(SquareBridgeErrors.sdkError(NSError(domain: "com.example.Other", code: bridged.code),
                                                as: PaymentErrorWithoutCustomNSError.self) == nil)
        }
        // A code of its domain that this version does not declare (a newer SDK's case).
        let newer = NSError(domain: (PaymentErrorWithoutCustomNSError.unexpected as NSError).domain, code: 999)
        #expect(SquareBridgeErrors.sdkError(newer, as: PaymentErrorWithoutCustomNSError.self) == nil)
    }
}
