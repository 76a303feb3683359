import Foundation
import Tender
import TenderTesting

/// What the verifying lives did, over all rounds.
struct VerifierStats: Codable, Sendable {
    /// Sessions recovery moved to another state.
    var resolvedByRecovery = 0
    /// Sessions still `outcomeUnknown` after recovery with the processors reachable, whose vendor payment the
    /// processor has not settled (it waits for a card, or never received the request): the app's retry of the same
    /// reference decides them. (One the processor has settled is a mismatch.)
    var unknownAwaitingRetry = 0
    /// Sales left unfinished that the app retried with the same reference.
    var retriedInFlight = 0
    var captured = 0
    /// Simulated seconds the verifiers let pass with both processors reachable, polling.
    var secondsReachable = 0.0
}

/// The seconds between two polls while the verifier waits.
private let pollStep: Double = 10

/// The app's next launch after a kill, run in the parent, with this life's own search lags:
/// 1. restore, connect, recover, start the event pumps;
/// 2. make the processors reachable: both networks on, everything forwarded, and simulated time moved past the
///    longest consistency window plus the longest search lag while both facades poll (``settle(_:seconds:)``);
/// 3. recover again: a session still `outcomeUnknown` whose vendor payment the processor has settled is a mismatch
///    (the processor could answer and did not get asked, or was not believed);
/// 4. as the app does: retry the same reference for sales left unfinished, capture what waits for capture;
/// 5. wait the windows out again (refunds settle, the retries' results become searchable), recover, and compare
///    the round's sessions and refunds with both processors' truth (``compare(world:label:prefix:)``).
func verifyAfterKill(directory: URL, seed: UInt64, round: Int, stats: inout VerifierStats) async -> Tally {
    var tally = Tally()
    var random = SeededGenerator(seed: seed ^ (UInt64(round) &* 0x9E37_79B9_7F4A_7C15) ^ 0x5645_5249)
    let world: World
    do {
        world = try await World.launch(directory: directory, seed: seed, random: &random)
    } catch {
        tally.crashes += 1
        tally.worldUnusable = true
        tally.note("round \(round): the next life could not start: \(error)")
        return tally
    }
    let prefix = "r\(round)-"
    for (_, terminal) in world.terminals { stats.resolvedByRecovery += await terminal.recover().resolved.count }
    world.startEventPumps()
    let wait = world.longestConsistencyWindow + world.lags.longest + 2 * pollStep
    await settle(world, seconds: wait)
    stats.secondsReachable += wait
    for (name, terminal) in world.terminals {
        let report = await terminal.recover()
        stats.resolvedByRecovery += report.resolved.count
        let truth = name == "stripe" ? await world.stripeTruth() : await world.squareTruth()
        for reference in report.unresolved where reference.hasPrefix(prefix) {
            guard let session = try? await terminal.session(reference: reference) else { continue }
            if truth[reference]?.settledAttempts.contains(session.paymentAttempt) == true {
                tally.mismatch("round \(round) \(name) \(reference): outcomeUnknown after recovery although \(name) settled "
                    + "vendor payment \(session.paymentAttempt), \(Int(wait)) s with the processor reachable")
            } else {
                stats.unknownAwaitingRetry += 1
            }
        }
    }
    // Sales left unfinished: the app retries the same reference.
    for (_, terminal) in world.terminals {
        let sessions = (try? await terminal.sessions()) ?? []
        for session in sessions where unfinishedStates.contains(session.state) {
            let retry = PaymentRequest(amount: session.amount, reference: session.reference,
                                       captureMode: session.captureMode, offlinePolicy: .requireOnline,
                                       metadata: session.processor == "stripe" ? ["round": "\(round)"] : [:],
                                       tip: session.tip)
            stats.retriedInFlight += 1
            _ = try? await terminal.takePayment(retry)
        }
    }
    // Payments waiting for capture are captured.
    for (_, terminal) in world.terminals {
        let sessions = (try? await terminal.sessions()) ?? []
        for session in sessions where session.isReadyToCapture {
            if (try? await terminal.capture(reference: session.reference)) != nil { stats.captured += 1 }
        }
    }
    await settle(world, seconds: wait)
    stats.secondsReachable += wait
    world.stopEventPumps()
    for (_, terminal) in world.terminals { stats.resolvedByRecovery += await terminal.recover().resolved.count }
    tally.add(await compare(world: world, label: "round \(round)", prefix: prefix))
    await world.close()
    return tally
}

/// Makes both processors reachable and lets `seconds` of simulated time pass in steps: each step forwards what the
/// devices still hold, reads Square's queue, and has both facades poll (their lookups see the searches catch up, and
/// Stripe's adapter sees its SDK holding nothing).
func settle(_ world: World, seconds: Double) async {
    await world.forwardEverything()
    var waited = 0.0
    while waited < seconds {
        let move = min(pollStep, seconds - waited)
        world.advance(by: move)
        waited += move
        await world.stripeClient.forward(maxCount: nil)
        await world.squareClient.sync(maxCount: .max, processor: world.square)
        for (_, terminal) in world.terminals { _ = await terminal.pollOnce() }
    }
}

/// Before a world is dropped: every round's payments and refunds, compared again, so a later life that damaged an
/// earlier round's sessions (or charged or refunded them again) is caught.
func auditWorld(directory: URL, seed: UInt64) async -> Tally {
    guard let world = try? await World(directory: directory, seed: seed, gap: 1) else {
        var tally = Tally()
        tally.crashes += 1
        tally.note("audit of \(directory.lastPathComponent): the world could not be opened")
        return tally
    }
    let tally = await compare(world: world, label: "audit \(directory.lastPathComponent)", prefix: "r")
    await world.close()
    return tally
}
