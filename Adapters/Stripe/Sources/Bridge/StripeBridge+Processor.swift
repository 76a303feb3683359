#if TENDER_SURFACE_MIRROR
import StripeTerminalSurface
#elseif StripeTerminalSDK
import StripeTerminal
#endif

#if StripeTerminalSDK || TENDER_SURFACE_MIRROR
import Foundation
public import Tender
public import TenderStripe

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
    ///   - serverLookup: the app's server's view of Stripe's PaymentIntents (`TenderServer`'s Stripe client, or the
    ///     app's own call to its server): recovery asks it what Stripe holds. Without it, an unknown outcome stays
    ///     unknown until the SDK can answer, and is never charged again.
    ///   - refundService: the app's server-side refunds; without it, refunds are refused.
    ///   - configuration: the adapter's settings.
    ///   - clock: the clock deadlines and windows are measured on.
    @MainActor
    public static func terminal(offlineModeEnabled: Bool, captureService: any PaymentCaptureService,
                                serverLookup: (any StripeRESTLookup)? = nil,
                                refundService: (any PaymentRefundService)? = nil,
                                configuration: Configuration = Configuration(),
                                clock: any TenderClock = SystemClock()) -> StripeProcessor {
        StripeProcessor(client: StripeTerminalBridge(offlineModeEnabled: offlineModeEnabled),
                        captureService: captureService, serverLookup: serverLookup.map(StripeRESTServerLookup.init),
                        refundService: refundService, configuration: configuration,
                        clock: clock)
    }
}
#endif
