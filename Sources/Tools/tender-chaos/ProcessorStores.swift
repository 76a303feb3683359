import Foundation
import Tender
import TenderSquareSimulator
import TenderStripeSimulator
import TenderTesting

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
    /// Vendor actions and their persists against reads of the vendor's state (``VendorGate``).
    let gate = VendorGate()

    /// Runs a vendor action and persists what it did, with no read of the vendor's state in between.
    func act<T>(_ body: () async -> T) async -> T {
        await gate.write {
            let value = await body()
            await persist()
            return value
        }
    }

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

/// The processor's side is durable the moment it acts; the harness persists it after each call. So that nothing can
/// read (and the ledger record) what the vendor did before it is on disk, every vendor action and its persist run
/// as one write, and reads of the vendor's state (lookups, searches, the SDK's queue) wait for it: a reader-writer
/// lock, writers one at a time in arrival order, new readers held back while a writer waits. A write body must not
/// wait for another vendor action (a held request is released by a write of its own, after the call that was held
/// has returned its `Cancelable`).
final class VendorGate: Sendable {
    private struct State {
        var readers = 0
        /// A writer holds the gate, or waits for the readers inside to leave.
        var writerActive = false
        var drainingWriter: CheckedContinuation<Void, Never>?
        var waitingWriters: [CheckedContinuation<Void, Never>] = []
        var waitingReaders: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Locked(State())

    /// Runs a read, after any vendor action being persisted.
    func read<T>(_ body: () async throws -> T) async rethrows -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state -> Bool in
                guard !state.writerActive, state.waitingWriters.isEmpty else {
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
            defer { state.drainingWriter = nil }
            return state.drainingWriter
        }
        writer?.resume()
    }

    /// Runs a vendor action and its persist with no read and no other action running.
    func write<T>(_ body: () async throws -> T) async rethrows -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLock { state -> Bool in
                guard !state.writerActive else {
                    state.waitingWriters.append(continuation)
                    return false
                }
                state.writerActive = true
                guard state.readers > 0 else { return true }
                state.drainingWriter = continuation
                return false
            }
            if admitted { continuation.resume() }
        }
        defer { endWrite() }
        return try await body()
    }

    private func endWrite() {
        let next = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if !state.waitingWriters.isEmpty {
                // The gate passes to the next writer (no reader can be inside: none was admitted meanwhile).
                return [state.waitingWriters.removeFirst()]
            }
            state.writerActive = false
            state.readers += state.waitingReaders.count
            defer { state.waitingReaders.removeAll() }
            return state.waitingReaders
        }
        for continuation in next { continuation.resume() }
    }
}
