#if canImport(SwiftUI)
import SwiftUI
import Tender
import TenderPreviews
import TenderUI

/// The sample's entry point. It runs over the simulators (``PreviewScenario``, chosen by the launch argument
/// `-TenderScenario offline` and so on, as an XCUITest sets it); a shipping app builds its `PaymentTerminal` over
/// `StripeProcessor.terminal(…)` or `SquareProcessor.mobilePayments(…)` and a `SQLitePaymentLedger` instead (see the
/// "Building the app" article).
@main
struct CheckoutApp: App {
    @State private var model: TerminalModel?

    var body: some Scene {
        WindowGroup {
            Group {
                if let model {
                    RootView(model: model)
                } else {
                    ProgressView()
                }
            }
            .task {
                // `preview(_:)` returns the model already started (`start()` runs once per model): not started again.
                let scenario = PreviewScenario(launchArguments: ProcessInfo.processInfo.arguments) ?? .online
                model = await TerminalModel.preview(scenario)
            }
        }
    }
}

/// Three tabs over one model: checkout, reader, offline queue (with refunds).
struct RootView: View {
    let model: TerminalModel

    var body: some View {
        TabView {
            CheckoutView(model: model).tabItem { Label("Checkout", systemImage: "creditcard") }
            ReaderView(model: model).tabItem { Label("Reader", systemImage: "wave.3.right") }
            QueueView(model: model).tabItem { Label("Payments", systemImage: "tray.full") }
        }
    }
}
#endif
