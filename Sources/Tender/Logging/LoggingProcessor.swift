import Foundation

/// The facade's processor, with every call logged (``TenderLogger``): which call, for which reference, how it ended
/// (the state, or the error's code and the vendor's error name), at `debug` for a success and `error` for a throw.
/// Forwards every requirement of ``PaymentProcessor`` explicitly, so the adapter's own implementations are the ones
/// called, never a protocol default.
struct LoggingProcessor: PaymentProcessor {
    let base: any PaymentProcessor
    let logger: TenderLogger

    var name: String { base.name }

    private func logged<T>(_ call: String, _ reference: String? = nil, result: (T) -> String = { _ in "done" },
                           _ body: () async throws -> T) async throws -> T {
        // Nothing is built unless a handler wants it: the payment path pays one lock read per call.
        func metadata() -> [String: String] {
            var metadata = ["call": call, "processor": base.name]
            if let reference { metadata["reference"] = reference }
            return metadata
        }
        do {
            let value = try await body()
            if logger.wants(.debug) {
                logger.log(.debug, "\(base.name).\(call)\(reference.map { " \($0)" } ?? ""): \(result(value))", metadata())
            }
            return value
        } catch {
            if logger.wants(.error) {
                var failure = metadata()
                let paymentError = error as? PaymentError
                if let paymentError {
                    failure["code"] = paymentError.code.rawValue
                    if let vendor = paymentError.vendor { failure["vendorError"] = vendor.name }
                }
                logger.log(.error, "\(base.name).\(call)\(reference.map { " \($0)" } ?? "") failed: \(paymentError?.message ?? "\(type(of: error))")",
                           failure)
            }
            throw error
        }
    }

    func capabilities() async -> ProcessorCapabilities { await base.capabilities() }

    func networkStatus() async -> NetworkStatus { await base.networkStatus() }

    func readerDiscovery(_ kind: ReaderKind, timeout: Double) -> AsyncThrowingStream<Reader, any Error> {
        logger.log(.debug, "\(base.name).readerDiscovery \(kind.rawValue), up to \(timeout) s",
                   ["call": "readerDiscovery", "kind": kind.rawValue])
        return base.readerDiscovery(kind, timeout: timeout)
    }

    func connectReader(_ reader: Reader, locationID: String) async throws -> Reader {
        try await logged("connectReader", result: { "\($0.kind.rawValue) reader \($0.model) connected" }) {
            try await base.connectReader(reader, locationID: locationID)
        }
    }

    func disconnectReader() async throws { try await logged("disconnectReader") { try await base.disconnectReader() } }

    func connectedReader() async -> Reader? { await base.connectedReader() }

    func installReaderUpdate() async throws {
        try await logged("installReaderUpdate") { try await base.installReaderUpdate() }
    }

    func rebootReader() async throws { try await logged("rebootReader") { try await base.rebootReader() } }

    func setReaderDisplay(_ cart: ReaderCart?) async throws {
        try await logged("setReaderDisplay") { try await base.setReaderDisplay(cart) }
    }

    func startPayment(_ request: PaymentRequest, routing: RoutingDecision, attempt: PaymentAttempt,
                      updates: @escaping PaymentUpdateHandler) async throws -> ProcessorPaymentUpdate {
        try await logged("startPayment", request.reference, result: { "\($0.state.rawValue)" }) {
            try await base.startPayment(request, routing: routing, attempt: attempt, updates: updates)
        }
    }

    func cancelPayment(reference: String) async throws {
        try await logged("cancelPayment", reference) { try await base.cancelPayment(reference: reference) }
    }

    func capturePayment(_ request: CaptureRequest) async throws -> ProcessorPaymentUpdate {
        try await logged("capturePayment", request.reference, result: { $0.state.rawValue }) {
            try await base.capturePayment(request)
        }
    }

    func voidPayment(_ request: VoidRequest) async throws -> ProcessorPaymentUpdate {
        try await logged("voidPayment", request.reference, result: { $0.state.rawValue }) {
            try await base.voidPayment(request)
        }
    }

    func queueSnapshot() async throws -> OfflineQueueSnapshot {
        try await logged("queueSnapshot", result: { "\($0.storedCount) stored" }) { try await base.queueSnapshot() }
    }

    func lookUpPayment(_ query: PaymentLookupQuery) async throws -> ProcessorLookup {
        try await logged("lookUpPayment", query.reference, result: { lookup in
            switch lookup {
            case .found(let update): "found, \(update.state.rawValue)"
            case .notFound: "not found"
            case .unknown: "unknown"
            }
        }) { try await base.lookUpPayment(query) }
    }

    func abandonPayment(_ query: PaymentLookupQuery) async throws -> String? {
        try await logged("abandonPayment", query.reference, result: { $0 ?? "nothing to cancel" }) {
            try await base.abandonPayment(query)
        }
    }

    func refundPayment(_ request: RefundRequest, throughReader: Bool) async throws -> RefundResult {
        try await logged("refundPayment", request.reference, result: { "\($0.status.rawValue)" }) {
            try await base.refundPayment(request, throughReader: throughReader)
        }
    }

    func lookUpRefund(_ refund: RefundRecord, processorPaymentID: String) async throws -> RefundResult? {
        try await logged("lookUpRefund", refund.reference, result: { $0.map { "\($0.status.rawValue)" } ?? "none" }) {
            try await base.lookUpRefund(refund, processorPaymentID: processorPaymentID)
        }
    }

    func events() -> AsyncStream<ProcessorEvent> { base.events() }
}
