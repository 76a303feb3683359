import Foundation
import Testing
@testable import Tender

/// The offline conditions a request can meet, each built so that exactly one limit is broken.
enum OfflineCondition: String, CaseIterable, Sendable {
    case eligible, processorHasNoOffline, currencyNotEnabled, perPaymentExceeded, storedTotalExceeded,
         storedCountExceeded, oldestTooOld

    var expectedCode: PaymentError.Code? {
        switch self {
        case .eligible: nil
        case .processorHasNoOffline, .currencyNotEnabled: .offlineUnavailable
        case .perPaymentExceeded: .offlinePaymentLimitExceeded
        case .storedTotalExceeded: .offlineStoredTotalExceeded
        case .storedCountExceeded: .offlineStoredCountExceeded
        case .oldestTooOld: .offlineStoredAgeExceeded
        }
    }
}

private let now = Date(timeIntervalSince1970: 1_767_225_600)
private let tenderLimits = OfflineRiskLimits(perPaymentMaximum: [.usd: 5_000], storedTotalMaximum: [.usd: 20_000],
                                             storedCountMaximum: 10, oldestStoredAgeMaximum: 3_600)

private func scenario(_ condition: OfflineCondition, policy: OfflinePolicy)
    -> (PaymentRequest, EffectiveOfflineLimits?, OfflineQueueSnapshot) {
    var amount = Money(minorUnits: 1_000, currency: .usd)
    var queue = OfflineQueueSnapshot(networkStatus: .unknown, storedCount: 2, storedAmounts: [.usd: 4_000],
                                     oldestStoredAt: now.addingTimeInterval(-60))
    var limits: EffectiveOfflineLimits? = tenderLimits.merged(with: ProcessorOfflineLimits(), source: .processor("p"))
    switch condition {
    case .eligible: break
    case .processorHasNoOffline: limits = nil
    case .currencyNotEnabled: amount = Money(minorUnits: 1_000, currency: .eur)
    case .perPaymentExceeded: amount = Money(minorUnits: 5_001, currency: .usd)
    case .storedTotalExceeded: queue.storedAmounts = [.usd: 19_500]
    case .storedCountExceeded: queue.storedCount = 10
    case .oldestTooOld: queue.oldestStoredAt = now.addingTimeInterval(-3_600)
    }
    return (PaymentRequest(amount: amount, reference: "r", offlinePolicy: policy), limits, queue)
}

private let matrix: [(OfflinePolicy, NetworkStatus, OfflineCondition)] = OfflinePolicy.allCases.flatMap { policy in
    NetworkStatus.allCases.flatMap { network in OfflineCondition.allCases.map { (policy, network, $0) } }
}

@Suite struct OfflineRoutingTests {
    /// 3 policies × 3 network states × 7 offline conditions, each against the documented decision table.
    @Test(arguments: matrix)
    func decisionTable(policy: OfflinePolicy, network: NetworkStatus, condition: OfflineCondition) {
        let (request, limits, queue) = scenario(condition, policy: policy)
        let decision = OfflineRouter.decide(request: request, limits: limits, queue: queue, network: network, now: now)
        let eligible = condition == .eligible
        switch (policy, network) {
        case (.requireOnline, .offline):
            guard case .refused(let error) = decision else { Issue.record("expected refusal, got \(decision)"); return }
            #expect(error.code == .offlineNotAllowed && error.recovery == .goOnline && error.phase == .routing)
        case (.requireOnline, _):
            #expect(decision == .online)
        case (.preferOnline, .offline), (.forceOffline, _):
            if eligible {
                #expect(decision == .offline)
            } else {
                guard case .refused(let error) = decision else { Issue.record("expected refusal, got \(decision)"); return }
                #expect(error.code == condition.expectedCode)
                #expect(error.phase == .routing)
            }
        case (.preferOnline, _):
            #expect(decision == (eligible ? .onlineWithOfflineFallback : .online))
        }
    }

    @Test func exactlyAtEachLimitIsAllowed() {
        let limits = tenderLimits.merged(with: nil, source: .processor("p"))
        let atPerPayment = PaymentRequest(amount: Money(minorUnits: 5_000, currency: .usd), reference: "r",
                                          offlinePolicy: .forceOffline)
        let queue = OfflineQueueSnapshot(networkStatus: .offline, storedCount: 9, storedAmounts: [.usd: 15_000],
                                         oldestStoredAt: now.addingTimeInterval(-3_599))
        #expect(OfflineRouter.decide(request: atPerPayment, limits: limits, queue: queue, network: .offline, now: now) == .offline)
    }

    @Test func tipCountsTowardsTheLimits() {
        let limits = tenderLimits.merged(with: nil, source: .processor("p"))
        let request = PaymentRequest(amount: Money(minorUnits: 4_900, currency: .usd), reference: "r",
                                     offlinePolicy: .forceOffline, tip: Money(minorUnits: 200, currency: .usd))
        let decision = OfflineRouter.decide(request: request, limits: limits, queue: .empty(.offline), network: .offline, now: now)
        guard case .refused(let error) = decision else { Issue.record("expected refusal"); return }
        #expect(error.limit?.attempted == 5_100 && error.limit?.limit == 5_000)
    }

    @Test func tighterLimitWinsAndIsNamed() throws {
        let processor = ProcessorOfflineLimits(perPaymentMaximum: [.usd: 3_000], storedTotalMaximum: [.usd: 50_000],
                                               storedCountMaximum: 20, storedAgeMaximum: 1_800)
        let merged = tenderLimits.merged(with: processor, source: .processor("stripe"))
        #expect(merged.perPaymentMaximum[.usd] == SourcedLimit(3_000, source: .processor("stripe")))
        #expect(merged.storedTotalMaximum[.usd] == SourcedLimit(20_000, source: .tender))
        #expect(merged.storedCountMaximum == SourcedLimit(10, source: .tender))
        #expect(merged.oldestStoredAgeMaximum == SourcedLimit(1_800, source: .processor("stripe")))

        let request = PaymentRequest(amount: Money(minorUnits: 4_000, currency: .usd), reference: "r",
                                     offlinePolicy: .forceOffline)
        guard case .refused(let error) = OfflineRouter.decide(request: request, limits: merged, queue: .empty(.offline),
                                                               network: .offline, now: now)
        else { Issue.record("expected refusal"); return }
        let limit = try #require(error.limit)
        #expect(limit.kind == .perPaymentMaximum && limit.source == .processor("stripe") && limit.currency == .usd)
        #expect(error.message.contains("stripe"))

        let small = PaymentRequest(amount: Money(minorUnits: 2_000, currency: .usd), reference: "r", offlinePolicy: .forceOffline)
        let old = OfflineQueueSnapshot(networkStatus: .offline, storedCount: 1, storedAmounts: [.usd: 100],
                                       oldestStoredAt: now.addingTimeInterval(-2_000))
        guard case .refused(let ageError) = OfflineRouter.decide(request: small, limits: merged, queue: old, network: .offline, now: now)
        else { Issue.record("expected refusal"); return }
        #expect(ageError.code == .offlineStoredAgeExceeded && ageError.limit?.source == .processor("stripe"))
    }

    @Test func processorCannotLoosenOrAddCurrencies() {
        let processor = ProcessorOfflineLimits(perPaymentMaximum: [.usd: 1_000_000, .eur: 1_000_000],
                                               storedTotalMaximum: [.eur: 1_000_000])
        let merged = tenderLimits.merged(with: processor, source: .processor("p"))
        #expect(merged.perPaymentMaximum[.usd]?.value == 5_000)
        #expect(merged.perPaymentMaximum[.eur] == nil)
    }

    @Test func noOfflineLimitsByDefault() {
        let merged = OfflineRiskLimits.none.merged(with: ProcessorOfflineLimits(), source: .processor("p"))
        let request = PaymentRequest(amount: Money(minorUnits: 1, currency: .usd), reference: "r", offlinePolicy: .forceOffline)
        guard case .refused(let error) = OfflineRouter.decide(request: request, limits: merged, queue: .empty(.online), network: .online, now: now)
        else { Issue.record("expected refusal"); return }
        #expect(error.code == .offlineUnavailable)
    }
}
