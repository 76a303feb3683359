import Foundation
import Tender
@_spi(Testing) import TenderStripe
import TenderStripeSimulator
import TenderTesting

/// A reader delegate that ignores everything (the baseline has no app around it).
struct SilentReaderDelegate: Stripe.MobileReaderDelegate {
    func didReportAvailableUpdate(_ update: Stripe.ReaderSoftwareUpdate) {}
    func didStartInstallingUpdate(_ update: Stripe.ReaderSoftwareUpdate, cancelable: (any Stripe.Cancelable)?) {}
    func didReportReaderSoftwareUpdateProgress(_ progress: Float) {}
    func didFinishInstallingUpdate(_ update: Stripe.ReaderSoftwareUpdate?, error: Stripe.ErrorCode?) {}
    func didRequestReaderInput(_ inputOptions: Stripe.ReaderInputOptions) {}
    func didRequestReaderDisplayMessage(_ displayMessage: Stripe.ReaderDisplayMessage) {}
    func didReportReaderEvent(_ event: Stripe.ReaderEvent) {}
    func didReportBatteryLevel(_ batteryLevel: Float, status: Stripe.BatteryStatus, isCharging: Bool) {}
    func didDisconnect(_ reason: Stripe.DisconnectReason) {}
    func didStartReconnect(_ cancelable: any Stripe.Cancelable, disconnectReason: Stripe.DisconnectReason) {}
    func didSucceedReconnect() {}
    func didFailReconnect() {}
}

/// Captures nothing: the overhead benchmark takes automatic-capture payments.
struct NoCaptureService: PaymentCaptureService {
    func capture(_ request: CaptureRequest) async throws {}
    func void(_ request: VoidRequest) async throws {}
}

/// A full payment (create, collect, confirm) through `PaymentTerminal` + `StripeProcessor` with an in-memory
/// ledger, and through `StripeProcessor` alone, each against the same payment made by calling the simulator's
/// `StripeClient` methods directly. Each trial is a block of payments; the figures are per payment.
struct AdapterOverhead {
    let quick: Bool
    private let block = 10

    private func simulator() -> StripeSimulator {
        var configuration = Stripe.SimulatorConfiguration(offlineEnabled: true)
        configuration.forwardsWhenNetworkReturns = false
        return StripeSimulator(configuration: configuration, seed: 11, clock: ManualClock())
    }

    private var trials: Interleaved {
        Interleaved(minTrials: quick ? 10 : 100, maxTrials: quick ? 40 : 3_000, timeCap: quick ? 1 : 20)
    }

    /// `overhead_ratio` (facade + adapter vs direct) and `adapter_only_ratio` (adapter vs direct).
    func measure() async throws -> (facade: RatioResult, adapter: RatioResult) {
        let direct = simulator()
        let reader = Stripe.SimulatorConfiguration.defaultReaders[0]
        _ = try await direct.connectReader(reader, connectionConfig: Stripe.BluetoothConnectionConfiguration(
            locationId: "tml_bench", autoReconnectOnUnexpectedDisconnect: true, delegate: SilentReaderDelegate()))
        var directIndex = 0
        func directBlock() async throws -> Double {
            try await timed {
                for _ in 0..<block {
                    directIndex += 1
                    let parameters = Stripe.PaymentIntentParameters(amount: 1_000, currency: "usd", captureMethod: .automatic,
                                                                    metadata: ["tender_reference": "direct-\(directIndex)"])
                    let created = try await direct.createPaymentIntent(parameters, createConfig: .init(offlineBehavior: .requireOnline))
                    let box = Locked<Stripe.PaymentIntent?>(nil)
                    _ = await direct.collectPaymentMethod(created, collectConfig: .init(skipTipping: true)) { intent, _ in
                        box.withLock { $0 = intent }
                    }
                    guard let collected = box.current else { throw BenchError("collect failed") }
                    box.withLock { $0 = nil }
                    _ = await direct.confirmPaymentIntent(collected, confirmConfig: nil) { intent, _ in box.withLock { $0 = intent } }
                    guard let confirmed = box.current, confirmed.status == .succeeded else {
                        throw BenchError("direct payment ended \(String(describing: box.current?.status))")
                    }
                }
            } / Double(block)
        }

        let processor = StripeProcessor(client: simulator(), captureService: NoCaptureService(), configuration: .withSimulatedReaders)
        guard let found = try await processor.discoverReaders(timeout: 5).first else { throw BenchError("no reader") }
        _ = try await processor.connectReader(found, locationID: "tml_bench")
        let terminal = PaymentTerminal(processor: processor, ledger: InMemoryPaymentLedger(),
                                       scope: LedgerScope(merchantID: "acct_bench", locationID: "tml_bench"))
        await terminal.handle(.networkStatusChanged(.online))
        var facadeIndex = 0
        let facade = try await trials.measure(
            "overhead_ratio", target: nil,
            detail: { String(format: "%.1f µs vs %.1f µs per payment, in-memory ledger vs the simulator's calls alone "
                             + "(see payment_floor_ratio for a durable payment)", $0 * 1e6, $1 * 1e6) },
            baseline: directBlock,
            subject: {
                try await timed {
                    for _ in 0..<block {
                        facadeIndex += 1
                        let session = try await terminal.takePayment(PaymentRequest(
                            amount: Money(minorUnits: 1_000, currency: .usd), reference: "facade-\(facadeIndex)"))
                        guard session.state == .succeeded else { throw BenchError("facade payment ended \(session.state)") }
                    }
                } / Double(block)
            })

        // The adapter alone (no facade, no ledger), to split the overhead between the two layers.
        let bare = StripeProcessor(client: simulator(), captureService: NoCaptureService(), configuration: .withSimulatedReaders)
        guard let bareReader = try await bare.discoverReaders(timeout: 5).first else { throw BenchError("no reader") }
        _ = try await bare.connectReader(bareReader, locationID: "tml_bench")
        var bareIndex = 0
        let adapter = try await trials.measure(
            "adapter_only_ratio", target: nil,
            detail: { String(format: "%.1f µs vs %.1f µs per payment: the adapter alone, without facade or ledger", $0 * 1e6, $1 * 1e6) },
            baseline: directBlock,
            subject: {
                try await timed {
                    for _ in 0..<block {
                        bareIndex += 1
                        let final = try await bare.startPayment(
                            PaymentRequest(amount: Money(minorUnits: 1_000, currency: .usd), reference: "bare-\(bareIndex)"),
                            routing: .online, attempt: PaymentAttempt()) { _ in }
                        guard final.state == .succeeded else { throw BenchError("adapter payment ended \(final.state)") }
                    }
                } / Double(block)
            })
        return (facade, adapter)
    }
}
