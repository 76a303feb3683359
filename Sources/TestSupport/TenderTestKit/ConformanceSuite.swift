import Foundation

/// The result of one conformance check.
public struct ConformanceCheckResult: Hashable, Sendable, CustomStringConvertible {
    /// The check's name, e.g. `"decline"`.
    public var check: String
    /// What went wrong; empty when the check passed.
    public var failures: [String]
    /// What the check could not check for this subject and said so (a capability the processor lacks, a figure
    /// the environment cannot report), so that a pass is never vacuous without saying it.
    public var notes: [String] = []
    /// Whether the check passed.
    public var passed: Bool { failures.isEmpty }
    /// `✔ decline`, `✔ partial capture (note)` or `✘ decline: …`.
    public var description: String {
        let noted = notes.isEmpty ? "" : " (" + notes.joined(separator: "; ") + ")"
        return passed ? "✔ \(check)\(noted)" : "✘ \(check)\(noted): " + failures.joined(separator: "; ")
    }
}

/// The outcome of a conformance run.
public struct ConformanceReport: Hashable, Sendable, CustomStringConvertible {
    /// The subject's name.
    public var subject: String
    /// One result per check, in run order.
    public var results: [ConformanceCheckResult]
    /// Whether every check passed.
    public var passed: Bool { results.allSatisfy(\.passed) }
    /// Every failure, prefixed by its check.
    public var failures: [String] { results.flatMap { r in r.failures.map { "\(r.check): \($0)" } } }
    /// One line per check.
    public var description: String {
        "Conformance of \(subject): \(results.filter(\.passed).count)/\(results.count) checks passed\n"
            + results.map(\.description).joined(separator: "\n")
    }
}

/// The checks every adapter must pass: lifecycle, offline policy, limits, forwarding, errors with recoveries,
/// event order, cancellation and concurrency. Framework-neutral: call ``run()`` from XCTest or Swift Testing and
/// assert that ``ConformanceReport/passed`` is true (print the report on failure).
///
/// ```swift
/// @Test func conforms() async throws {
///     let report = await ConformanceSuite(subject: MySubject()).run()
///     #expect(report.passed, "\(report)")
/// }
/// ```
public struct ConformanceSuite: Sendable {
    /// A named check.
    public struct Check: Sendable {
        /// The name.
        public var name: String
        /// Whether it needs offline support (skipped, and reported as passed with no assertions, otherwise).
        public var needsOffline: Bool
        /// The body: record failures into the collector.
        public var body: @Sendable (any ConformanceEnvironment, FailureCollector) async throws -> Void
    }

    /// The subject.
    public let subject: any ConformanceSubject

    /// Creates a suite for a subject.
    public init(subject: any ConformanceSubject) { self.subject = subject }

    /// Runs every check, each on a fresh environment.
    public func run() async -> ConformanceReport { await run(where: { _ in true }) }

    /// Runs the checks whose name `include` accepts, each on a fresh environment (a focused run of some checks).
    package func run(where include: (String) -> Bool) async -> ConformanceReport {
        var results: [ConformanceCheckResult] = []
        for check in ConformanceSuite.checks where include(check.name) {
            let collector = FailureCollector()
            do {
                let environment = try await subject.makeEnvironment()
                if check.needsOffline && !environment.supportsOffline {
                    results.append(ConformanceCheckResult(check: check.name + " (skipped: no offline)", failures: []))
                    continue
                }
                try await check.body(environment, collector)
            } catch {
                collector.fail("threw \(error)")
            }
            let name = collector.notRunReason.map { "\(check.name) (not run: \($0))" } ?? check.name
            results.append(ConformanceCheckResult(check: name, failures: collector.failures,
                                                  notes: collector.notes))
        }
        return ConformanceReport(subject: subject.name, results: results)
    }

    /// Every check, in order.
    public static let checks: [Check] = [
        Check(name: "capabilities", needsOffline: false, body: capabilities),
        Check(name: "online approve", needsOffline: false, body: onlineApprove),
        Check(name: "decline", needsOffline: false, body: decline),
        Check(name: "manual capture", needsOffline: false, body: manualCapture),
        Check(name: "require online while offline", needsOffline: false, body: requireOnlineWhileOffline),
        Check(name: "offline store and forward", needsOffline: true, body: offlineStoreAndForward),
        Check(name: "decline when forwarded", needsOffline: true, body: declineWhenForwarded),
        Check(name: "cancellation", needsOffline: false, body: cancellation),
        Check(name: "retry never charges twice", needsOffline: false, body: retryNeverChargesTwice),
        Check(name: "lookup for recovery", needsOffline: false, body: lookup),
        Check(name: "concurrent payments", needsOffline: false, body: concurrency),
        Check(name: "through the facade", needsOffline: false, body: throughFacade),
        Check(name: "fault: confirm not received", needsOffline: false, body: confirmNotReceived),
        Check(name: "fault: answer lost after charge", needsOffline: false, body: answerLostAfterCharge),
        Check(name: "fault: search lag", needsOffline: false, body: searchLag),
        Check(name: "fault: relaunch forgets handles", needsOffline: false, body: relaunchForgetsHandles),
        Check(name: "fault: task cancelled mid-collect", needsOffline: false, body: cancelledMidCollect),
        Check(name: "fault: task cancelled mid-confirm", needsOffline: false, body: cancelledMidConfirm),
        Check(name: "another card after a decline", needsOffline: false, body: anotherCardAfterDecline),
        Check(name: "vendor queue: results never missed", needsOffline: true, body: resultsNeverMissed),
        Check(name: "vendor queue: destructive actions guarded", needsOffline: true, body: guardsUseVendorQueue),
        Check(name: "vendor queue: stored time from the vendor", needsOffline: true, body: storedTimeFromVendor),
        Check(name: "refunds: partial, never beyond the capture, settled once", needsOffline: false, body: refunds),
        Check(name: "scope switch and sign-out refused while a payment is in flight", needsOffline: false,
              body: scopeSwitchInFlight),
        Check(name: "ledger failure after a charge: outcome unknown, same reference safe", needsOffline: false,
              body: ledgerFailureAfterCharge),
        Check(name: "partial capture recorded: captured, refundable, refunded", needsOffline: false,
              body: partialCapture),
        Check(name: "amount above the processor's maximum refused before the vendor", needsOffline: false,
              body: amountAboveMaximum),
        Check(name: "refunds: a refund that fails after it succeeded", needsOffline: false,
              body: refundFailsAfterSuccess),
        Check(name: "refunds: three concurrent refunds reserve their amounts atomically", needsOffline: false,
              body: concurrentRefundsReserveAtomically),
        Check(name: "refunds: a second refund of the same amount is a new refund, on two terminals", needsOffline: false,
              body: secondRefundIsNeverMerged),
        Check(name: "keys: the same references at two locations never collide", needsOffline: false,
              body: keysAcrossLocations),
        Check(name: "readers: discovery ends when its task is cancelled, and at its timeout", needsOffline: false,
              body: readerDiscoveryCancellation),
        Check(name: "readers: a required update blocks payments until installed", needsOffline: false,
              body: requiredUpdateBlocksPayments),
        Check(name: "readers: what the connected reader cannot do is refused", needsOffline: false,
              body: readerCapabilitiesHonoured),
        Check(name: "races: recovery never commits a verdict for an earlier attempt", needsOffline: false,
              body: recoveryVerdictForEarlierAttempt),
        Check(name: "races: a payment keeps the scope it started in", needsOffline: false,
              body: scopeFixedAtPaymentStart),
        Check(name: "amounts: a capture whose answer was lost is recorded as the vendor captured it",
              needsOffline: false, body: lostCaptureAnswerAmount),
    ]
}

/// Collects failures of one check, and what it could not check. Thread-safe.
public final class FailureCollector: Sendable {
    private let storage = Locked<[String]>([])
    private let noted = Locked<[String]>([])
    /// Creates an empty collector.
    public init() {}
    /// Records a failure.
    public func fail(_ message: String) { storage.withLock { $0.append(message) } }
    /// Records a failure unless `condition` holds.
    public func expect(_ condition: Bool, _ message: @autoclosure () -> String) { if !condition { fail(message()) } }
    /// Records what the check could not check for this subject (shown with the result, so a pass is never silent
    /// about what it left out).
    public func note(_ message: String) { noted.withLock { $0.append(message) } }
    /// The failures so far.
    public var failures: [String] { storage.current }
    /// The notes so far.
    public var notes: [String] { noted.current }

    private let notRun = Locked<String?>(nil)
    /// Records that the check could not run, and why (the environment said its vendor cannot do it); the report
    /// names the check with the reason.
    public func notRun(_ reason: String) { notRun.withLock { $0 = reason } }
    /// Why the check did not run, if it did not.
    public var notRunReason: String? { notRun.current }
}

