import Foundation
import SquareMobilePaymentsSurfaceBackend
import TenderSquare
import TenderSquareMobilePaymentsOverSurface
import TenderSquareSimulator
import class SquareMobilePaymentsSurface.MobilePaymentsSDK
import class SquareMobilePaymentsSurface.UIViewController
import enum SquareMobilePaymentsSurface.SurfaceBackendSlot
import protocol Tender.TenderClock

/// Square's Mobile Payments SDK as the app sees it, over the simulator: the surface mirror (the SDK's API as Swift
/// imports it) with the simulator-driven backend installed, and the shipping bridge's sources,
/// `SquareMobilePaymentsBridge`, compiled against it. What the app writes at launch is what it writes over the real
/// SDK.
enum SquareSurface {
    /// The view controller Square's payment UI is presented from (the mirror's stand-in on Linux).
    @MainActor static let checkout = UIViewController()

    /// Installs a backend over `simulator`, initializes the SDK and returns the bridge over
    /// `MobilePaymentsSDK.shared`, with the presentation context the adapter gives it.
    static func launch(over simulator: SquareSimulator, clock: any TenderClock) async
        -> (bridge: SquareMobilePaymentsBridge, presentation: Square.PresentationContext) {
        SurfaceBackendSlot.install(SimulatorSurfaceBackend(simulator: simulator, clock: clock))
        let bridge = await MainActor.run {
            MobilePaymentsSDK.initialize(squareApplicationID: "sq0idp-tender-demo")
            return SquareMobilePaymentsBridge(networkMonitor: simulator.networkMonitor)
        }
        return (bridge, Square.PresentationContext(name: "checkout") { SquareSurface.checkout })
    }

    /// Removes the backend (the process-wide slot is free again).
    static func finish() { SurfaceBackendSlot.uninstall() }
}
