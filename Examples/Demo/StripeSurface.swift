import Foundation
import StripeTerminalSurface
import StripeTerminalSurfaceBackend
import TenderStripe
import TenderStripeSimulator
import TenderStripeTerminalOverSurface

/// Stripe Terminal's SDK as the app sees it, over the simulator: the surface mirror (Stripe Terminal iOS's API as
/// Swift imports it) with the simulator-driven backend installed, and the shipping bridge's sources,
/// `StripeTerminalBridge`, compiled against it. What the app writes at launch is what it writes over the real SDK.
struct StripeSurface {
    /// The simulator's connection-token provider: it asks the provider the app gave `Terminal.initWithTokenProvider`.
    let tokenRelay = SimulatorTokenRelay()

    /// Installs a backend over `simulator` (created with ``tokenRelay``), initializes `Terminal` with the app's
    /// token provider, and returns the bridge over `Terminal.shared`.
    func launch(over simulator: StripeSimulator) async -> StripeTerminalBridge {
        SurfaceBackendSlot.install(SimulatorSurfaceBackend(simulator: simulator, tokenRelay: tokenRelay))
        return await MainActor.run {
            Terminal.initWithTokenProvider(StripeBridgeTokenProvider(DemoConnectionTokens()), delegate: nil,
                                           offlineDelegate: nil, logLevel: .none)
            return StripeTerminalBridge(offlineModeEnabled: true)
        }
    }

    /// Removes the backend (the process-wide slot is free again).
    static func finish() { SurfaceBackendSlot.uninstall() }
}

/// The app's connection-token provider. A real app asks its server (`TenderServer`'s
/// `StripeServerClient.createConnectionToken(location:)`); the simulator accepts any non-empty token.
struct DemoConnectionTokens: Stripe.ConnectionTokenProvider {
    func fetchConnectionToken() async throws -> String { "pst_test_demo" }
}
