import Foundation
public import TenderWire

extension StripeServerClient {
    /// The `expand` parameters that bring the latest charge (card details, decline code) with each intent.
    static let expandCharge: [(String, String)] = [("expand[0]", "latest_charge")]

    /// `POST /v1/payment_intents`: a card-present intent for `amount`, carrying the reference in its metadata,
    /// under the idempotency key of vendor payment `attempt` of the reference in `scope`
    /// (``TenderWire/IdempotencyKey/create(scope:reference:paymentAttempt:)``: Stripe keeps keys per account, and a
    /// reference is unique only per location). Terminal intents are usually created by the SDK on the device; this is
    /// for server-driven flows and tests.
    package func createPaymentIntent(amount: Money, reference: String, scope: LedgerScope, attempt: Int = 1,
                                    captureMethod: String = "manual", paymentMethodTypes: [String] = ["card_present"],
                                    metadata: [String: String] = [:], description: String? = nil,
                                    extra: [String: FormValue] = [:]) async throws(PaymentError) -> StripeAPI.PaymentIntent {
        guard amount.minorUnits > 0 else {
            throw PaymentError(.invalidAmount, recovery: .fixRequest, phase: .creation,
                               message: "A PaymentIntent needs a positive amount, not \(amount).")
        }
        var tagged = metadata
        tagged[configuration.referenceMetadataKey] = reference
        if tagged[Self.locationMetadataKey] == nil { tagged[Self.locationMetadataKey] = scope.locationID }
        var form = extra
        form["amount"] = .string(String(amount.minorUnits))
        form["currency"] = .string(amount.currency.lowercasedCode)
        form["capture_method"] = .string(captureMethod)
        form["payment_method_types"] = .array(paymentMethodTypes.map(FormValue.string))
        form["metadata"] = .map(tagged)
        if let description { form["description"] = .string(description) }
        return try await request("POST", "v1/payment_intents", form: form,
                                 idempotencyKey: IdempotencyKey.create(scope: scope, reference: reference,
                                                                       paymentAttempt: attempt).rawValue,
                                 as: StripeAPI.PaymentIntent.self, operation: "Creating a PaymentIntent for \(reference)",
                                 phase: .creation)
    }

    /// `GET /v1/payment_intents/:id` with its latest charge, or nil when Stripe has no such intent
    /// (`resource_missing`, HTTP 404). Retrieval by id is consistent.
    public func retrievePaymentIntent(id: String) async throws(PaymentError) -> StripeAPI.PaymentIntent? {
        let result = await perform("GET", "v1/payment_intents/\(Self.segment(id))", query: Self.expandCharge,
                                   as: StripeAPI.PaymentIntent.self)
        switch result {
        case .success(let intent): return intent
        case .failure(let failure):
            if failure.status == 404, failure.vendorCode == nil || failure.vendorCode == "resource_missing" { return nil }
            throw StripeRESTErrorTable.paymentError(failure, operation: "Retrieving \(id)", phase: .reconciliation)
        }
    }

    /// `POST /v1/payment_intents/:id/capture` with `amount_to_capture`, under `idempotencyKey` (the device's
    /// ``TenderWire/IdempotencyKey/capture(scope:reference:paymentAttempt:)``).
    ///
    /// Idempotent beyond Stripe's 24-hour key window: when Stripe refuses because the intent is no longer
    /// capturable, the intent is retrieved, and one already captured for exactly `amount` is returned as the
    /// capture's result (it is the same capture). Any other state is the refusal it is.
    package func capturePaymentIntent(id: String, amount: Money, idempotencyKey: String)
        async throws(PaymentError) -> StripeAPI.PaymentIntent {
        let form: [String: FormValue] = ["amount_to_capture": .string(String(amount.minorUnits)),
                                         "expand": .array(["latest_charge"])]
        let result = await perform("POST", "v1/payment_intents/\(Self.segment(id))/capture", form: form,
                                   idempotencyKey: idempotencyKey,
                                   as: StripeAPI.PaymentIntent.self)
        switch result {
        case .success(let intent): return intent
        case .failure(let failure):
            let error = StripeRESTErrorTable.paymentError(failure, operation: "Capturing \(id)", phase: .capture)
            guard Self.mayAlreadyBeDone(failure), let current = try? await retrievePaymentIntent(id: id),
                  current.status == "succeeded", Self.capturedAmount(current) == amount.minorUnits,
                  current.currency == amount.currency.lowercasedCode else { throw error }
            return current
        }
    }

    /// `POST /v1/payment_intents/:id/cancel` under `idempotencyKey` (the device's
    /// ``TenderWire/IdempotencyKey/void(scope:reference:paymentAttempt:)``). An intent already canceled is returned as the
    /// result (the same void).
    package func cancelPaymentIntent(id: String, idempotencyKey: String, reason: String? = nil)
        async throws(PaymentError) -> StripeAPI.PaymentIntent {
        try await cancel(id: id, idempotencyKey: idempotencyKey, reason: reason)
    }

    /// The cancel request under `idempotencyKey`, treating an intent already canceled as done.
    func cancel(id: String, idempotencyKey: String, reason: String?) async throws(PaymentError) -> StripeAPI.PaymentIntent {
        var form: [String: FormValue] = [:]
        if let reason { form["cancellation_reason"] = .string(reason) }
        let result = await perform("POST", "v1/payment_intents/\(Self.segment(id))/cancel", form: form,
                                   idempotencyKey: idempotencyKey, as: StripeAPI.PaymentIntent.self)
        switch result {
        case .success(let intent): return intent
        case .failure(let failure):
            let error = StripeRESTErrorTable.paymentError(failure, operation: "Canceling \(id)", phase: .capture)
            guard Self.mayAlreadyBeDone(failure), let current = try? await retrievePaymentIntent(id: id),
                  current.status == "canceled" else { throw error }
            return current
        }
    }

    /// What the intent captured: `amount_received` (always reported by Stripe), else the latest charge's
    /// `amount_captured`, else its amount when captured (servers that report neither field).
    static func capturedAmount(_ intent: StripeAPI.PaymentIntent) -> Int64? {
        if let received = intent.amountReceived { return received }
        guard let charge = intent.latestCharge?.object, charge.captured else { return nil }
        return charge.amountCaptured ?? charge.amount
    }

    /// A refusal that may mean "already done": an invalid-request error that is not an idempotency conflict.
    static func mayAlreadyBeDone(_ failure: ServerFailure) -> Bool {
        guard case .api(let status, let details) = failure, status == 400 else { return false }
        return details.category != "idempotency_error" && details.category != "card_error"
    }

    /// The intents whose metadata has `metadata[key] == value`, as ``StripeReferenceLookup`` (found / unknown /
    /// absent), by Search or by listing per ``Configuration/searchMode``.
    public func findPaymentIntents(metadataKey key: String, value: String) async throws(PaymentError)
        -> StripeReferenceLookup {
        if configuration.searchMode != .listOnly {
            switch await search(metadataKey: key, value: value) {
            case .success(let intents):
                return intents.isEmpty ? .unknown : .found(Self.oldestFirst(intents), complete: false)
            case .failure(let failure):
                let unavailable = failure.status == 404 || failure.vendorCode == "search_unavailable"
                    || failure.vendorCode == "feature_not_enabled"
                guard unavailable, configuration.searchMode == .searchThenList else {
                    throw StripeRESTErrorTable.paymentError(failure, operation: "Searching payment intents",
                                                        phase: .reconciliation)
                }
            }
        }
        return try await list(metadataKey: key, value: value)
    }

    /// ``findPaymentIntents(metadataKey:value:)`` under the configured reference key.
    package func findPaymentIntents(reference: String) async throws(PaymentError) -> StripeReferenceLookup {
        try await findPaymentIntents(metadataKey: configuration.referenceMetadataKey, value: reference)
    }

    private func search(metadataKey key: String, value: String) async
        -> Result<[StripeAPI.PaymentIntent], ServerFailure> {
        let query = "metadata['\(Self.quoted(key))']:'\(Self.quoted(value))'"
        var found: [StripeAPI.PaymentIntent] = []
        var page: String?
        for _ in 0..<max(1, configuration.maximumPages) {
            var parameters = [("query", query), ("limit", "100"), ("expand[0]", "data.latest_charge")]
            if let page { parameters.append(("page", page)) }
            switch await perform("GET", "v1/payment_intents/search", query: parameters,
                                 as: StripeAPI.SearchResult<StripeAPI.PaymentIntent>.self) {
            case .failure(let failure): return .failure(failure)
            case .success(let result):
                found += result.data.filter { $0.metadata[key] == value }
                guard result.hasMore, let next = result.nextPage else { return .success(found) }
                page = next
            }
        }
        return .success(found)
    }

    private func list(metadataKey key: String, value: String) async throws(PaymentError) -> StripeReferenceLookup {
        var found: [StripeAPI.PaymentIntent] = []
        var after: String?
        for _ in 0..<max(1, configuration.maximumPages) {
            var parameters = [("limit", "100"), ("expand[0]", "data.latest_charge")]
            if let since = configuration.listCreatedSince {
                parameters.append(("created[gte]", String(Int64(since.timeIntervalSince1970))))
            }
            if let after { parameters.append(("starting_after", after)) }
            let page = try await request("GET", "v1/payment_intents", query: parameters,
                                         as: StripeAPI.List<StripeAPI.PaymentIntent>.self,
                                         operation: "Listing payment intents", phase: .reconciliation)
            found += page.data.filter { $0.metadata[key] == value }
            guard page.hasMore, let last = page.data.last else {
                return found.isEmpty ? .absent : .found(Self.oldestFirst(found), complete: true)
            }
            after = last.id
        }
        return found.isEmpty ? .unknown : .found(Self.oldestFirst(found), complete: false)
    }

    /// Escapes a value for Stripe's search query language (quotes and backslashes).
    static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
    }

    static func oldestFirst(_ intents: [StripeAPI.PaymentIntent]) -> [StripeAPI.PaymentIntent] {
        intents.enumerated().sorted { ($0.element.created, $0.offset) < ($1.element.created, $1.offset) }.map(\.element)
    }
}
