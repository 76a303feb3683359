public import Foundation
public import Tender

extension PowerLossVFS {
    /// Opens (or creates) an ``SQLitePaymentLedger`` whose every file goes through this VFS: its unsynced commits
    /// are lost at the next power cut, what it synced survives.
    /// - Throws: as ``SQLitePaymentLedger/open(url:busyTimeout:)`` (``PaymentError/Code/ledgerUnavailable``, also
    ///   while the power is off).
    public func openLedger(at url: URL, busyTimeout: TimeInterval = 5) async throws -> SQLitePaymentLedger {
        try await SQLitePaymentLedger.open(url: url, busyTimeout: busyTimeout, options: SQLiteLedgerOptions(vfsName: name))
    }

    /// Self-check of a power-loss harness only: a ledger through this VFS that commits its write-ahead records (a
    /// new session, a new refund) without syncing them, breaking Tender's promise. A power cut between such a
    /// record and the next sync loses the payment while the processor may already have charged it: a harness that
    /// does not report that cannot see power loss.
    public func openLedgerSkippingWriteAheadSync(at url: URL, busyTimeout: TimeInterval = 5) async throws
        -> SQLitePaymentLedger {
        try await SQLitePaymentLedger.open(url: url, busyTimeout: busyTimeout,
                                options: SQLiteLedgerOptions(vfsName: name, syncsWriteAhead: false))
    }
}
