import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
import TenderStripe
import TenderStripeSimulator
import TenderTesting

struct FlapReport: Codable, Sendable {
    var stored = 0
    var toggles = 0
    var forwardingSteps = 0
    /// Sessions still stored in the ledger once the devices were empty and the events drained: only recovery
    /// recorded their results (reported, not counted as a failure: recovery is the documented safety net).
    var resolvedOnlyByRecovery = 0
    var seconds = 0.0
    var tally = Tally()
}

/// Thousands of stored payments over both processors, forwarded while the simulated network toggles at seeded
/// random moments between forwarding steps; results reach the facades through their event streams (`run()` →
/// `handle(_:)`). Then the same comparison as the kill test.
func runFlapTest(count: Int, seed: UInt64, directory: URL) async -> FlapReport {
    var report = FlapReport()
    let start = Date()
    var random = SeededGenerator(seed: seed ^ 0x464C_4150)
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let world: World
    do {
        world = try await World(directory: directory, seed: seed, persistsSimulators: false)
        try await world.connectReaders()
    } catch {
        report.tally.crashes += 1
        report.tally.note("flapping: setup failed: \(error)")
        return report
    }
    world.startEventPumps()
    // Outage: every sale is stored on the device.
    await world.setStripeNetwork(.offlineImmediate)
    await world.setSquareNetwork(.offline)
    for index in 0..<count {
        world.advance(by: 1)
        let isStripe = index % 2 == 0
        let declinesLater = random.chance(0.08)
        if isStripe {
            let card: Stripe.SimulatedCardType = declinesLater ? .chargeDeclinedInsufficientFunds : .visa
            await world.stripeSimulator.configure { $0.simulatedCard = card }
        } else {
            await world.squareSimulator.setPresentedCard(declinesLater ? .insufficientFunds : .visaChip)
        }
        let sale = PaymentRequest(
            amount: Money(minorUnits: Int64(random.int(1...140)) * 100 + Int64(random.int(0...99)), currency: .usd),
            reference: "f-\(index)", captureMode: .automatic,
            offlinePolicy: random.chance(0.5) ? .forceOffline : .preferOnline)
        let terminal = isStripe ? world.stripeTerminal : world.squareTerminal
        do {
            let session = try await terminal.takePayment(sale)
            if session.state == .storedOffline { report.stored += 1 } else {
                report.tally.mismatch("flapping f-\(index): \(session.state) while offline, not stored")
            }
        } catch {
            report.tally.mismatch("flapping f-\(index): refused while offline: \(error)")
        }
    }
    // Forwarding under a flapping network.
    let stripeModes: [Stripe.SimulatedOfflineMode] = [.disabled, .offlineImmediate, .offlineIntermittent]
    let squareModes: [SimulatedNetwork] = [.online, .offline, .flaky(failureRate: 0.5)]
    var stripeMode = 1
    var squareMode = 1
    var iterations = 0
    while iterations < 200_000 {
        iterations += 1
        if random.chance(0.35) {
            stripeMode = (stripeMode + random.int(1...2)) % 3
            await world.setStripeNetwork(stripeModes[stripeMode])
            report.toggles += 1
        }
        if random.chance(0.35) {
            squareMode = (squareMode + random.int(1...2)) % 3
            await world.setSquareNetwork(squareModes[squareMode])
            report.toggles += 1
        }
        world.advance(by: 1)
        await world.stripeClient.forward(maxCount: random.int(1...25))
        await world.squareClient.sync(maxCount: random.int(1...25), processor: world.square)
        report.forwardingSteps += 1
        if iterations % 8 == 0 { await Task.yield() }
        let left = await world.storedOnDevices()
        if left.stripe + left.square == 0 { break }
    }
    // Network on; let Square finish its last step (processed payments are reported when the queue is read).
    await world.forwardEverything()
    // Let the event streams drain into the ledgers.
    let deadline = Date().addingTimeInterval(30)
    var stillStored = 0
    repeat {
        stillStored = 0
        for (_, terminal) in world.terminals {
            stillStored += (try? await terminal.queueStatus().storedCount) ?? 0
        }
        if stillStored == 0 { break }
        try? await Task.sleep(nanoseconds: 2_000_000)
    } while Date() < deadline
    report.resolvedOnlyByRecovery = stillStored
    world.stopEventPumps()
    for (name, terminal) in world.terminals {
        let recovery = await terminal.recover()
        for reference in recovery.unresolved {
            report.tally.mismatch("flapping \(name) \(reference): outcomeUnknown after recovery")
        }
    }
    report.tally.add(await compare(world: world, label: "flapping", prefix: "f-"))
    await world.close()
    report.seconds = Date().timeIntervalSince(start)
    return report
}
