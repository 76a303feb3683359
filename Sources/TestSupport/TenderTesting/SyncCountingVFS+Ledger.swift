public import Foundation
public import Tender

extension SyncCountingVFS {
    /// Opens (or creates) an ``SQLitePaymentLedger`` whose every file goes through this VFS, which counts its syncs
    /// (``counts``) and stays registered while the ledger's connection is open.
    /// - Throws: as ``SQLitePaymentLedger/open(url:busyTimeout:)``.
    public func openLedger(at url: URL, busyTimeout: TimeInterval = 5) async throws -> SQLitePaymentLedger {
        try await SQLitePaymentLedger.open(url: url, busyTimeout: busyTimeout,
                                           options: SQLiteLedgerOptions(vfsName: name, vfsOwner: self))
    }
}

extension SQLitePaymentLedger {
    /// Opens the ledger at `url` through a new ``SyncCountingVFS`` of its own (tests and tender-bench: an app's ledger
    /// counts nothing), so that ``syncCounts`` and ``durableSyncCount`` count its syncs from its opening on.
    public static func openCountingSyncs(url: URL, busyTimeout: TimeInterval = 5) async throws -> SQLitePaymentLedger {
        try await SyncCountingVFS().openLedger(at: url, busyTimeout: busyTimeout)
    }

    /// The sync-counting VFS the ledger was opened through, if it was.
    public nonisolated var syncCountingVFS: SyncCountingVFS? { vfsOwner as? SyncCountingVFS }

    /// How many times this ledger (and the checks made while opening it) asked the operating system to sync one of
    /// its files since it was opened through a ``SyncCountingVFS`` (`fsync`/`fdatasync`): durable commits,
    /// checkpoints (two each: the WAL, then the database file), the header of a WAL that starts over, the creation
    /// of a new file, and closing's sync of unsynced commits. Zero for a ledger opened otherwise.
    public nonisolated var durableSyncCount: Int { syncCounts.total }

    /// ``durableSyncCount`` by file.
    public nonisolated var syncCounts: SQLiteSyncCounts { syncCountingVFS?.counts ?? SQLiteSyncCounts() }

    /// Bytes written into the WAL through the ledger's ``SyncCountingVFS`` since it was opened (the benchmark's
    /// pages per payment, which set how often a checkpoint comes).
    public nonisolated var walBytesWritten: Int { syncCountingVFS?.walBytesWritten ?? 0 }
}
