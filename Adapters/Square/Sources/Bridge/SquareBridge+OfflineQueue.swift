#if TENDER_SURFACE_MIRROR           // test builds: the surface mirror (checked first, so tests never need the SDK)
import SquareMobilePaymentsSurface
#elseif SquareMobilePaymentsSDK     // the package trait: the real SDK
public import SquareMobilePaymentsSDK      // re-exports MobilePaymentsSDKAPI, the module of the SDK's protocols and types
#endif
#if SquareMobilePaymentsSDK || TENDER_SURFACE_MIRROR
import Foundation
import func Tender.awaitCallback
package import TenderSquare

extension SquareMobilePaymentsBridge: Square.OfflinePaymentQueue {
    /// `offlinePaymentQueue.getPayments(_:)`, called on the main actor; its completion's payments are copied on the
    /// main thread. An error in the completion is thrown, mapped by case (``SquareBridgeErrors/offlineQueue(_:)``),
    /// even when payments came with it.
    package func getPayments() async throws(Square.OfflinePaymentQueueError) -> [Square.OfflinePayment] {
        try await paymentsOnMain().get()
    }

    @MainActor
    private func paymentsOnMain() async -> Result<[Square.OfflinePayment], Square.OfflinePaymentQueueError> {
        await awaitCallback { resume in
            sdk.paymentManager.offlinePaymentQueue.getPayments { payments, error in
                let mapped = error.map(SquareBridgeErrors.offlineQueue)
                SquareMainThread.deliver(payments) { payments in
                    if let mapped {
                        resume(.failure(mapped))
                    } else {
                        resume(.success(payments.map(SquareBridgeValues.offlinePayment)))
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
        await awaitCallback { resume in
            sdk.paymentManager.offlinePaymentQueue.getTotalStoredPaymentsAmount { amount, error in
                let mapped = error.map(SquareBridgeErrors.offlineQueue)
                SquareMainThread.deliver(amount) { amount in
                    if let amount, mapped == nil {
                        resume(.success(SquareBridgeValues.money(amount)))
                    } else {
                        resume(.failure(mapped ?? .unexpected))
                    }
                }
            }
        }
    }
}

#endif
