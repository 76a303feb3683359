import Foundation
import Tender
import TenderSquare
import TenderSquareSimulator
import TenderStripe
import TenderStripeSimulator
import TenderTesting

/// Writes one progress line to stdout at once (the parent reads it after the child ends, killed or not).
func progress(_ line: String) {
    watchdog.saw(line)
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Ends a child life that makes no progress for ``limit`` seconds of wall time (a payment, refund or relaunch that
/// never returns): it prints what it was doing and exits with status 4, which the parent counts as a crash. A
/// thread of its own, so it runs whatever the tasks wait for.
final class Watchdog: @unchecked Sendable {
    static let limit: TimeInterval = 30
    private let last = Locked<(line: String, at: Date)>(("start", Date()))

    func saw(_ line: String) { last.withLock { $0 = (line, Date()) } }

    func start() {
        let thread = Thread { [self] in
            while true {
                Thread.sleep(forTimeInterval: 1)
                let (line, at) = last.current
                guard Date().timeIntervalSince(at) > Self.limit else { continue }
                let message = "stuck for \(Int(Self.limit)) s after: \(line)\n"
                FileHandle.standardOutput.write(Data(message.utf8))
                FileHandle.standardError.write(Data(message.utf8))
                exit(4)
            }
        }
        thread.start()
    }
}

let watchdog = Watchdog()

/// One life of the point-of-sale app, run in a child process that the parent kills with SIGKILL at a random moment:
/// restore both simulators and the ledger (a relaunch: every SDK handle is gone), draw this life's search lags,
/// recover, then a seeded burst over both processors: online and offline sales with the vendors' faults injected at
/// random points, retries of the same reference by the app's rules, payments cancelled mid-collect and mid-confirm,
/// outages, forwarding steps, captures, refunds (partial, full, repeated, too large) with refund faults, and SDK
/// relaunches within the life.
///
/// Prints `ready` after recovery, `step N` before each step and `done` at the end; in between, one line per outcome
/// (`sale STATE`, `retry STATE`, `another STATE`, `cancel STATE`, `refund …`, `overrefund …`) and per injected fault
/// (`fault PROCESSOR KIND`), which the parent counts.
///
/// With `powerLoss`, the ledger opens through the power-loss VFS (see PowerLoss.swift), `selfCut` arms the life's own
/// power cut, the burst also checkpoints the ledger now and then, and `vfs-writes N ready|done` lines report the
/// writes the ledger's files received.
func runChildLife(directory: URL, seed: UInt64, round: Int, life: Int, powerLoss: Bool = false,
                  selfCut: SelfCut? = nil) async -> Int32 {
    watchdog.start()
    var random = SeededGenerator(seed: seed ^ (UInt64(round * 8 + life) &* 0x9E37_79B9_7F4A_7C15) ^ 0xC4A0_5000)
    let world: World
    do {
        let openLedger = powerLoss ? try ChildPowerLoss.install(cut: selfCut) : World.defaultLedger
        world = try await World.launch(directory: directory, seed: seed, random: &random, openLedger: openLedger)
    } catch {
        FileHandle.standardError.write(Data("child setup failed: \(error)\n".utf8))
        return 3
    }
    progress("fault stripe search-lag")
    progress("fault square search-lag")
    for (_, terminal) in world.terminals { _ = await terminal.recover() }
    world.startEventPumps()
    ChildPowerLoss.reportWrites("ready")
    progress("ready")
    let child = ChildLife(world: world, round: round, life: life, random: random, checkpoints: powerLoss)
    await child.burst()
    ChildPowerLoss.reportWrites("done")
    progress("done")
    await world.close()
    return 0
}

/// The app during one child life: its state between steps.
final class ChildLife {
    let world: World
    let round: Int
    let life: Int
    var random: SeededGenerator
    var stripeOnline = true
    var squareOnline = true
    /// Manual-capture sales authorized in this life (processor, reference).
    var manual: [(stripe: Bool, reference: String)] = []
    var number = 0
    /// Holds (card or authorization) injected into each simulator and not yet reached: while any is pending, every
    /// operation on it is driven (run in a task while the harness releases what the simulator holds), so nothing
    /// waits forever.
    var pendingHolds: [Bool: Int] = [true: 0, false: 0]
    /// Whether the app checkpoints its ledger now and then (--power-loss: so that cuts land mid-checkpoint).
    let checkpoints: Bool

    init(world: World, round: Int, life: Int, random: SeededGenerator, checkpoints: Bool = false) {
        self.world = world
        self.round = round
        self.life = life
        self.random = random
        self.checkpoints = checkpoints
    }

    static func name(_ isStripe: Bool) -> String { isStripe ? "stripe" : "square" }

    func isOnline(_ isStripe: Bool) -> Bool { isStripe ? stripeOnline : squareOnline }

    /// Moves simulated time (recorded first: the next launch starts after it).
    func advance(_ seconds: Double) { world.advance(by: seconds) }

    func burst() async {
        let steps = random.int(14...22)
        for step in 0..<steps {
            if checkpoints, random.chance(0.06) {
                // The app makes its ledger stand alone at a quiet moment (SQLitePaymentLedger.checkpoint()).
                progress("step \(step) checkpoint ledger")
                try? await world.sqlite?.checkpoint()
            }
            advance(1)
            let isStripe = random.chance(0.5)
            let roll = random.int(0...99)
            let kind = switch roll {
            case 0..<10: "network"
            case 10..<18: "forwarding"
            case 18..<23: "capture"
            case 23..<26: "relaunch"
            case 26..<40: "refund"
            default: "sale"
            }
            progress("step \(step) \(kind) \(Self.name(isStripe))")
            switch roll {
            case 0..<10: await toggleNetwork(isStripe)
            case 10..<18: await forwardingStep(isStripe)
            case 18..<23: await captureStep()
            case 23..<26: await relaunch(isStripe)
            case 26..<40: await refundStep()
            default: await sale(isStripe)
            }
        }
    }

    // MARK: Steps

    private func toggleNetwork(_ isStripe: Bool) async {
        if isStripe {
            stripeOnline.toggle()
            await world.setStripeNetwork(stripeOnline ? .disabled : .offlineImmediate)
        } else {
            squareOnline.toggle()
            await world.setSquareNetwork(squareOnline ? .online : .offline)
        }
    }

    private func forwardingStep(_ isStripe: Bool) async {
        if isStripe, stripeOnline {
            await world.stripeClient.forward(maxCount: random.int(1...3))
        } else if !isStripe, squareOnline {
            await world.squareClient.sync(maxCount: random.int(1...3), processor: world.square)
        }
    }

    /// A manual capture of an earlier authorized payment.
    private func captureStep() async {
        guard let (isStripe, reference) = manual.randomElement(using: &random) else { return }
        let terminal = world.terminal(stripe: isStripe)
        _ = await drive(isStripe) { try await terminal.capture(reference: reference) }
    }

    /// The SDK's process restarts within the life: handles forgotten, a new adapter and facade over the same ledger.
    private func relaunch(_ isStripe: Bool) async {
        progress("fault \(Self.name(isStripe)) relaunch")
        do {
            _ = isStripe ? try await world.relaunchStripe() : try await world.relaunchSquare()
        } catch {
            progress("relaunch \(Self.name(isStripe)) could not reconnect: \(error)")
        }
    }

    // MARK: Driving operations past held cards

    /// Runs `operation`; while a hold may be pending in the simulator, runs it in a task and releases whatever the
    /// simulator holds until it ends.
    func drive<T: Sendable>(_ isStripe: Bool, _ operation: @escaping @Sendable () async throws -> T) async
        -> Result<T, any Error> {
        guard pendingHolds[isStripe, default: 0] > 0 else {
            do { return .success(try await operation()) } catch { return .failure(error) }
        }
        let finished = Locked(false)
        let task = Task {
            defer { finished.withLock { $0 = true } }
            return try await operation()
        }
        await release(isStripe, until: finished)
        return await task.result
    }

    /// A hold fault was injected: operations on this simulator are driven until it is reached.
    func injectedHold(_ isStripe: Bool) { pendingHolds[isStripe, default: 0] += 1 }

    /// A hold was reached (the simulator held something, now released or gone with a relaunch).
    func consumedHold(_ isStripe: Bool) { pendingHolds[isStripe] = max(0, pendingHolds[isStripe, default: 0] - 1) }

    /// Releases what the simulator holds (its answer reaches the adapter after a persist) until `finished`.
    func release(_ isStripe: Bool, until finished: Locked<Bool>) async {
        while !finished.current {
            if await world.isHolding(stripe: isStripe) {
                await world.releaseHeld(stripe: isStripe)
                consumedHold(isStripe)
            }
            try? await Task.sleep(nanoseconds: 200_000)
        }
    }
}
