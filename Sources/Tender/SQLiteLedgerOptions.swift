import Foundation

/// How an ``SQLitePaymentLedger`` opens and writes its file, for the package's own test support and tools (not
/// public: an app always gets the defaults).
package struct SQLiteLedgerOptions: Sendable {
    /// The name of a registered SQLite VFS through which every connection of the ledger opens its files (the checks
    /// made before opening, the ledger's own connection, its WAL and journal). `nil`: SQLite's default VFS. The
    /// ledger's sync counter (``SQLitePaymentLedger/durableSyncCount``) sits above it and counts the syncs it is
    /// asked for. Test support installs a VFS that simulates power loss this way (`TenderPowerLoss`); any VFS shim
    /// registered with `sqlite3_vfs_register` can be installed the same way.
    package var vfsName: String?

    /// Whether the write-ahead records (a new session, a new refund) are synced before the call returns, as
    /// Tender's promise requires. `false` only for the power-loss harness's self-check: such a ledger commits them
    /// without a sync (a process kill still never loses them, a power loss does), and the harness must see the damage.
    package var syncsWriteAhead: Bool

    /// The defaults: SQLite's default VFS, every write-ahead record synced.
    package init(vfsName: String? = nil, syncsWriteAhead: Bool = true) {
        self.vfsName = vfsName
        self.syncsWriteAhead = syncsWriteAhead
    }
}
