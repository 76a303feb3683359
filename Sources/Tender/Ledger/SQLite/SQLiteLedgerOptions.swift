import Foundation

/// How an ``SQLitePaymentLedger`` opens and writes its file, for the package's own test support and tools (not
/// public: an app always gets the defaults).
package struct SQLiteLedgerOptions: Sendable {
    /// The name of a registered SQLite VFS through which every connection of the ledger opens its files (the checks
    /// made before opening, the ledger's own connection, its WAL and journal). `nil`: SQLite's default VFS, the only
    /// one an app's ledger uses. Test support installs a VFS that simulates power loss this way (`TenderPowerLoss`),
    /// and one that counts syncs for tests and tender-bench (`TenderTesting`'s `SyncCountingVFS`); any VFS shim
    /// registered with `sqlite3_vfs_register` can be installed the same way.
    package var vfsName: String?

    /// What keeps the VFS named ``vfsName`` registered: the ledger's connection holds it until it is closed, and
    /// the ledger exposes it as ``SQLitePaymentLedger/vfsOwner`` (test support reads its counts through it).
    package var vfsOwner: (any AnyObject & Sendable)?

    /// Whether the write-ahead records (a new session, a new refund) are synced before the call returns, as
    /// Tender's promise requires. `false` only for the power-loss harness's self-check: such a ledger commits them
    /// without a sync (a process kill still never loses them, a power loss does), and the harness must see the damage.
    package var syncsWriteAhead: Bool

    /// The defaults: SQLite's default VFS, every write-ahead record synced.
    package init(vfsName: String? = nil, vfsOwner: (any AnyObject & Sendable)? = nil, syncsWriteAhead: Bool = true) {
        self.vfsName = vfsName
        self.vfsOwner = vfsOwner
        self.syncsWriteAhead = syncsWriteAhead
    }
}
