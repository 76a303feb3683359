import Foundation

/// Everything a run measured, printed as a table or as one JSON object.
struct Report {
    let quick: Bool
    let day: SyncDay.Result
    var ratios: [RatioResult] = []
    var peakMemoryMiB = 0.0
    var memoryPerStoredPayment = 0.0
    var storedPayments = 0

    /// The target of `durable_syncs_per_payment`: the floor, a write-ahead record and an outcome per payment (a
    /// sale or a refund).
    static let syncTarget = 2.0

    private func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    func printJSON() throws {
        var figures: [String: Any] = [:]
        var object: [String: Any] = ["quick": quick, "stored_payments": storedPayments]
        for ratio in ratios {
            var figure: [String: Any] = [
                "value": rounded(ratio.ratio), "p10": rounded(ratio.low), "p90": rounded(ratio.high),
                "trial_p10": rounded(ratio.trialLow), "trial_p90": rounded(ratio.trialHigh), "trials": ratio.trials,
                "spread_within_10_percent": ratio.spreadFraction <= 0.10, "stopped_by": ratio.stoppedBy.rawValue,
                "subject_seconds": ratio.subjectSeconds, "baseline_seconds": ratio.baselineSeconds,
                "detail": ratio.detail,
            ]
            if let target = ratio.target {
                figure["target"] = target
                figure["target_met"] = ratio.met!
                figure["decided"] = !ratio.decision.hasSuffix("?")
                object[ratio.name + "_target_met"] = ratio.met!
            }
            if ratio.name == "cold_start_ratio" {
                figure["subject_ms"] = rounded(ratio.subjectSeconds * 1e3)
                figure["baseline_ms"] = rounded(ratio.baselineSeconds * 1e3)
                object["cold_start_ms"] = rounded(ratio.subjectSeconds * 1e3)
                object["cold_start_raw_ms"] = rounded(ratio.baselineSeconds * 1e3)
            }
            figures[ratio.name] = figure
            object[ratio.name] = rounded(ratio.ratio)
        }
        let perPayment = rounded(day.perPayment)
        figures["durable_syncs_per_payment"] = [
            "value": perPayment, "p10": perPayment, "p90": perPayment, "trials": 1, "target": Self.syncTarget,
            "target_met": day.perPayment <= Self.syncTarget, "counted": true, "syncs": day.syncs,
            "payments": day.payments, "sales": day.sales, "refunds": day.refunds, "days": day.days,
            "phases": day.phases.map { ["name": $0.name, "operations": $0.operations, "syncs": $0.syncs] },
            "creation_syncs": day.creationSyncs, "opening_syncs_each_day": day.openingSyncs,
            "closing_syncs_each_day": day.closingSyncs, "all_syncs": day.allSyncs,
            "all_syncs_per_payment": rounded(day.allInPerPayment),
            "wal_pages_per_payment": rounded(day.walPagesPerPayment),
            "directory_syncs_strace_adds": day.directorySyncs,
        ] as [String: Any]
        object["durable_syncs_per_payment"] = perPayment
        object["all_syncs_per_payment"] = rounded(day.allInPerPayment)
        object["durable_syncs_per_payment_target_met"] = day.perPayment <= Self.syncTarget
        object["peak_memory_mb"] = rounded(peakMemoryMiB)
        object["memory_per_stored_payment_bytes"] = rounded(memoryPerStoredPayment)
        object["figures"] = figures
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    func printTable() {
        print("tender-bench\(quick ? " (quick: small sizes and few trials, figures not meaningful)" : "")")
        print("Ratios: median of interleaved trials (baseline, subject, baseline, …); spread = p10–p90 of that median")
        print("over bootstrap resamples of the trials; trials are added until the spread is within 10% of the median.")
        print("met: yes/NO when the whole spread is on one side of the target, yes?/NO? when the target is inside it.")
        print("")
        print(pad("figure", 31) + pad("ratio", 8) + pad("spread", 16) + pad("trials", 8) + pad("target", 8) + pad("met", 5)
              + "detail")
        for ratio in ratios {
            let target = ratio.target.map { String(format: "≤ %.2f", $0) } ?? "-"
            print(pad(ratio.name, 31) + pad(String(format: "%.3f", ratio.ratio), 8)
                  + pad(String(format: "%.3f–%.3f", ratio.low, ratio.high), 16) + pad("\(ratio.trials)", 8)
                  + pad(target, 8) + pad(ratio.decision, 5) + ratio.detail)
            if ratio.stoppedBy != .converged {
                print(String(repeating: " ", count: 31) + String(
                    format: "↳ stopped by the %@ with the spread at %.0f%% of the median (trials themselves: %.3f–%.3f)",
                    ratio.stoppedBy.rawValue, ratio.spreadFraction * 100, ratio.trialLow, ratio.trialHigh))
            }
        }
        let met = day.perPayment <= Self.syncTarget ? "yes" : "NO"
        print(pad("durable_syncs_per_payment", 31) + pad(String(format: "%.3f", day.perPayment), 8)
              + pad("(counted)", 16) + pad("1", 8) + pad(String(format: "≤ %.2f", Self.syncTarget), 8) + pad(met, 5)
              + "\(day.syncs) syncs for \(day.payments) payments (\(day.sales) sales, \(day.refunds) refunds) "
              + "over \(day.days) days")
        print("")
        print("The days, phase by phase (syncs counted in SQLite's VFS: commits, checkpoints, WAL headers):")
        for phase in day.phases {
            let each = phase.operations > 0 ? String(format: "%.2f per operation", phase.perOperation) : ""
            print("  " + pad(phase.name, 46) + pad("\(phase.operations)", 5) + pad("\(phase.syncs) syncs", 10) + each)
        }
        print("  " + pad("creating the file", 51) + "\(day.creationSyncs) syncs")
        print("  " + pad("opening and recovery, each day", 51) + "\(day.openingSyncs) syncs")
        print("  " + pad("closing, each day", 51) + "\(day.closingSyncs) syncs")
        print(String(format: "  everything: %d syncs, %.3f per payment; %.1f WAL pages written per payment",
                     day.allSyncs, day.allInPerPayment, day.walPagesPerPayment))
        print("")
        print(String(format: "peak memory: %.1f MiB; %.0f bytes per stored payment (RSS growth while %d were stored)",
                     peakMemoryMiB, memoryPerStoredPayment, storedPayments))
    }
}
