import Foundation

/// Everything one run found, printed as a table or as JSON; the summary line follows either.
struct FullReport: Codable {
    var seed: UInt64
    var kill: KillReport?
    var flap: FlapReport?
    var fuzz: FuzzReport?
    var lost = 0
    var duplicated = 0
    var crashes = 0
    var mismatches = 0

    /// Adds up the four figures of every test that ran.
    mutating func total() {
        for tally in [kill?.tally, flap?.tally, fuzz?.tally].compactMap({ $0 }) {
            lost += tally.lost
            duplicated += tally.duplicated
            crashes += tally.crashes
            mismatches += tally.mismatches
        }
    }

    func printJSON() {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        if let data = try? encoder.encode(self) { print(String(decoding: data, as: UTF8.self)) }
    }

    func printTable(verbose: Bool) {
        func row(_ cells: [String]) -> String {
            let widths = [10, 7, 9, 9, 9, 8, 5, 5, 5, 5, 8]
            return zip(cells, widths).map { cell, width in
                cell.count >= width ? cell : String(repeating: " ", count: width - cell.count) + cell
            }.joined(separator: " ")
        }
        func seconds(_ value: Double) -> String { String(format: "%.1f", value) }
        print(row(["test", "rounds", "killed", "payments", "charges", "refunds", "lost", "dup", "crash", "mism",
                   "seconds"]))
        if let kill {
            let t = kill.tally
            print(row([kill.powerLoss == nil ? "kill" : "power-loss", "\(kill.rounds)", "\(kill.killed)", "\(t.payments)", "\(t.chargesChecked)",
                       "\(t.refundsChecked)", "\(t.lost)", "\(t.duplicated)", "\(t.crashes)", "\(t.mismatches)",
                       seconds(kill.seconds)]))
        }
        if let flap {
            let t = flap.tally
            print(row(["flapping", "\(flap.forwardingSteps)", "-", "\(t.payments)", "\(t.chargesChecked)", "-",
                       "\(t.lost)", "\(t.duplicated)", "\(t.crashes)", "\(t.mismatches)", seconds(flap.seconds)]))
        }
        if let fuzz {
            let t = fuzz.tally
            print(row(["fuzz", "\(fuzz.inputs)", "-", "\(fuzz.requests)", "-", "\(fuzz.refundsRecorded)", "\(t.lost)",
                       "\(t.duplicated)", "\(t.crashes)", "\(t.mismatches)", seconds(fuzz.seconds)]))
        }
        if let kill { printDetails(kill, verbose: verbose) }
        if let flap {
            print("flapping: \(flap.stored) stored, \(flap.toggles) network toggles over \(flap.forwardingSteps) forwarding steps, "
                  + "\(flap.resolvedOnlyByRecovery) recorded only by recovery")
        }
        if let fuzz {
            print("fuzz: \(fuzz.requests) requests (\(fuzz.validRequests) valid), \(fuzz.currencies) currency codes, "
                  + "\(fuzz.transitions) transitions, \(fuzz.eventSequences) forwarding-result batches, "
                  + "\(fuzz.vendorNames) vendor error names, \(fuzz.vendorSequences) vendor lifecycles, "
                  + "\(fuzz.enumValues) vendor enum values, \(fuzz.adapterRequests) requests through the adapters, "
                  + "\(fuzz.refundAttempts) refund attempts (\(fuzz.refundsRecorded) recorded, "
                  + "\(fuzz.overRefundAttempts) over the total, \(fuzz.overRefundsAccepted) accepted beyond what was captured)")
        }
        let notes = (kill?.tally.notes ?? []) + (flap?.tally.notes ?? []) + (fuzz?.tally.notes ?? [])
        for note in notes.prefix(20) { print("  ! \(note)") }
        if verbose {
            let histories = (kill?.tally.histories ?? []) + (flap?.tally.histories ?? []) + (fuzz?.tally.histories ?? [])
            for history in histories { print("  ? \(history)") }
        }
    }

    private func printDetails(_ kill: KillReport, verbose: Bool) {
        func listed(_ counts: [String: Int]) -> String {
            counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        print("\(kill.powerLoss == nil ? "kill" : "power-loss"): \(kill.rounds) rounds, \(kill.killed) of \(kill.lives) child lives "
              + "killed (\(kill.killedDuringBurst) during the burst, \(kill.killedDuringStartup) while starting or recovering), "
              + "\(kill.finishedBeforeKill) finished first")
        if let power = kill.powerLoss {
            print("  power cuts: \(power.timedCuts) by SIGKILL at a random moment (whole pages), "
                  + "\(power.cutsAtWrite.values.reduce(0, +)) at a chosen write (" + listed(power.cutsAtWrite) + "), "
                  + "\(power.cutsNotReached) armed past the life's end; about \(power.writesPerLife) ledger-file writes a life")
            print("  cut during: " + listed(power.phases))
        }
        if !kill.brokenWorlds.isEmpty {
            print("  the app could not start again in: \(kill.brokenWorlds.joined(separator: ", "))")
        }
        print("  child results: " + listed(kill.childOutcomes))
        if verbose {
            for example in examples.current { print("    \(example)") }
        }
        print("  faults injected: \(kill.faults.values.reduce(0, +)): " + listed(kill.faults))
        print("  refunds: \(kill.refunds.values.reduce(0, +)) asked (" + listed(kill.refunds) + "), "
              + "\(kill.overRefundAttempts) beyond what was left, \(kill.overRefundsAccepted) of them accepted")
        let v = kill.verifier
        print("  next lives: \(Int(v.secondsReachable)) simulated s with the processors reachable, "
              + "\(v.resolvedByRecovery) sessions resolved by recovery, \(v.unknownAwaitingRetry) unknown with nothing "
              + "settled at the processor, \(v.retriedInFlight) unfinished sales retried with the same reference, "
              + "\(v.captured) captures")
    }
}
