import Foundation
import CSQLite

/// An SQLite VFS that simulates power loss, for tests and the chaos harness (test support: never in a shipping app).
///
/// It wraps SQLite's default VFS (or another registered one) and models a disk with a volatile write cache, the way
/// SQLite's own crash tests do (`test6.c`, `sqlite3_simulate_device`): every write and truncation of a database,
/// WAL or journal file stays in a volatile layer in this process's memory, in the order it was made, and reaches
/// the real file only when SQLite syncs that file (`xSync`). Reads and file sizes see the process's own unsynced
/// writes, as the operating system's page cache does. A power cut (``cutPower(_:)``) drops the volatile layer:
/// every unsynced write is lost, whole pages at a time, and optionally a torn write reaches the file in part
/// (``PowerCut``). A file created through the VFS and never synced loses its name too (it is removed).
///
/// What passes through unchanged: locks, the `-shm` wal-index (shared memory, not a file of the VFS: SQLite rebuilds
/// it from the WAL after a crash, since the first connection after one truncates it), nameless temporary files,
/// deletions (durable at once). Memory-mapped reads are off (the files' methods are of version 2, without
/// `xFetch`), so every read goes through the volatile layer; `SQLITE_FCNTL_SIZE_HINT` and `…_CHUNK_SIZE`, which
/// would grow the real file behind the layer's back, are accepted and ignored. The device characteristics lose the
/// atomic-write and sequential bits (the layer honours neither) and keep `POWERSAFE_OVERWRITE` (a torn write only
/// ever changes bytes it was writing).
///
/// Two ways to cut the power:
/// - **in the process**: ``cutPower(_:)`` (or a cut armed at a future write, ``cutPower(atWrite:_:then:)``) drops
///   the layer; every file open then is dead (its reads, writes and syncs fail) until it is closed, and no file
///   opens until ``restorePower()``, which requires every dead file closed (a connection opened after the cut
///   must not share the dead connections' wal-index).
/// - **by killing the process**: unsynced writes live only in this process's memory, so a `SIGKILL` of the process
///   *is* a power cut with whole pages lost. A cut armed with ``AfterCut/killProcess`` first writes what the cut
///   lets through (a torn write) and then kills the process itself, holding the layer's lock so that nothing else
///   is written.
///
/// Each instance registers its own VFS under its own name; open the ledger through it with
/// ``openLedger(at:busyTimeout:)``, or any SQLite connection with its ``name``.
public final class PowerLossVFS: @unchecked Sendable {
    /// What happens once an armed cut fires.
    public enum AfterCut: Hashable, Sendable {
        /// The power stays off in this process (the write in flight fails): close every connection, then
        /// ``restorePower()``.
        case stayDown
        /// The process kills itself with `SIGKILL` (a child process of the chaos harness).
        case killProcess
    }

    /// The name the VFS is registered under (`sqlite3_open_v2`'s `zVfs`).
    public let name: String
    let device: PowerLossDevice
    private let vfs: UnsafeMutablePointer<sqlite3_vfs>
    private let cName: UnsafeMutablePointer<CChar>
    private let context: Unmanaged<PowerLossDevice>
    private let registration = NSLock()
    private var registered = true

    /// Registers a new power-loss VFS over the registered VFS named `base` (`nil`: SQLite's default), under `name`
    /// (default: a unique name, so that tests running side by side each have their own device).
    /// - Throws: ``PowerLossError`` when the base VFS does not exist or SQLite refuses the registration.
    public init(name: String? = nil, over base: String? = nil) throws {
        guard let real = sqlite3_vfs_find(base) else {
            throw PowerLossError("no SQLite VFS named \(base ?? "(default)") is registered")
        }
        self.name = name ?? "tender-power-loss-\(UUID().uuidString)"
        device = PowerLossDevice(base: real)
        cName = strdup(self.name)
        context = Unmanaged.passRetained(device)
        vfs = .allocate(capacity: 1)
        vfs.initialize(to: powerLossVFS(over: real, name: cName, context: context.toOpaque()))
        let rc = sqlite3_vfs_register(vfs, 0)
        guard rc == SQLITE_OK else {
            registered = false
            release()
            throw PowerLossError("SQLite refused to register the power-loss VFS (error \(rc))")
        }
    }

    /// Unregisters the VFS. Call it once every connection through it is closed (a file still open keeps the
    /// device it needs alive, but no new connection can find the VFS). Idempotent.
    public func unregister() {
        registration.lock()
        defer { registration.unlock() }
        guard registered else { return }
        registered = false
        sqlite3_vfs_unregister(vfs)
        release()
    }

    private func release() {
        vfs.deinitialize(count: 1)
        vfs.deallocate()
        free(cName)
        context.release()
    }

    /// Cuts the power now: every unsynced write is lost (``PowerCut`` says what else may reach the disk), every
    /// file created and never synced is removed, every file open now is dead, and nothing opens until
    /// ``restorePower()``.
    @discardableResult
    public func cutPower(_ cut: PowerCut = .wholePages) -> PowerCutReport { device.cut(cut) }

    /// Arms a cut at the `write`-th write from now (1: the next) to a database, WAL or journal file: that write is
    /// the one in flight when the power goes (``PowerCut/tornWrite(seed:)`` tears it), and it fails. Replaces any
    /// cut armed before; `then` says what happens after.
    public func cutPower(atWrite write: Int, _ cut: PowerCut = .wholePages, then: AfterCut = .stayDown) {
        device.withLock { device.trigger = (max(1, write), cut, then) }
    }

    /// Disarms a cut armed with ``cutPower(atWrite:_:then:)`` that has not fired.
    public func disarm() { device.withLock { device.trigger = nil } }

    /// Whether the power is on (false from a cut to ``restorePower()``).
    public var isPowered: Bool { device.isPowered }

    /// Turns the power back on after a cut: files can be opened again, and see what reached the disk.
    /// - Throws: ``PowerLossError`` if a file opened before the cut is still open (close the ledger or connection
    ///   that had it: a new connection would share its stale wal-index in this process).
    public func restorePower() throws { try device.restore() }

    /// What the VFS has done since it was registered.
    public var statistics: PowerLossStatistics {
        let pending = device.pending
        var statistics = device.withLock { device.statistics }
        statistics.pendingOperations = pending.operations
        statistics.pendingBytes = pending.bytes
        return statistics
    }
}

/// What a power cut lets reach the disk besides what was synced.
public enum PowerCut: Hashable, Sendable {
    /// Nothing: every unsynced write is lost, whole.
    case wholePages
    /// A torn write: the write in flight (for a cut armed at a write) or else the last unsynced write reaches the
    /// file in part, a prefix of a length drawn from `seed` (at least one byte, never all); every other unsynced write
    /// is lost.
    case tornWrite(seed: UInt64)
    /// A disk that reorders its cache: each unsynced write or truncation reaches the disk or not, drawn from `seed`,
    /// and one of those that do may be torn.
    case reordered(seed: UInt64)
}

/// What one power cut did.
public struct PowerCutReport: Hashable, Sendable {
    /// A write that reached the disk in part.
    public struct TornWrite: Hashable, Sendable {
        /// The file.
        public var path: String
        /// Where the write started.
        public var offset: Int64
        /// Its length.
        public var length: Int
        /// How many of its first bytes reached the file.
        public var keptBytes: Int
    }

    /// Unsynced writes and truncations lost whole.
    public var droppedOperations = 0
    /// Unsynced writes and truncations that reached the disk whole (``PowerCut/reordered(seed:)``).
    public var reachedOperations = 0
    /// The write torn by the cut, if any.
    public var tornWrite: TornWrite?
    /// Files created and never synced, removed by the cut.
    public var removedFiles: [String] = []
}

/// Counts of what a ``PowerLossVFS`` did.
public struct PowerLossStatistics: Hashable, Sendable {
    /// Writes to database, WAL and journal files (the numbering ``PowerLossVFS/cutPower(atWrite:_:then:)`` uses).
    public var writes = 0
    /// Syncs of any file.
    public var syncs = 0
    /// Power cuts.
    public var cuts = 0
    /// Unsynced operations the cuts dropped.
    public var droppedOperations = 0
    /// Writes the cuts tore.
    public var tornWrites = 0
    /// Unsynced operations now.
    public var pendingOperations = 0
    /// Bytes of unsynced writes now.
    public var pendingBytes = 0
}

/// A failure of the power-loss VFS's own API.
public struct PowerLossError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    public var description: String
    init(_ description: String) { self.description = description }
}
