package import Foundation

/// Which way a payment goes. Recorded in the ledger for every session.
public enum PaymentRoute: String, Hashable, Sendable, Codable, CaseIterable {
    /// Authorized by the processor while the customer waits.
    case online
    /// Stored on the device and forwarded to the processor later.
    case offline
}

/// The outcome of routing a request: what the processor is told to do, or why the payment is refused.
public enum RoutingDecision: Hashable, Sendable {
    /// Online only: the processor must not fall back to storing offline (Stripe `requireOnline`, Square
    /// `onlineOnly`). Chosen for ``OfflinePolicy/requireOnline``, and for ``OfflinePolicy/preferOnline`` when an
    /// offline fallback would break a risk limit.
    case online
    /// Online, and the processor may store the payment offline if the network fails (Stripe `preferOnline`,
    /// Square `autoDetect`). Chosen only when the payment fits every offline limit.
    case onlineWithOfflineFallback
    /// Stored offline now (Stripe `forceOffline`, Square `offlineOnly`), within every limit.
    case offline
    /// Not taken: the error says which policy or limit refused it.
    case refused(PaymentError)

    /// The route the payment starts on, or `nil` when refused.
    package var initialRoute: PaymentRoute? {
        switch self {
        case .online, .onlineWithOfflineFallback: .online
        case .offline: .offline
        case .refused: nil
        }
    }
}

/// The routing decision, as a pure function of the request (with its policy), the effective limits, the current
/// offline queue and the network status.
package enum OfflineRouter {
    /// Decides how to route `request`.
    ///
    /// | policy | online or unknown | offline |
    /// |---|---|---|
    /// | ``OfflinePolicy/requireOnline`` | ``RoutingDecision/online`` | refused: ``PaymentError/Code/offlineNotAllowed`` |
    /// | ``OfflinePolicy/preferOnline`` | fallback if within limits, else online | offline if within limits, else refused |
    /// | ``OfflinePolicy/forceOffline`` | offline if within limits, else refused | offline if within limits, else refused |
    ///
    /// - Parameters:
    ///   - request: the payment; its ``PaymentRequest/offlinePolicy`` is the policy.
    ///   - limits: Tender's limits merged with the processor's (``OfflineRiskLimits/merged(with:source:)``);
    ///     `nil` when the processor cannot take payments offline at all.
    ///   - queue: the stored payments now.
    ///   - network: the network status now.
    ///   - now: the current time, for the oldest-stored-age limit.
    package static func decide(request: PaymentRequest, limits: EffectiveOfflineLimits?, queue: OfflineQueueSnapshot,
                              network: NetworkStatus, now: Date) -> RoutingDecision {
        switch request.offlinePolicy {
        case .requireOnline:
            if network == .offline {
                return .refused(PaymentError(
                    .offlineNotAllowed, recovery: .goOnline, phase: .routing,
                    message: "The device is offline and this sale requires online processing."))
            }
            return .online
        case .preferOnline:
            let problem = offlineProblem(request: request, limits: limits, queue: queue, now: now)
            if network == .offline {
                return problem.map(RoutingDecision.refused) ?? .offline
            }
            return problem == nil ? .onlineWithOfflineFallback : .online
        case .forceOffline:
            let problem = offlineProblem(request: request, limits: limits, queue: queue, now: now)
            return problem.map(RoutingDecision.refused) ?? .offline
        }
    }

    /// The first reason `request` cannot be stored offline, or `nil` if it fits every limit.
    package static func offlineProblem(request: PaymentRequest, limits: EffectiveOfflineLimits?,
                                      queue: OfflineQueueSnapshot, now: Date) -> PaymentError? {
        guard let limits else {
            return PaymentError(.offlineUnavailable, recovery: .goOnline, phase: .routing,
                                message: "This processor or account cannot take payments offline.")
        }
        let total: Money
        do { total = try request.total() } catch { return error }
        let currency = total.currency
        func refuse(_ code: PaymentError.Code, _ kind: OfflineLimitKind, _ source: LimitSource, limit: Int64,
                    attempted: Int64, _ message: String) -> PaymentError {
            PaymentError(code, recovery: .goOnline, phase: .routing, message: message,
                         limit: OfflineLimitViolation(kind: kind, source: source, limit: limit, attempted: attempted,
                                                      currency: kind == .perPaymentMaximum || kind == .storedTotalMaximum ? currency : nil))
        }
        guard let perPayment = limits.perPaymentMaximum[currency], limits.storedTotalMaximum[currency] != nil else {
            return PaymentError(.offlineUnavailable, recovery: .goOnline, phase: .routing,
                                message: "Offline payments in \(currency.code) are not enabled.")
        }
        if total.minorUnits > perPayment.value {
            return refuse(.offlinePaymentLimitExceeded, .perPaymentMaximum, perPayment.source,
                          limit: perPayment.value, attempted: total.minorUnits,
                          "\(total) is over the offline maximum of \(Money(minorUnits: perPayment.value, currency: currency)) per payment (\(perPayment.source)).")
        }
        let storedTotal = limits.storedTotalMaximum[currency]!
        let stored = queue.storedAmounts[currency] ?? 0
        let (after, overflow) = stored.addingReportingOverflow(total.minorUnits)
        if overflow || after > storedTotal.value {
            return refuse(.offlineStoredTotalExceeded, .storedTotalMaximum, storedTotal.source,
                          limit: storedTotal.value, attempted: overflow ? Int64.max : after,
                          "Storing \(total) would bring offline payments to \(overflow ? "more than" : Money(minorUnits: after, currency: currency).description), over the stored maximum of \(Money(minorUnits: storedTotal.value, currency: currency)) (\(storedTotal.source)).")
        }
        if let countLimit = limits.storedCountMaximum, queue.storedCount + 1 > countLimit.value {
            return refuse(.offlineStoredCountExceeded, .storedCountMaximum, countLimit.source,
                          limit: Int64(countLimit.value), attempted: Int64(queue.storedCount + 1),
                          "\(queue.storedCount) payments are already stored offline; the maximum is \(countLimit.value) (\(countLimit.source)).")
        }
        if let deviceLimit = limits.deviceStoredCountMaximum {
            let onDevice = max(queue.deviceStoredCount ?? queue.storedCount, queue.storedCount)
            if onDevice + 1 > deviceLimit.value {
                return refuse(.offlineStoredCountExceeded, .deviceStoredCountMaximum, deviceLimit.source,
                              limit: Int64(deviceLimit.value), attempted: Int64(onDevice + 1),
                              "\(onDevice) payments are already stored on this device for all accounts; the device maximum is \(deviceLimit.value) (\(deviceLimit.source)).")
            }
        }
        if let window = limits.offlineWindowMaximum, let lastOnline = queue.lastOnlineAt {
            let offlineFor = now.timeIntervalSince(lastOnline)
            if offlineFor >= window.value {
                return refuse(.offlineStoredAgeExceeded, .offlineWindow, window.source,
                              limit: Int64(window.value), attempted: Int64(offlineFor),
                              "The device has been offline for \(Int(offlineFor / 60)) minutes; no more offline payments until it goes online (maximum \(Int(window.value / 60)) minutes since last online, \(window.source)).")
            }
        }
        if let ageLimit = limits.oldestStoredAgeMaximum, let oldest = queue.oldestStoredAt {
            let age = now.timeIntervalSince(oldest)
            if age >= ageLimit.value {
                return refuse(.offlineStoredAgeExceeded, .oldestStoredAge, ageLimit.source,
                              limit: Int64(ageLimit.value), attempted: Int64(age),
                              "The oldest stored payment is \(Int(age / 60)) minutes old; no more offline payments until it is forwarded (maximum \(Int(ageLimit.value / 60)) minutes, \(ageLimit.source)).")
            }
        }
        return nil
    }
}
