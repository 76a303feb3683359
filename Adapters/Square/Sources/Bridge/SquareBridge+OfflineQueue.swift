#if TENDER_SURFACE_MIRROR           // test builds: the surface mirror (checked first, so tests never need the SDK)
import SquareMobilePaymentsSurface
#elseif SquareMobilePaymentsSDK     // the package trait: the real SDK
import SquareMobilePaymentsSDK      // re-exports MobilePaymentsSDKAPI, the module of the SDK's protocols and types
#endif
#if SquareMobilePaymentsSDK || TENDER_SURFACE_MIRROR
import Foundation
import TenderSquare

extension SquareMobilePaymentsBridge: Square.OfflinePaymentQueue {
    /// `offlinePaymentQueue.getPayments(_:)`, called on the main actor; its completion's payments are copied on the
    /// main thread. An error in the completion is thrown, mapped by case (``SquareBridgeErrors/offlineQueue(_:)``),
    /// even when payments came with it.
    package func getPayments() async throws(Square.OfflinePaymentQueueError) -> [Square.OfflinePayment] {
        try await paymentsOnMain().get()
    }

    @MainActor
    private func paymentsOnMain() async -> Result<[Square.OfflinePayment], Square.OfflinePaymentQueueError> {
        await withCheckedContinuation { continuation in
            let once = SquareResumeOnce(continuation)
            sdk.paymentManager.offlinePaymentQueue.getPayments { payments, error in
                let mapped = error.map(SquareBridgeErrors.offlineQueue)
                SquareMainThread.deliver(payments) { payments in
                    if let mapped {
                        once.resume(returning: .failure(mapped))
                    } else {
                        once.resume(returning: .success(payments.map(SquareBridgeValues.offlinePayment)))
                    }
                }
            }
        }
    }

    /// `offlinePaymentQueue.getTotalStoredPaymentsAmount(completion:)`, called on the main actor. A `nil` amount is a
    /// failure: its error is thrown, mapped by case, or `unexpected` when the SDK gave none.
    package func getTotalStoredPaymentsAmount() async throws(Square.OfflinePaymentQueueError) -> any Square.MoneyAmount {
        try await totalOnMain().get()
    }

    @MainActor
    private func totalOnMain() async -> Result<Square.Money, Square.OfflinePaymentQueueError> {
        await withCheckedContinuation { continuation in
            let once = SquareResumeOnce(continuation)
            sdk.paymentManager.offlinePaymentQueue.getTotalStoredPaymentsAmount { amount, error in
                let mapped = error.map(SquareBridgeErrors.offlineQueue)
                SquareMainThread.deliver(amount) { amount in
                    if let amount, mapped == nil {
                        once.resume(returning: .success(SquareBridgeValues.money(amount)))
                    } else {
                        once.resume(returning: .failure(mapped ?? .unexpected))
                    }
                }
            }
        }
    }
}

/// Resumes a continuation once: a completion handler the SDK called twice is ignored the second time.
final class SquareResumeOnce<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Value, Never>?

    /// Wraps `continuation`.
    init(_ continuation: CheckedContinuation<Value, Never>) { self.continuation = continuation }

    /// Resumes with `value` the first time; does nothing afterwards.
    func resume(returning value: Value) {
        lock.lock()
        let pending = continuation
        continuation = nil
        lock.unlock()
        pending?.resume(returning: value)
    }
}
#endif
