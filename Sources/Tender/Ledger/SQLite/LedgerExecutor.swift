import Foundation

/// The serial executor of one ``SQLitePaymentLedger``: a thread of its own, so that SQLite's blocking work
/// (`sqlite3_step`, `fsync`, opening's `PRAGMA quick_check`) never runs on Swift's cooperative threads, whose number
/// is the number of cores, nor on the main actor. GRDB gives each connection its own serial queue for the same
/// reason.
///
/// Jobs (the ledger actor's partial tasks, and the closures ``perform(_:)`` runs before the actor exists) run one at a
/// time, in the order they were enqueued. The thread sleeps on a condition when there is nothing to do, and ends once
/// ``stop()`` was called and its queue is empty (the ledger stops it when it is released).
final class LedgerExecutor: SerialExecutor, @unchecked Sendable {
    private enum Work {
        case job(UnownedJob)
        case closure(() -> Void)
    }

    /// The name of every ledger thread (`Thread.current.name` inside a ledger call; 15 characters at most, Linux's limit).
    static let threadName = "tender-ledger"

    private let condition = NSCondition()
    private var queue: [Work] = []
    private var stopping = false
    private var threadID: pthread_t?

    /// Starts the thread.
    init() {
        let thread = Thread { [self] in run() }
        thread.name = Self.threadName
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    /// Ends the thread once the jobs already enqueued have run, then `last` if given. Idempotent.
    func stop(after last: (() -> Void)? = nil) {
        condition.lock()
        if let last, !stopping { queue.append(.closure(last)) }
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func push(_ work: Work) {
        condition.lock()
        queue.append(work)
        condition.signal()
        condition.unlock()
    }

    @available(macOS 14.0, iOS 17.0, watchOS 10.0, tvOS 17.0, *)
    func enqueue(_ job: consuming ExecutorJob) {
        push(.job(UnownedJob(job)))
    }

    /// For the platforms before `ExecutorJob` (macOS 13, iOS 16).
    func enqueue(_ job: UnownedJob) {
        push(.job(job))
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Whether the caller runs on this executor's thread.
    var isCurrent: Bool {
        condition.lock()
        defer { condition.unlock() }
        return threadID.map { pthread_equal($0, pthread_self()) != 0 } ?? false
    }

    func checkIsolated() {
        precondition(isCurrent, "not on the ledger's thread")
    }

    /// Runs `body` on the thread, after every job enqueued before it, and returns its result (the ledger's opening,
    /// before the actor exists).
    func perform<T>(_ body: @escaping @Sendable () throws -> T) async throws -> UncheckedResult<T> {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<UncheckedResult<T>, any Error>) in
            push(.closure {
                do {
                    continuation.resume(returning: UncheckedResult(value: try body()))
                } catch {
                    continuation.resume(throwing: error)
                }
            })
        }
    }

    private func run() {
        // Named from inside: on Linux a name given before `start()` is not applied, and the new thread would keep
        // the name of the thread that created it (a cooperative one's).
        #if canImport(Darwin)
        pthread_setname_np(Self.threadName)
        #else
        // Glibc's `pthread_setname_np` is behind `_GNU_SOURCE`, which Swift's Glibc module does not define.
        typealias SetName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_setname_np") {
            _ = unsafeBitCast(symbol, to: SetName.self)(pthread_self(), Self.threadName)
        }
        #endif
        condition.lock()
        threadID = pthread_self()
        condition.unlock()
        let executor = asUnownedSerialExecutor()
        var batch: [Work] = []
        while true {
            condition.lock()
            while queue.isEmpty && !stopping { condition.wait() }
            if queue.isEmpty {
                condition.unlock()
                return
            }
            // Take everything queued so far (the two arrays swap, keeping their storage), then run it unlocked.
            swap(&queue, &batch)
            condition.unlock()
            for work in batch {
                switch work {
                case .job(let job): job.runSynchronously(on: executor)
                case .closure(let body): body()
                }
            }
            batch.removeAll(keepingCapacity: true)
        }
    }
}

/// A value handed from the ledger's thread to the task that opened it, which owns it from then on (an
/// ``SQLiteDatabase`` is not `Sendable`: only the ledger's executor uses it).
struct UncheckedResult<T>: @unchecked Sendable {
    let value: T
}
