import Foundation
import Tender
package import TenderStripe
import TenderTesting

extension StripeSimulator {
    /// What happened to one request from the device.
    enum RequestOutcome { case reached, failedFast, timedOut }

    /// `setSimulatedOfflineModeConfiguration`: the network between the device and Stripe (and the app's server).
    /// Going back to ``Stripe/SimulatedOfflineMode/disabled`` forwards the stored payments when
    /// ``Stripe/SimulatorConfiguration/forwardsWhenNetworkReturns`` is on, as the SDK does "when Internet access is
    /// restored".
    package func setSimulatedOfflineMode(_ mode: Stripe.SimulatedOfflineMode) async {
        offlineMode = mode
        setNetworkStatus(network.reportedStatus == .online ? .online : .offline)
        log("simulated offline mode: \(mode.rawValue)")
        if mode == .disabled, !state.storedPayments.isEmpty {
            if configuration.forwardsWhenNetworkReturns {
                await forwardPendingPayments()
            } else if let delay = configuration.backgroundForwardingDelay {
                scheduleForwarding(after: delay)
            }
        }
    }

    /// The simulated network now.
    var network: SimulatedNetwork {
        switch offlineMode {
        case .disabled: .online
        case .offlineImmediate: .offline
        case .offlineTimeout: .timingOut
        case .offlineIntermittent: .flaky(failureRate: configuration.intermittentFailureRate)
        }
    }

    /// One request from the SDK to Stripe: reached, failed at once, or timed out. Updates the SDK's network status
    /// the first time it is known.
    func attemptRequest() -> RequestOutcome {
        let network = self.network
        if sdkNetworkStatus == .unknown { setNetworkStatus(network.reportedStatus == .online ? .online : .offline) }
        if network == .timingOut { return .timedOut }
        return network.requestSucceeds(using: &random) ? .reached : .failedFast
    }

    /// Whether a request from the app to its server (and on to Stripe's API) gets through now.
    func serverReachable() -> Bool { network.requestSucceeds(using: &random) }

    func setNetworkStatus(_ status: Stripe.NetworkStatus) {
        guard status != sdkNetworkStatus else { return }
        sdkNetworkStatus = status
        notifyOfflineStatus()
    }

    /// An error for a request that could not reach Stripe.
    static func offlineError(_ intent: Stripe.PaymentIntent? = nil) -> Stripe.ErrorCode {
        Stripe.ErrorCode(.notConnectedToInternet, message: "The SDK is not connected to the internet.",
                         paymentIntent: intent)
    }
}

extension StripeSimulator {
    /// Whether an app set `Terminal.setLogListener(_:)`'s listener (tests wait for it).
    package nonisolated var hasLogListener: Bool { delegates.withLock { $0.log != nil } }
}
