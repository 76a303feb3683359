import Tender
import TenderSquare
import TenderStripe

/// Renders every adapter's error tables as Markdown: vendor code → core code → recovery → phase.
enum ErrorTables {
    /// The tables to document. Each adapter exposes its `VendorErrorTable`s.
    static var tables: [VendorErrorTable] {
        [Stripe.errorTable, SquareErrorTable.paymentError, SquareErrorTable.authorizationError,
         SquareErrorTable.offlinePaymentQueueError, SquareErrorTable.readerUnavailableReason,
         SquareErrorTable.readerPairingError]
    }

    static func markdown() -> String {
        var out: [String] = []
        for table in tables {
            out.append("### \(table.processor.capitalized) `\(table.vendorType)` (\(table.rows.count) cases)\n")
            out.append("| vendor case | code | Tender code | recovery | phase |")
            out.append("|---|---:|---|---|---|")
            for row in table.rows {
                out.append("| `\(row.name)` | \(row.numericCode.map(String.init) ?? "—") | `\(row.code.rawValue)` | `\(row.recovery)` | `\(row.phase.rawValue)` |")
            }
            out.append("")
        }
        out.append("Any other case: `\(PaymentError.Code.unrecognizedVendorError.rawValue)`, recovery `retrySamePayment`.")
        return out.joined(separator: "\n")
    }
}
