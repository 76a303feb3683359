#if TENDER_SURFACE_MIRROR
import StripeTerminalSurface
#elseif StripeTerminalSDK
import StripeTerminal
#endif

#if StripeTerminalSDK || TENDER_SURFACE_MIRROR
import Foundation
import Tender
import TenderStripe

extension StripeProcessor {
    /// A ``StripeProcessor`` over the real Stripe Terminal SDK (`Terminal.shared`), as an app creates it once at
    /// launch, on the main actor:
    /// ```swift
    /// Terminal.initWithTokenProvider(StripeBridgeTokenProvider { try await myServer.connectionToken() },
    ///                                delegate: nil, offlineDelegate: nil, logLevel: .none)
    /// let processor = StripeProcessor.terminal(offlineModeEnabled: true, captureService: myServer,
    ///                                          refundService: myServer)
    /// ```
    /// - Parameters:
    ///   - offlineModeEnabled: whether offline mode is enabled for the account and location (Stripe's Terminal
    ///     Configuration API `offline[enabled]`); the SDK has no property for it, so the app says.
    ///   - captureService: the app's server-side capture and void.
    ///   - refundService: the app's server-side refunds; without it, refunds are refused.
    ///   - configuration: the adapter's settings.
    ///   - clock: the clock deadlines and windows are measured on.
    @MainActor
    public static func terminal(offlineModeEnabled: Bool, captureService: any PaymentCaptureService,
                                refundService: (any PaymentRefundService)? = nil,
                                configuration: Configuration = Configuration(),
                                clock: any TenderClock = SystemClock()) -> StripeProcessor {
        StripeProcessor(client: StripeTerminalBridge(offlineModeEnabled: offlineModeEnabled),
                        captureService: captureService, refundService: refundService, configuration: configuration,
                        clock: clock)
    }
}
#endif
