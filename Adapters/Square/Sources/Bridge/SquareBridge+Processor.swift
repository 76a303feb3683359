#if TENDER_SURFACE_MIRROR           // test builds: the surface mirror (checked first, so tests never need the SDK)
import SquareMobilePaymentsSurface
#elseif SquareMobilePaymentsSDK     // the package trait: the real SDK
import SquareMobilePaymentsSDK
#endif
#if SquareMobilePaymentsSDK || TENDER_SURFACE_MIRROR
// The bridge's network monitor is `NWPathMonitor` and Square's UI is presented from a `UIViewController`: iOS.
// Type-checked on Linux against stand-ins by Scripts/check-apple-gated.py.
#if canImport(Network) && canImport(UIKit)
import Foundation
// Public: the factory below is public API over their types (the processor, the services, the clock, the view
// controller). Inside the block: where it is not compiled, a public import would be unused (a warning).
public import Tender
public import TenderSquare
public import UIKit

extension SquareProcessor {
    /// A ``SquareProcessor`` over the real Mobile Payments SDK (`MobilePaymentsSDK.shared`, initialized first), as
    /// an app creates it once at launch, on the main actor:
    /// ```swift
    /// let processor = SquareProcessor.mobilePayments(captureService: myServer, refundService: myServer,
    ///                                                presentingFrom: { checkoutViewController })
    /// ```
    /// - Parameters:
    ///   - captureService: the app's server-side capture and void (`CompletePayment`, `CancelPayment`).
    ///   - serverLookup: the app's server's view of Square's Payments API (`TenderServer`'s Square client, or the
    ///     app's own call to its server): recovery and abandonment ask it what Square holds. Without it, an unknown
    ///     outcome stays unknown, and is never charged again.
    ///   - refundService: the app's server-side refunds (`RefundPayment`); without it, refunds are refused.
    ///   - configuration: the adapter's settings.
    ///   - clock: the clock deadlines and windows are measured on.
    ///   - presentingFrom: the view controller Square's payment UI is presented from (nil: Square's UI cannot show,
    ///     and a payment that needs it fails).
    @MainActor
    public static func mobilePayments(captureService: any PaymentCaptureService,
                                      serverLookup: (any SquareRESTLookup)? = nil,
                                      refundService: (any PaymentRefundService)? = nil,
                                      configuration: Configuration = Configuration(),
                                      clock: any TenderClock = SystemClock(),
                                      presentingFrom: (@MainActor @Sendable () -> UIViewController?)? = nil)
        -> SquareProcessor {
        var configuration = configuration
        if let presentingFrom {
            configuration.presentation = Square.PresentationContext(name: "app") { presentingFrom() }
        }
        return SquareProcessor(client: SquareMobilePaymentsBridge(), captureService: captureService,
                               serverLookup: serverLookup.map(SquareRESTServerLookup.init), refundService: refundService, configuration: configuration, clock: clock)
    }
}
#endif
#endif
