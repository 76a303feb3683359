import Foundation

// TEMPORARY (replaced by the ledger work in progress): refunds are not stored by the SQLite ledger yet.
extension SQLitePaymentLedger {
    private func unavailable() -> PaymentError {
        PaymentError(.featureUnavailable, recovery: .fixIntegration, phase: .refund,
                     message: "This ledger does not record refunds yet.")
    }
    public func insertRefund(_ refund: RefundRecord, scope: LedgerScope) async throws { throw unavailable() }
    public func recordRefund(_ change: RefundChange, scope: LedgerScope) async throws -> RefundRecord { throw unavailable() }
    public func refunds(reference: String, scope: LedgerScope) async throws -> [RefundRecord] { [] }
    public func refunds(in statuses: Set<RefundStatus>, scope: LedgerScope) async throws -> [RefundRecord] { [] }
}
