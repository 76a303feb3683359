import Foundation

/// How a ratio's measurement ended.
enum StopReason: String {
    /// The spread of the median ratio came within the tolerance.
    case converged
    /// The time cap was hit first.
    case timeCap = "time cap"
    /// The largest number of trials was reached first.
    case trialCap = "trial cap"
}

/// One ratio, measured by interleaving baseline (A) and subject (B) trials: A B A B …
///
/// - `ratio` is the median of the per-trial ratios B/A (each trial pairs one baseline run with the subject run that
///   follows it, so slow drift of the machine affects both).
/// - `low`–`high`, the spread, is the 10th–90th percentile of that median over bootstrap resamples of the trials:
///   where the median would land if the run were repeated. It narrows as trials are added; the measurement stops
///   when `high − low` is within the tolerance (10%) of the median, or at the time cap (and says so).
/// - `trialLow`–`trialHigh` is the 10th–90th percentile of the individual trials' ratios (the noise itself).
struct RatioResult {
    let name: String
    let target: Double?
    let ratio: Double
    let low: Double
    let high: Double
    let trialLow: Double
    let trialHigh: Double
    let trials: Int
    let baselineSeconds: Double
    let subjectSeconds: Double
    let stoppedBy: StopReason
    let detail: String

    /// Whether the spread is within `tolerance` of the median.
    var spreadFraction: Double { ratio > 0 ? (high - low) / ratio : .infinity }

    /// Met (the whole spread is at or under the target), not met (all of it above), or undecided.
    var decision: String {
        guard let target else { return "-" }
        if high <= target { return "yes" }
        if low > target { return "NO" }
        return ratio <= target ? "yes?" : "NO?"
    }

    var met: Bool? { target.map { ratio <= $0 } }
}

/// Runs interleaved trials until the spread converges or a cap is hit.
struct Interleaved {
    var minTrials: Int
    var maxTrials: Int
    /// Seconds of measuring (warm-up excluded) after which no new trial starts.
    var timeCap: Double
    var tolerance = 0.10
    var warmUp = 1

    /// Measures `subject` against `baseline`. Each closure runs one trial and returns its duration in seconds
    /// (timing only what it compares, so a trial may prepare untimed work first).
    func measure(_ name: String, target: Double?, detail: (Double, Double) -> String,
                 baseline: () async throws -> Double, subject: () async throws -> Double) async throws -> RatioResult {
        for _ in 0..<warmUp {
            _ = try await baseline()
            _ = try await subject()
        }
        var baselines: [Double] = []
        var subjects: [Double] = []
        let clock = ContinuousClock()
        let start = clock.now
        var nextCheck = max(minTrials, 3)
        var stop = StopReason.trialCap
        while true {
            baselines.append(try await baseline())
            subjects.append(try await subject())
            let count = baselines.count
            let elapsed = seconds(clock.now - start)
            if count >= nextCheck || elapsed >= timeCap || count >= maxTrials {
                let (median, low, high) = Statistics.bootstrapMedian(ratios(subjects, baselines))
                if count >= minTrials, median > 0, (high - low) / median <= tolerance {
                    stop = .converged
                    break
                }
                if count >= maxTrials { stop = .trialCap; break }
                if elapsed >= timeCap, count >= 3 { stop = .timeCap; break }
                nextCheck = count + max(2, count / 2)
            }
        }
        let perTrial = ratios(subjects, baselines)
        let (median, low, high) = Statistics.bootstrapMedian(perTrial)
        let baselineMedian = Statistics.percentile(baselines, 0.5)
        let subjectMedian = Statistics.percentile(subjects, 0.5)
        return RatioResult(name: name, target: target, ratio: median, low: low, high: high,
                           trialLow: Statistics.percentile(perTrial, 0.1), trialHigh: Statistics.percentile(perTrial, 0.9),
                           trials: perTrial.count, baselineSeconds: baselineMedian, subjectSeconds: subjectMedian,
                           stoppedBy: stop, detail: detail(subjectMedian, baselineMedian))
    }

    private func ratios(_ subjects: [Double], _ baselines: [Double]) -> [Double] {
        zip(subjects, baselines).map { $1 > 0 ? $0 / $1 : .infinity }
    }
}

enum Statistics {
    /// The `p` quantile (0…1) by linear interpolation between order statistics.
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        let position = p * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }

    /// The median of `values`, and the 10th and 90th percentiles of the median over 400 bootstrap resamples
    /// (deterministic: a fixed seed).
    static func bootstrapMedian(_ values: [Double]) -> (median: Double, low: Double, high: Double) {
        let median = percentile(values, 0.5)
        guard values.count > 1 else { return (median, median, median) }
        var generator = SplitMix64(seed: 0x7E4D_E2)
        var medians: [Double] = []
        medians.reserveCapacity(400)
        var sample = [Double](repeating: 0, count: values.count)
        for _ in 0..<400 {
            for index in sample.indices { sample[index] = values[Int(generator.next() % UInt64(values.count))] }
            medians.append(percentile(sample, 0.5))
        }
        return (median, percentile(medians, 0.1), percentile(medians, 0.9))
    }
}

/// A small deterministic generator for the bootstrap.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Runs `body` and returns how long it took, in seconds.
func timed(_ body: () async throws -> Void) async rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try await body()
    return seconds(clock.now - start)
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
