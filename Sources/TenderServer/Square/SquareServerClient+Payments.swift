package import Foundation
public import TenderWire

/// A `ListPayments` query. Square cannot filter by `reference_id`: ``SquareServerClient/payments(referenceID:locationID:)``
/// matches it here, across every page.
package struct SquarePaymentQuery: Sendable, Hashable {
    /// `location_id`.
    package var locationID: String?
    /// `begin_time` (on `created_at`), inclusive.
    package var beginTime: Date?
    /// `end_time`.
    package var endTime: Date?
    /// `is_offline_payment`: Square's default (false) lists online payments only.
    package var isOfflinePayment: Bool?
    /// `offline_begin_time` (on `offline_payment_details.client_created_at`).
    package var offlineBeginTime: Date?
    /// `offline_end_time`.
    package var offlineEndTime: Date?
    /// `sort_order`: `ASC` or `DESC` (Square's default).
    package var sortOrder: String?
    /// `limit` per page (Square allows up to 100).
    package var limit: Int?
    /// `cursor` of the page to read.
    package var cursor: String?

    /// Creates a query.
    package init(locationID: String? = nil, beginTime: Date? = nil, endTime: Date? = nil, isOfflinePayment: Bool? = nil,
                offlineBeginTime: Date? = nil, offlineEndTime: Date? = nil, sortOrder: String? = nil, limit: Int? = nil,
                cursor: String? = nil) {
        self.locationID = locationID
        self.beginTime = beginTime
        self.endTime = endTime
        self.isOfflinePayment = isOfflinePayment
        self.offlineBeginTime = offlineBeginTime
        self.offlineEndTime = offlineEndTime
        self.sortOrder = sortOrder
        self.limit = limit
        self.cursor = cursor
    }

    /// The query parameters, in a fixed order.
    var parameters: [(String, String)] {
        var result: [(String, String)] = []
        if let beginTime { result.append(("begin_time", SquareServerClient.timestamp(beginTime))) }
        if let endTime { result.append(("end_time", SquareServerClient.timestamp(endTime))) }
        if let sortOrder { result.append(("sort_order", sortOrder)) }
        if let cursor { result.append(("cursor", cursor)) }
        if let locationID { result.append(("location_id", locationID)) }
        if let limit { result.append(("limit", String(limit))) }
        if let isOfflinePayment { result.append(("is_offline_payment", isOfflinePayment ? "true" : "false")) }
        if let offlineBeginTime { result.append(("offline_begin_time", SquareServerClient.timestamp(offlineBeginTime))) }
        if let offlineEndTime { result.append(("offline_end_time", SquareServerClient.timestamp(offlineEndTime))) }
        return result
    }
}

/// One page of `ListPayments`.
package struct SquarePaymentPage: Sendable, Hashable {
    /// The payments on the page.
    package var payments: [SquareAPI.Payment]
    /// The cursor of the next page; nil on the last.
    package var cursor: String?
}

extension SquareServerClient {
    /// `GET /v2/payments/{payment_id}`, or nil when Square answers `NOT_FOUND`.
    public func getPayment(id: String) async throws(PaymentError) -> SquareAPI.Payment? {
        switch await perform("GET", "v2/payments/\(FormEncoding.escape(id))", as: SquareAPI.PaymentResponse.self) {
        case .success(let response):
            guard let payment = response.payment else {
                throw missing("payment", operation: "Getting payment \(id)", phase: .reconciliation)
            }
            return payment
        case .failure(let failure):
            if failure.status == 404, failure.vendorCode == "NOT_FOUND" { return nil }
            throw SquareRESTErrorTable.paymentError(failure, operation: "Getting payment \(id)", phase: .reconciliation)
        }
    }

    /// `POST /v2/payments/{payment_id}/complete` with the payment's `version_token` when given (a stale one fails
    /// with `VERSION_MISMATCH`).
    package func completePayment(id: String, versionToken: String? = nil) async throws(PaymentError) -> SquareAPI.Payment {
        struct Body: Encodable, Sendable {
            var version_token: String?
        }
        let response = try await request("POST", "v2/payments/\(FormEncoding.escape(id))/complete",
                                         json: Body(version_token: versionToken), as: SquareAPI.PaymentResponse.self,
                                         operation: "Completing payment \(id)", phase: .capture)
        guard let payment = response.payment else { throw missing("payment", operation: "Completing \(id)", phase: .capture) }
        return payment
    }

    /// `POST /v2/payments/{payment_id}/cancel`.
    package func cancelPayment(id: String) async throws(PaymentError) -> SquareAPI.Payment {
        let response = try await request("POST", "v2/payments/\(FormEncoding.escape(id))/cancel",
                                         as: SquareAPI.PaymentResponse.self, operation: "Canceling payment \(id)",
                                         phase: .capture)
        guard let payment = response.payment else { throw missing("payment", operation: "Canceling \(id)", phase: .capture) }
        return payment
    }

    /// `POST /v2/payments/cancel`: voids the payment created with `idempotencyKey` if there is one; Square answers
    /// success either way (its answer for an unknown `CreatePayment` outcome). A key longer than Square's 45
    /// characters is fitted (``TenderWire/IdempotencyKey/fitted(_:maximumLength:)``), as it was when the payment was made
    /// through TenderServer.
    public func cancelPayment(idempotencyKey: String) async throws(PaymentError) {
        struct Body: Encodable, Sendable {
            var idempotency_key: String
        }
        let key = IdempotencyKey.fitted(idempotencyKey, maximumLength: Self.maximumIdempotencyKeyLength)
        _ = try await request("POST", "v2/payments/cancel", json: Body(idempotency_key: key),
                              as: SquareAPI.ErrorsResponse.self, operation: "Canceling by idempotency key",
                              phase: .cancellation)
    }

    /// One page of `GET /v2/payments`.
    package func listPayments(_ query: SquarePaymentQuery) async throws(PaymentError) -> SquarePaymentPage {
        let response = try await request("GET", "v2/payments", query: query.parameters,
                                         as: SquareAPI.ListPaymentsResponse.self, operation: "Listing payments",
                                         phase: .reconciliation)
        return SquarePaymentPage(payments: response.payments ?? [], cursor: response.cursor)
    }

    /// Every payment matching `query` whose `reference_id` is `referenceID`, across all pages (the API cannot
    /// filter by it).
    /// - Throws: when a page cannot be read, or the pages exceed ``Configuration/maximumPages`` (the answer would
    ///   be incomplete).
    package func payments(matching query: SquarePaymentQuery, referenceID: String) async throws(PaymentError)
        -> [SquareAPI.Payment] {
        var page = query
        var found: [SquareAPI.Payment] = []
        for _ in 0..<max(1, configuration.maximumPages) {
            let result = try await listPayments(page)
            found += result.payments.filter { $0.referenceID == referenceID }
            guard let cursor = result.cursor, !cursor.isEmpty else { return found }
            page.cursor = cursor
        }
        throw PaymentError(.outcomeUnknown, recovery: .retrySamePayment, phase: .reconciliation,
                           message: "Listing payments for \(referenceID) needs more than \(configuration.maximumPages) pages; the answer would be incomplete.",
                           vendor: .init(processor: Self.processor, name: "list_incomplete"))
    }

    /// The payments with `reference_id == referenceID` at the location, online and offline (Square lists the two
    /// separately: `is_offline_payment` defaults to false), within ``Configuration/lookbackInterval``, oldest first.
    public func payments(referenceID: String, locationID: String) async throws(PaymentError) -> [SquareAPI.Payment] {
        let begin = now().addingTimeInterval(-configuration.lookbackInterval)
        var found: [SquareAPI.Payment] = []
        for offline in [false, true] {
            let query = SquarePaymentQuery(locationID: locationID, beginTime: begin, isOfflinePayment: offline,
                                           sortOrder: "ASC", limit: 100)
            for payment in try await payments(matching: query, referenceID: referenceID)
            where !found.contains(where: { $0.id == payment.id }) {
                found.append(payment)
            }
        }
        return found.enumerated().sorted {
            (Self.date($0.element.createdAt) ?? .distantPast, $0.offset) < (Self.date($1.element.createdAt) ?? .distantPast, $1.offset)
        }.map(\.element)
    }
}
