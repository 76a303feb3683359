public import Tender
public import TenderUI
import TenderStripe
import TenderStripeSimulator
import TenderTesting

/// A ready-made situation for SwiftUI previews, UI tests and demos, played by Stripe's simulator (no hardware, no
/// network, no server): every scenario starts with a simulated Bluetooth reader found and connected.
///
/// Not for a shipping target: this module links the simulators.
public enum PreviewScenario: String, CaseIterable, Sendable {
    /// Online, a reader connected, cards approve.
    case online
    /// The device is offline with Stripe's offline mode on: sales are stored on the device (up to 100.00 USD each,
    /// 500.00 USD in all) and forwarded when the simulator comes back online.
    case offline
    /// Online, but every card is declined (Stripe's `chargeDeclined` test card).
    case declines
    /// The connected reader requires a software update before it takes payments: a payment is refused with
    /// ``Tender/PaymentError/Code/readerUpdateRequired`` until `installUpdate()` is called.
    case readerUpdateRequired

    /// The scenario a UI test asked for with the launch arguments `-TenderScenario <name>`, or `nil` when none is
    /// named (or the name is unknown).
    /// ```swift
    /// // XCUITest
    /// app.launchArguments = ["-TenderScenario", "offline"]
    /// // The app, at launch
    /// let scenario = PreviewScenario(launchArguments: ProcessInfo.processInfo.arguments) ?? .online
    /// ```
    public init?(launchArguments: [String]) {
        guard let flag = launchArguments.firstIndex(of: "-TenderScenario"), flag + 1 < launchArguments.count,
              let scenario = PreviewScenario(rawValue: launchArguments[flag + 1]) else { return nil }
        self = scenario
    }
}

extension PaymentTerminal {
    /// A facade over Stripe's simulator in `scenario`, with an in-memory ledger (nothing is written to disk), a reader
    /// connected, and its background work (``Tender/PaymentTerminal/run()``) running.
    public static func preview(_ scenario: PreviewScenario = .online) async -> PaymentTerminal {
        let simulator = await StripeSimulator.preview()
        await simulator.configure { configuration in
            configuration.offlineEnabled = scenario == .offline
            if scenario == .declines { configuration.simulatedCard = .chargeDeclined }
        }
        let usd = { (minor: Int64) in Money(minorUnits: minor, currency: .usd) }
        let terminal = PaymentTerminal(processor: simulator.makeProcessor(),
                                       scope: LedgerScope(merchantID: "acct_preview", locationID: "tml_preview"),
                                       limits: .single(perPayment: usd(10_000), storedTotal: usd(50_000)))
        Task { await terminal.run() }
        if let reader = try? await terminal.discoverReaders(.bluetooth, timeout: 1).first {
            _ = try? await terminal.connectReader(reader)
        }
        // On the connected reader: the update is due now, and it takes no payment until installed.
        if scenario == .readerUpdateRequired { await simulator.inject(.reader(.updateRequired)) }
        if scenario == .offline {
            await simulator.setSimulatedOfflineMode(.offlineImmediate)
            // The adapter learns it from the SDK's delegate, a moment later.
            for _ in 0..<1_000 where await terminal.refreshNetworkStatus() != .offline {
                try? await Task.sleep(nanoseconds: 1_000_000)
            }
        }
        return terminal
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)  // Observation
extension TerminalModel {
    /// A model over ``Tender/PaymentTerminal/preview(_:)``, already started: use it in `#Preview` and UI-test builds.
    /// ```swift
    /// #Preview("Declines") {
    ///     @Previewable @State var model: TerminalModel?
    ///     CheckoutView(model: model).task { model = await TerminalModel.preview(.declines) }
    /// }
    /// ```
    @MainActor
    public static func preview(_ scenario: PreviewScenario = .online) async -> TerminalModel {
        let model = TerminalModel(terminal: await PaymentTerminal.preview(scenario))
        await model.load()
        Task { await model.start() }
        return model
    }
}
