import Foundation
import Tender
import TenderSquareSimulator
import TenderStripeSimulator

// The processor side made durable the moment the processor acts, as a real processor's servers are: the persisting
// clients and servers (PersistingStripe*.swift, PersistingSquare*.swift) persist their simulator through these stores
// (atomically: temp file + rename) before an answer reaches the adapter. So the ledger can never record something
// the processor-side file lacks, whenever the process is killed.

/// A simulator whose processor side can be written to a file (both simulators can).
protocol PersistableSimulator: Actor {
    associatedtype PersistedState: Codable & Sendable
    /// The vendor's name, for messages.
    nonisolated var vendorName: String { get }
    func persist(to file: SimulatorStateFile<PersistedState>) async throws
}

extension StripeSimulator: PersistableSimulator {
    nonisolated var vendorName: String { "Stripe" }
}

extension SquareSimulator: PersistableSimulator {
    nonisolated var vendorName: String { "Square" }
}

/// Persists a simulator to its file; a failure to persist ends the process (the harness counts it a crash).
struct SimulatorStore<Simulator: PersistableSimulator>: Sendable {
    let simulator: Simulator
    /// nil: nothing is persisted (the in-process flapping test and fuzz).
    let file: SimulatorStateFile<Simulator.PersistedState>?
    /// Answers that arrive after the call that started them (a held card, confirmation or authorization released
    /// later, a cancellation).
    let late = PersistedDelivery()
    /// Reads wait while an unanswered vendor action is persisted.
    let gate = VendorGate()

    func persist() async {
        guard let file, !sabotageSkipsPersist else { return }
        do { try await simulator.persist(to: file) } catch {
            FileHandle.standardError.write(Data("tender-chaos: cannot persist \(simulator.vendorName) state: \(error)\n".utf8))
            exit(70)
        }
    }

    /// Delivers a vendor answer that fired outside a persisted call, once the state it describes is on disk.
    func deliverPersisted(_ deliver: @escaping @Sendable () -> Void) {
        late.send(after: { await persist() }, deliver)
    }
}

typealias StripeStore = SimulatorStore<StripeSimulator>
typealias SquareStore = SimulatorStore<SquareSimulator>

/// Delivers answers in the order they fired, each after a persist that started after it fired: a vendor callback
/// fired from inside the simulator (a held confirmation released) cannot wait for the disk itself.
final class PersistedDelivery: Sendable {
    private let last = Locked<Task<Void, Never>?>(nil)

    func send(after persist: @escaping @Sendable () async -> Void, _ deliver: @escaping @Sendable () -> Void) {
        last.withLock { previous in
            let before = previous
            previous = Task {
                await before?.value
                await persist()
                deliver()
            }
        }
    }
}

/// Self-check of the harness: with `TENDER_CHAOS_SABOTAGE=skip-persist` in a child's environment, the child never
/// persists processor state, as if the processor's servers forgot what they did; the kill test must then report
/// lost payments (see `--sabotage`).
let sabotageSkipsPersist = ProcessInfo.processInfo.environment["TENDER_CHAOS_SABOTAGE"] == "skip-persist"

/// Faults of the link between the app and its own server (which relays refunds to the processor), injected by the
/// kill test's children: the refund request is lost before the processor sees it, or the processor refunds and the
/// answer is lost on the way back. Either way the app hears a timeout.
enum ServerLinkFault: String, Sendable, CaseIterable {
    case requestLost = "refund-request-lost"
    case answerLost = "refund-answer-lost"
}

/// The link faults waiting for the next refund requests through a persisting server.
final class ServerLinkFaults: Sendable {
    private let queue = Locked<[ServerLinkFault]>([])

    func inject(_ fault: ServerLinkFault) { queue.withLock { $0.append(fault) } }

    func take() -> ServerLinkFault? {
        queue.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    /// What the app sees when the link fails: a timeout, outcome unknown (the refund stays pending and is settled).
    static func timeout(_ processor: String) -> PaymentError {
        PaymentError(.timedOut, recovery: .waitAndRetry, phase: .refund,
                     message: "The app's server did not answer the \(processor) refund in time.")
    }
}

/// Reads of the vendor's state (lookups, searches, the SDK's queue) wait while a vendor action nobody will answer
/// (a held request released after a relaunch) is being persisted, so nothing can record what the vendor did before
/// the processor's side is on disk; the action waits for reads already running.
final class VendorGate: Sendable {
    private struct State {
        var readers = 0
        var writing = false
        var waitingReaders: [CheckedContinuation<Void, Never>] = []
        var waitingWriter: CheckedContinuation<Void, Never>?
    }
    private let state = Locked(State())

    /// Runs a read, after any vendor action being persisted.
    func read<T>(_ body: () async throws -> T) async rethrows -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state -> Bool in
                guard !state.writing else {
                    state.waitingReaders.append(continuation)
                    return false
                }
                state.readers += 1
                return true
            }
            if admitted { continuation.resume() }
        }
        defer { endRead() }
        return try await body()
    }

    private func endRead() {
        let writer = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.readers -= 1
            guard state.readers == 0 else { return nil }
            defer { state.waitingWriter = nil }
            return state.waitingWriter
        }
        writer?.resume()
    }

    /// Runs a vendor action and its persist with no read running or starting (one action at a time).
    func write<T>(_ body: () async -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state -> Bool in
                state.writing = true
                guard state.readers > 0 else { return true }
                state.waitingWriter = continuation
                return false
            }
            if admitted { continuation.resume() }
        }
        let result = await body()
        let readers = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.writing = false
            state.readers += state.waitingReaders.count
            defer { state.waitingReaders.removeAll() }
            return state.waitingReaders
        }
        for reader in readers { reader.resume() }
        return result
    }
}
