/// One row of an adapter's error table: a vendor error, by case name (and numeric code where the vendor publishes
/// one), and what it means in Tender.
package struct VendorErrorMapping: Hashable, Sendable {
    /// The vendor's case name, e.g. `"declinedByStripeAPI"` or `"offlineStoredAmountExceeded"`.
    package var name: String
    /// The vendor's numeric code, when published (Stripe's 6000). Informational: lookups go by name.
    package var numericCode: Int?
    /// Tender's code.
    package var code: PaymentError.Code
    /// What to do next.
    package var recovery: PaymentError.Recovery
    /// The phase the error belongs to.
    package var phase: PaymentError.Phase
    /// A sentence a cashier can understand.
    package var message: String

    /// Creates a row.
    package init(_ name: String, _ numericCode: Int? = nil, _ code: PaymentError.Code,
                _ recovery: PaymentError.Recovery, _ phase: PaymentError.Phase, _ message: String) {
        self.name = name
        self.numericCode = numericCode
        self.code = code
        self.recovery = recovery
        self.phase = phase
        self.message = message
    }
}

/// An adapter's table from vendor errors to ``PaymentError``s, looked up by case name, never by the vendor's
/// integer raw value (those drift between releases). Errors the table does not know map to the documented fallback
/// ``PaymentError/Code/unrecognizedVendorError`` with recovery ``PaymentError/Recovery/retrySamePayment``: never a
/// guess of success or of decline.
///
/// Both adapters build their tables with this type, and the documentation's "Errors and recovery" table is
/// generated from ``rows``.
package struct VendorErrorTable: Sendable {
    /// The processor, e.g. `"stripe"`.
    package let processor: String
    /// The vendor type the rows belong to, e.g. `"ErrorCode"` or `"PaymentError"`.
    package let vendorType: String
    /// The rows, in the table's order.
    package let rows: [VendorErrorMapping]
    private let byName: [String: VendorErrorMapping]

    /// Builds a table. Duplicate names are a programming error, caught by ``duplicateNames``.
    package init(processor: String, vendorType: String, rows: [VendorErrorMapping]) {
        self.processor = processor
        self.vendorType = vendorType
        self.rows = rows
        self.byName = Dictionary(rows.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Names that appear in more than one row (should be empty; tested).
    package var duplicateNames: [String] {
        Dictionary(grouping: rows, by: \.name).filter { $0.value.count > 1 }.map(\.key).sorted()
    }

    /// The row for a case name, if the table has one.
    package func mapping(named name: String) -> VendorErrorMapping? { byName[name] }

    /// The ``PaymentError`` for a vendor error, keeping the vendor's raw error intact.
    /// - Parameters:
    ///   - name: the vendor's case name.
    ///   - numericCode: the vendor's numeric code, when it has one.
    ///   - vendorMessage: the vendor's message.
    ///   - declineCode: the issuer's decline code, when given.
    ///   - phase: overrides the row's phase when the adapter knows better.
    package func error(named name: String, numericCode: Int? = nil, vendorMessage: String? = nil,
                      declineCode: String? = nil, phase: PaymentError.Phase? = nil) -> PaymentError {
        let vendor = PaymentError.VendorError(processor: processor, name: name, numericCode: numericCode,
                                              message: vendorMessage, declineCode: declineCode)
        guard let row = byName[name] else {
            return PaymentError(
                .unrecognizedVendorError, recovery: .retrySamePayment, phase: phase ?? .unknown,
                message: "\(processor) reported an error Tender does not recognize (\(vendorType).\(name)).",
                vendor: vendor)
        }
        var message = row.message
        if let declineCode, row.code == .cardDeclined { message += " Reason: \(declineCode.replacingUnderscores)." }
        return PaymentError(row.code, recovery: row.recovery, phase: phase ?? row.phase, message: message,
                            vendor: vendor)
    }
}

extension String {
    fileprivate var replacingUnderscores: String { split(separator: "_").joined(separator: " ") }
}
