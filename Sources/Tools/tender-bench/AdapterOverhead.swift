import Foundation
import Tender
import TenderStripe
import TenderStripeSimulator

/// A reader delegate that ignores everything (the baseline has no app around it).
private struct SilentReaderDelegate: Stripe.MobileReaderDelegate {
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

/// Captures nothing: the benchmark takes automatic-capture payments.
private struct NoCaptureService: PaymentCaptureService {
    func capture(processor: String, reference: String, processorPaymentID: String, amount: Money) async throws {}
    func void(processor: String, reference: String, processorPaymentID: String) async throws {}
}

/// A full payment (create, collect, confirm) through `PaymentTerminal` + `StripeProcessor` with an in-memory
/// ledger, against the same payment made by calling the simulator's `StripeClient` methods directly.
struct AdapterOverhead {
    let trials: Int

    private func simulator() -> StripeSimulator {
        var configuration = Stripe.SimulatorConfiguration(offlineEnabled: true)
        configuration.forwardsWhenNetworkReturns = false
        return StripeSimulator(configuration: configuration, seed: 11, clock: ManualClock())
    }

    /// Medians per payment: through facade and adapter, through the adapter alone, and the direct baseline.
    func measure() async throws -> (facade: Double, adapter: Double, direct: Double) {
        // Warm both paths once, then alternate blocks so drift affects both equally.
        var facadeSamples: [Double] = []
        var directSamples: [Double] = []
        let direct = simulator()
        let reader = Stripe.SimulatorConfiguration.defaultReaders[0]
        _ = try await direct.connectReader(reader, connectionConfig: Stripe.BluetoothConnectionConfiguration(
            locationId: "tml_bench", autoReconnectOnUnexpectedDisconnect: true, delegate: SilentReaderDelegate()))

        let processor = StripeProcessor(client: simulator(), captureService: NoCaptureService(), simulatedReaders: true)
        guard let found = try await processor.discoverReaders(timeout: 5).first else { throw BenchError("no reader") }
        _ = try await processor.connectReader(found, locationID: "tml_bench")
        let terminal = PaymentTerminal(processor: processor, ledger: InMemoryPaymentLedger(),
                                       scope: LedgerScope(merchantID: "acct_bench", locationID: "tml_bench"))
        await terminal.handle(.networkStatusChanged(.online))

        // The adapter alone (no facade, no ledger), to split the overhead between the two layers.
        var adapterSamples: [Double] = []
        let bare = StripeProcessor(client: simulator(), captureService: NoCaptureService(), simulatedReaders: true)
        guard let bareReader = try await bare.discoverReaders(timeout: 5).first else { throw BenchError("no reader") }
        _ = try await bare.connectReader(bareReader, locationID: "tml_bench")
        for trial in 0..<trials {
            adapterSamples.append(try await time {
                let final = try await bare.startPayment(
                    PaymentRequest(amount: Money(minorUnits: 1_000, currency: .usd), reference: "bare-\(trial)"),
                    routing: .online, attempt: PaymentAttempt()) { _ in }
                guard final.state == .succeeded else { throw BenchError("adapter payment ended \(final.state)") }
            })
        }

        var index = 0
        for block in 0..<(trials / 10 + 1) {
            for _ in 0..<10 {
                index += 1
                let reference = "bench-\(index)"
                directSamples.append(try await time {
                    let parameters = Stripe.PaymentIntentParameters(amount: 1_000, currency: "usd", captureMethod: .automatic,
                                                                    metadata: ["tender_reference": reference])
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
                })
                facadeSamples.append(try await time {
                    let session = try await terminal.takePayment(PaymentRequest(
                        amount: Money(minorUnits: 1_000, currency: .usd), reference: reference))
                    guard session.state == .succeeded else { throw BenchError("facade payment ended \(session.state)") }
                })
            }
            if block == 0 { facadeSamples.removeAll(); directSamples.removeAll() }
        }
        func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }
        return (median(facadeSamples), median(adapterSamples), median(directSamples))
    }

    private func time(_ body: () async throws -> Void) async throws -> Double {
        let start = ContinuousClock.now
        try await body()
        return seconds(ContinuousClock.now - start)
    }
}
