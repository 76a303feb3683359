/// Everything an adapter must pass, in one call: the ``ConformanceSuite``, the ``CrashRecoveryCheck`` and the
/// ``PowerLossRecoveryCheck``.
///
/// ```swift
/// @Test func conforms() async {
///     let problems = await TenderConformance.problems(of: MySubject())
///     #expect(problems.isEmpty, "\(problems)")
/// }
/// ```
public enum TenderConformance {
    /// Runs the suite, the crash check and the power-loss check; returns every problem found, each prefixed by where
    /// it was found.
    public static func problems(of subject: any ConformanceSubject) async -> [String] {
        let report = await ConformanceSuite(subject: subject).run()
        var problems = report.failures.map { "conformance: \($0)" }
        if report.results.count != ConformanceSuite.checks.count {
            problems.append("conformance: ran \(report.results.count) of \(ConformanceSuite.checks.count) checks")
        }
        let outcomes = await CrashRecoveryCheck(subject: subject).run()
        if outcomes.count < 4 { problems.append("crash recovery: only \(outcomes.count) crash points ran") }
        problems += outcomes.filter { !$0.problems.isEmpty }.map { "crash recovery: \($0)" }
        let cuts = await PowerLossRecoveryCheck(subject: subject).run()
        if cuts.count < 8 { problems.append("power loss: only \(cuts.count) cuts ran") }
        problems += cuts.filter { !$0.problems.isEmpty }.map { "power loss: \($0)" }
        return problems
    }
}
