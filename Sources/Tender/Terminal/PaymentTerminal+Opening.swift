import Foundation

// Opening a payment: what routing needs besides the ledger's stored-payment aggregates is gathered first (the reader
// check, the network status, the vendor's queue), so that a new reference is looked up, routed and recorded
// write-ahead in one ledger call (``PaymentLedger/openPayment(reference:scope:create:)``): one transaction, one hop
// to the ledger's thread, instead of three.

extension PaymentTerminal {
    /// What routing a request needs, other than the ledger's stored-payment aggregates.
    struct RoutingInputs: Sendable {
        /// The vendor's own queue, for a policy that may go offline (`nil` otherwise, or when it cannot be read).
        let vendorQueue: OfflineQueueSnapshot?
        /// Tender's limits merged with the processor's; `nil` when the processor cannot store payments.
        let limits: EffectiveOfflineLimits?
        /// The network status.
        let network: NetworkStatus
    }

    /// Reads the vendor's queue (for a policy that may go offline) and merges the limits.
    func routingInputs(_ request: PaymentRequest, capabilities: ProcessorCapabilities) async -> RoutingInputs {
        var vendor: OfflineQueueSnapshot?
        if request.offlinePolicy != .requireOnline { vendor = try? await processor.queueSnapshot() }
        let effective = capabilities.offlineLimits.map {
            limits.merged(with: $0, source: .processor(capabilities.processorName))
        }
        return RoutingInputs(vendorQueue: vendor, limits: effective, network: networkStatus)
    }

    /// The routing decision from `inputs` and the ledger's stored-payment aggregates: the stored queue is the larger
    /// of the ledger's and the vendor's own (a payment the SDK holds counts even if Tender has not recorded it).
    static func decide(_ request: PaymentRequest, inputs: RoutingInputs, stored: StoredPaymentSummary,
                       now: Date) -> RoutingDecision {
        var queue = OfflineQueueSnapshot(networkStatus: inputs.network, storedCount: stored.count,
                                         storedAmounts: stored.amounts, oldestStoredAt: stored.oldestStoredAt)
        if let vendor = inputs.vendorQueue { queue = queue.atRisk(combinedWith: vendor) }
        return OfflineRouter.decide(request: request, limits: inputs.limits, queue: queue, network: inputs.network,
                                    now: now)
    }

    /// What opening a payment found: the reference's session if the ledger has it, or the new session recorded
    /// write-ahead with its routing decision.
    enum Opened {
        case existing(PaymentSession?)
        case created(PaymentSession, RoutingDecision)
    }

    /// Opens a payment in one ledger call when the reader is ready: the reference's session if it is recorded
    /// (nothing written), otherwise a new session routed against the stored aggregates and recorded write-ahead.
    /// When the reader check fails, only looks the reference up (a retry of a recorded payment needs no reader: the
    /// caller checks the reader again before anything new is taken). A refusal by routing throws, nothing recorded.
    func open(_ request: PaymentRequest, capabilities: ProcessorCapabilities) async throws -> Opened {
        do {
            try await checkReader(for: request)
        } catch {
            return .existing(try await ledger.session(reference: request.reference, scope: scope,
                                                      includingHistory: false))
        }
        await refreshNetworkStatus()
        let inputs = await routingInputs(request, capabilities: capabilities)
        let decided = Locked<RoutingDecision?>(nil)
        let (scope, clock, processorName) = (scope, clock, processor.name)
        let opening = try await ledger.openPayment(reference: request.reference, scope: scope) { stored in
            let now = clock.now()
            let decision = Self.decide(request, inputs: inputs, stored: stored, now: now)
            if case .refused(let error) = decision { throw error }
            decided.withLock { $0 = decision }
            return PaymentSession(request: request, scope: scope, processor: processorName,
                                  route: decision.initialRoute, at: now)
        }
        switch opening {
        case .existing(let session):
            return .existing(session)
        case .created(let session):
            guard let decision = decided.current else {
                throw PaymentError(.ledgerUnavailable, recovery: .fixIntegration, phase: .ledger,
                                   message: "The ledger recorded \(request.reference) without routing it.")
            }
            return .created(session, decision)
        }
    }
}
