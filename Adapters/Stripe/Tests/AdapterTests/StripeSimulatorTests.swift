import Foundation
import Tender
import TenderStripe
import TenderStripeSimulator
import Testing
import TenderTesting

@Suite("Stripe simulator: payments and the offline store")
struct StripeSimulatorPaymentTests {
    private func params(_ amount: UInt = 1_500, reference: String = "P-1", currency: String = "usd")
        -> Stripe.PaymentIntentParameters {
        Stripe.PaymentIntentParameters(amount: amount, currency: currency, captureMethod: .manual,
                                       metadata: ["tender_reference": reference])
    }

    @Test("offline creation: nil stripeId; stored with offline details; status counts; forwarded per intent")
    func offlineLifecycle() async throws {
        let (simulator, _) = makeSimulator { $0.simulatedTipAmount = 200 }
        let delegate = RecordingDelegate()
        simulator.setOfflineDelegate(delegate)
        try await connect(simulator, Stripe.SimulatorConfiguration.defaultReaders[2])   // WisePad 3: on-reader tips
        #expect(await simulator.offlineStatus.sdk.networkStatus == .online)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let created = try await simulator.createPaymentIntent(params(), createConfig: .init())
        #expect(created.stripeId == nil)
        let (collected, _) = await collect(simulator, created)
        #expect(collected?.status == .requiresConfirmation)
        #expect(collected?.amountTip == nil, "without updatePaymentIntent the collection reports no tip")
        #expect(collected?.amount == 1_500)
        let (confirmed, error) = await confirm(simulator, try #require(collected))
        #expect(error == nil)
        #expect(confirmed?.status == .requiresCapture)
        #expect(confirmed?.amount == 1_700, "after confirmation the amount includes the tip")
        #expect(confirmed?.amountDetailsTip == 200)
        #expect(confirmed?.amountTip == nil)
        #expect(confirmed?.offlineDetails?.requiresUpload == true)
        #expect(confirmed?.offlineDetails?.cardPresentDetails?.receiptDetails?.accountType == nil)
        #expect(confirmed?.offlineDetails?.cardPresentDetails?.receiptDetails?.authorizationResponseCode == nil)
        let status = await simulator.offlineStatus.sdk
        #expect(status.paymentsCount == 1)
        #expect(status.paymentAmountsByCurrency == ["usd": 1_700])
        #expect(status.networkStatus == .offline)

        await simulator.forwardPendingPayments()
        #expect(delegate.forwarded.isEmpty)
        await simulator.setSimulatedOfflineMode(.disabled)
        await simulator.forwardPendingPayments()
        let (intent, forwardError) = try #require(delegate.forwarded.first)
        #expect(forwardError == nil)
        #expect(intent.stripeId != nil)
        #expect(intent.isReadyToCapture)
        #expect(intent.metadata["tender_reference"] == "P-1")
        #expect(await simulator.offlineStatus.sdk.paymentsCount == 0)
        #expect(await simulator.charges(reference: "P-1").first?.amount == 1_700)
        #expect(intent.amount == 1_700)
        #expect(intent.amountDetailsTip == 200)
        #expect(delegate.lines.contains("offline offline 1"))
    }

    @Test("no tip on a reader without a tip screen (M2), even when tipping is not skipped; WisePad 3 collects one")
    func tipOnlyOnReadersThatCanTip() async throws {
        for (reader, tip) in [(m2Reader, UInt?.none), (Stripe.SimulatorConfiguration.defaultReaders[2], 200)] {
            let (simulator, _) = makeSimulator { $0.simulatedTipAmount = 200 }
            try await connect(simulator, reader)
            let created = try await simulator.createPaymentIntent(params(), createConfig: .init())
            let (collected, _) = await collect(simulator, created, skipTipping: false)
            #expect(collected?.amountTip == nil, "\(reader.deviceType): no updatePaymentIntent, no amountTip")
            let (confirmed, _) = await confirm(simulator, try #require(collected))
            #expect(confirmed?.amountDetailsTip == tip, "\(reader.deviceType)")
            #expect(confirmed?.amount == 1_500 + (tip ?? 0), "\(reader.deviceType): the tip is in the amount")
        }
    }

    @Test("skipTipping: no on-reader tip")
    func skipTipping() async throws {
        let (simulator, _) = makeSimulator { $0.simulatedTipAmount = 200 }
        try await connect(simulator)
        let created = try await simulator.createPaymentIntent(params(), createConfig: .init())
        let (collected, _) = await collect(simulator, created, skipTipping: true)
        #expect(collected?.amountTip == nil)
        let (confirmed, _) = await confirm(simulator, try #require(collected))
        #expect(confirmed?.amountDetailsTip == nil)
        #expect(confirmed?.amount == 1_500)
    }

    @Test("forwarding asks for a token even offline; failures are reported, payments kept")
    func forwardingTokenFailure() async throws {
        for empty in [false, true] {
            let (simulator, clock) = makeSimulator()
            try await connect(simulator)
            try await takeDirect(simulator, reference: "P-T", behavior: .forceOffline)
            let file = SimulatorStateFile<StripeSimulator.PersistedState>(
                url: FileManager.default.temporaryDirectory.appendingPathComponent("stripe-tok-\(UUID().uuidString).json"))
            defer { try? FileManager.default.removeItem(at: file.url) }
            try await simulator.persist(to: file)
            let restored = try StripeSimulator(restoringFrom: file, configuration: await simulator.currentConfiguration,
                                               clock: clock, tokenProvider: FailingTokenProvider(empty: empty))
            let delegate = RecordingDelegate()
            restored.setOfflineDelegate(delegate)
            await restored.forwardPendingPayments()
            let expected = empty ? "connectionTokenProviderCompletedWithNothingWhileForwarding"
                : "connectionTokenProviderCompletedWithErrorWhileForwarding"
            #expect(delegate.lines.contains("forwardingError \(expected)"))
            #expect(delegate.forwarded.isEmpty)
            #expect(await restored.storedPayments.count == 1)
        }
    }

    @Test("persisted state survives a simulated restart: server truth and the device's offline store")
    func persistence() async throws {
        let (simulator, clock) = makeSimulator()
        try await connect(simulator)
        try await takeDirect(simulator, reference: "A")
        try await takeDirect(simulator, reference: "B", behavior: .forceOffline)
        let file = SimulatorStateFile<StripeSimulator.PersistedState>(
            url: FileManager.default.temporaryDirectory.appendingPathComponent("stripe-p-\(UUID().uuidString).json"))
        defer { try? FileManager.default.removeItem(at: file.url) }
        try await simulator.persist(to: file)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        let restored = try StripeSimulator(restoringFrom: file, configuration: await simulator.currentConfiguration,
                                           clock: clock)
        #expect(await restored.chargeCount(reference: "A") == 1)
        #expect(await restored.storedPayments.count == 1)
        #expect(await restored.connectedReader == nil)
        await restored.forwardPendingPayments()
        #expect(await restored.chargeCount(reference: "B") == 1)
        #expect(Set(await restored.serverIntents.compactMap(\.stripeId)).count == 2)
    }

    @Test("a relaunch forgets every handle (old objects fail), keeps the offline store and Stripe's side")
    func relaunchForgetsHandles() async throws {
        let (simulator, _) = makeSimulator()
        let delegate = RecordingDelegate()
        simulator.setOfflineDelegate(delegate)
        try await connect(simulator)
        let stored = try await takeDirect(simulator, reference: "RL-S", behavior: .forceOffline)
        let pending = try await simulator.createPaymentIntent(params(reference: "RL-P"), createConfig: .init())
        let (collected, _) = await collect(simulator, pending)
        await simulator.relaunch()
        #expect(await simulator.connectedReader == nil)
        #expect(await simulator.storedPayments.map(\.intent.metadata["tender_reference"]) == ["RL-S"])
        #expect(await simulator.serverIntent(stripeId: pending.stripeId ?? "")?.status == .requiresPaymentMethod)
        try await connect(simulator)
        let (_, oldHandle) = await confirm(simulator, try #require(collected))
        #expect(oldHandle?.code == .confirmInvalidPaymentIntent)
        let (_, oldStored) = await confirm(simulator, stored)
        #expect(oldStored?.code == .confirmInvalidPaymentIntent)
        await #expect(throws: Stripe.ErrorCode.self) { _ = try await simulator.cancelPaymentIntent(pending) }
        // The old delegate belonged to the dead process: a forward after the relaunch goes to the new one only.
        let fresh = RecordingDelegate()
        simulator.setOfflineDelegate(fresh)
        await simulator.forwardPendingPayments()
        #expect(fresh.forwarded.map(\.0.metadata["tender_reference"]) == ["RL-S"])
        #expect(delegate.forwarded.isEmpty)
        // The server copy continues through the SDK after retrieval by client secret.
        let retrieved = try await simulator.retrievePaymentIntent(clientSecret: try #require(pending.clientSecret))
        #expect(retrieved.sdkHandle != pending.sdkHandle)
        let (recollected, _) = await collect(simulator, retrieved)
        let (confirmed, _) = await confirm(simulator, try #require(recollected))
        #expect(confirmed?.status == .requiresCapture)
        #expect(await simulator.chargeCount(reference: "RL-P") == 1)
    }

    @Test("requireOnline and forceOffline creation rules")
    func creationRules() async throws {
        let (simulator, _) = makeSimulator()
        try await connect(simulator)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        do {
            _ = try await simulator.createPaymentIntent(params(), createConfig: .init(offlineBehavior: .requireOnline))
            Issue.record("requireOnline must fail offline")
        } catch {
            #expect(error.code == .notConnectedToInternetAndOfflineBehaviorRequireOnline)
        }
        await simulator.setSimulatedOfflineMode(.offlineTimeout)
        let fallback = try await simulator.createPaymentIntent(params(), createConfig: nil)
        #expect(fallback.stripeId == nil)

        let (disabled, _) = makeSimulator(offlineEnabled: false)
        try await connect(disabled)
        do {
            _ = try await disabled.createPaymentIntent(params(), createConfig: .init(offlineBehavior: .forceOffline))
            Issue.record("forceOffline must fail when offline is disabled")
        } catch {
            #expect(error.code == .offlineBehaviorForceOfflineWithFeatureDisabled)
        }
        await disabled.setSimulatedOfflineMode(.offlineImmediate)
        do {
            _ = try await disabled.createPaymentIntent(params(), createConfig: .init())
            Issue.record("preferOnline must fail offline when offline is disabled")
        } catch {
            #expect(error.code == .notConnectedToInternet)
        }
    }

    @Test("created online, collected offline, confirmed offline: keeps its stripeId; collected online: 6904")
    func createdOnlineConfirmedOffline() async throws {
        let (simulator, _) = makeSimulator()
        try await connect(simulator)
        let created = try await simulator.createPaymentIntent(params(), createConfig: .init())
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let (collected, _) = await collect(simulator, created)
        let (confirmed, _) = await confirm(simulator, try #require(collected))
        #expect(confirmed?.stripeId == created.stripeId)
        #expect(confirmed?.offlineDetails?.requiresUpload == true)
        await simulator.setSimulatedOfflineMode(.disabled)
        await simulator.forwardPendingPayments()
        #expect(await simulator.serverIntents.count == 1)
        #expect(await simulator.serverIntent(stripeId: created.stripeId ?? "")?.status == .requiresCapture)

        let online = try await simulator.createPaymentIntent(params(reference: "P-2"), createConfig: .init())
        let (collectedOnline, _) = await collect(simulator, online)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let (_, mismatch) = await confirm(simulator, try #require(collectedOnline))
        #expect(mismatch?.code == .offlineCollectAndConfirmMismatch)
        #expect(mismatch?.paymentIntent?.status == .requiresPaymentMethod)
        #expect(await simulator.storedPayments.count == 0)
    }

    @Test("a requireOnline confirm while offline keeps requiresConfirmation; confirming again online succeeds")
    func retryConfirm() async throws {
        let (simulator, _) = makeSimulator()
        try await connect(simulator)
        let created = try await simulator.createPaymentIntent(params(), createConfig: .init(offlineBehavior: .requireOnline))
        let collected = try #require(await collect(simulator, created).0)
        await simulator.setSimulatedOfflineMode(.offlineImmediate)
        let (_, error) = await confirm(simulator, collected)
        #expect(error?.paymentIntent?.status == .requiresConfirmation)
        await simulator.setSimulatedOfflineMode(.disabled)
        #expect(await confirm(simulator, collected).0?.status == .requiresCapture)
    }

    @Test("a flapping network during forwarding forwards each payment exactly once")
    func flappingForwarding() async throws {
        let (simulator, _) = makeSimulator(seed: 99)
        let delegate = RecordingDelegate()
        simulator.setOfflineDelegate(delegate)
        try await connect(simulator)
        for index in 0..<12 { try await takeDirect(simulator, reference: "FL-\(index)", behavior: .forceOffline) }
        await simulator.setSimulatedOfflineMode(.offlineIntermittent)
        var rounds = 0
        while !(await simulator.storedPayments.isEmpty), rounds < 100 {
            await simulator.forwardPendingPayments(maxCount: 3)
            rounds += 1
        }
        #expect(rounds > 4)
        #expect(await simulator.storedPayments.isEmpty)
        #expect(delegate.forwarded.count == 12)
        for index in 0..<12 { #expect(await simulator.chargeCount(reference: "FL-\(index)") == 1) }
        #expect(Set(delegate.forwarded.compactMap(\.0.stripeId)).count == 12)
    }

    @Test("the intermittent network is deterministic under a seed")
    func intermittentDeterministic() async throws {
        func outcomes(seed: UInt64) async -> [Bool] {
            let (simulator, _) = makeSimulator(seed: seed)
            await simulator.setSimulatedOfflineMode(.offlineIntermittent)
            var results: [Bool] = []
            for _ in 0..<16 {
                let intent = try? await simulator.createPaymentIntent(params(), createConfig: .init(offlineBehavior: .requireOnline))
                results.append(intent != nil)
            }
            return results
        }
        let first = await outcomes(seed: 42)
        #expect(first == (await outcomes(seed: 42)))
        #expect(first.contains(true) && first.contains(false))
    }

    @Test("offline rules: the stored-payment limit, the operating currency (any, not only USD), the maximum")
    func offlineLimits() async throws {
        let (simulator, _) = makeSimulator { $0.offlineStoredPaymentsMaximum = 1 }
        try await connect(simulator)
        func store(_ amount: UInt, _ currency: String = "usd") async -> Stripe.ErrorCode? {
            do { try await takeDirect(simulator, reference: "L", amount: amount, currency: currency,
                                      behavior: .forceOffline); return nil } catch { return error as? Stripe.ErrorCode }
        }
        #expect(await store(1_000_001)?.code == .amountExceedsMaxOfflineAmount)
        #expect(await store(100, "cad")?.code == .invalidOfflineCurrency)
        #expect(await store(100) == nil)
        #expect(await store(100)?.code == .offlinePaymentsDatabaseTooLarge)

        let (canadian, _) = makeSimulator {
            $0.operatingCurrency = "cad"
            $0.offlineMaximum = 1_370_000
        }
        try await connect(canadian)
        #expect(try await takeDirect(canadian, reference: "CA", amount: 1_200_000, currency: "cad",
                                     behavior: .forceOffline).offlineDetails?.requiresUpload == true)
        await #expect(throws: Stripe.ErrorCode.self) {
            try await takeDirect(canadian, reference: "US", amount: 100, currency: "usd", behavior: .forceOffline)
        }
    }

    @Test("offline, the reader refuses an expired card (6902) and a card that declines verification (6903)")
    func offlineCardRefusals() async throws {
        let (simulator, _) = makeSimulator { $0.simulatedCard = .chargeDeclinedExpiredCard }
        try await connect(simulator)
        do {
            try await takeDirect(simulator, reference: "EX", behavior: .forceOffline)
            Issue.record("an expired card must be refused offline")
        } catch let error as Stripe.ErrorCode {
            #expect(error.code == .offlineAndCardExpired)
            #expect(error.paymentIntent?.status == .requiresPaymentMethod)
        }
        await simulator.configure {
            $0.simulatedCard = .visa
            $0.offlineCardDeclineReason = "offline_pin_required"
        }
        do {
            try await takeDirect(simulator, reference: "OD", behavior: .forceOffline)
            Issue.record("the card must decline offline")
        } catch let error as Stripe.ErrorCode {
            #expect(error.code == .offlineTransactionDeclined)
            #expect(error.offlineDeclineReason == "offline_pin_required")
        }
        #expect(await simulator.storedPayments.isEmpty)
    }

    @Test("retrievePaymentIntent for server-created intents; cancel; clearCachedCredentials; logs")
    func moreTerminal() async throws {
        let (simulator, _) = makeSimulator()
        let logs = Locked<[String]>([])
        simulator.setLogListener { line in logs.withLock { $0.append(line) } }
        let server = await simulator.createOnServer(params(reference: "SRV"))
        #expect(server.sdkHandle == nil)
        let retrieved = try await simulator.retrievePaymentIntent(clientSecret: try #require(server.clientSecret))
        #expect(retrieved.stripeId == server.stripeId)
        #expect(retrieved.sdkHandle != nil)
        await #expect(throws: Stripe.ErrorCode.self) { _ = try await simulator.retrievePaymentIntent(clientSecret: "bad") }
        let canceled = try await simulator.cancelPaymentIntent(retrieved)
        #expect(canceled.status == .canceled)

        try await connect(simulator)
        try await takeDirect(simulator, reference: "CC", behavior: .forceOffline)
        do { try await simulator.clearCachedCredentials(); Issue.record("must fail while connected") } catch {
            #expect(error.code == .unexpectedOperationError)
        }
        try await simulator.disconnectReader()
        try await simulator.clearCachedCredentials()
        #expect(await simulator.offlineStatus.sdk.paymentsCount == nil)
        #expect(await simulator.offlineStatus.sdk.paymentAmountsByCurrency.isEmpty)
        #expect(!logs.current.isEmpty)
    }

    @Test("reader prompts and a failed collection")
    func promptsAndFailedCollection() async throws {
        let (simulator, _) = makeSimulator()
        let delegate = RecordingDelegate()
        simulator.setTerminalDelegate(delegate)
        try await connect(simulator, delegate: delegate)
        try await takeDirect(simulator, reference: "PR", behavior: .forceOffline)
        #expect(delegate.lines.contains("input \(Stripe.ReaderInputOptions([.insertCard, .tapCard]).rawValue)"))
        #expect(delegate.lines.contains("display removeCard"))
        #expect(delegate.lines.contains("event cardInserted"))
        #expect(delegate.lines.contains("payment processing"))
        await simulator.failNextCollection(with: .cardReadTimedOut)
        let next = try await simulator.createPaymentIntent(params(), createConfig: .init())
        let (collected, error) = await collect(simulator, next)
        #expect(collected == nil)
        #expect(error?.code == .cardReadTimedOut)
        #expect(delegate.lines.contains("display tryAnotherReadMethod"))
    }
}
