import Foundation

/// Where the facade sends its log records: the app's handler (``PaymentTerminal/setLogHandler(_:minimumLevel:)``),
/// or nowhere. Shared by the facade, its event hub and the processor wrapper, from any thread.
package final class TenderLogger: Sendable {
    private let handler = Locked<(handler: any TenderLogHandler, minimum: TenderLogRecord.Level)?>(nil)

    package init() {}

    func set(_ handler: (any TenderLogHandler)?, minimum: TenderLogRecord.Level) {
        self.handler.withLock { $0 = handler.map { ($0, minimum) } }
    }

    /// Whether a record at `level` would be delivered (so that building it can be skipped).
    func wants(_ level: TenderLogRecord.Level) -> Bool {
        handler.withLock { current in current.map { level >= $0.minimum } ?? false }
    }

    /// Logs `message` with `metadata`, redacted (``TenderLogRecord``), if a handler wants `level`.
    func log(_ level: TenderLogRecord.Level, _ message: @autoclosure () -> String,
             _ metadata: @autoclosure () -> [String: String] = [:]) {
        guard let current = handler.withLock({ $0 }), level >= current.minimum else { return }
        current.handler.log(TenderLogRecord(level, message(), metadata()))
    }

    /// The record of one facade event: state changes, refusals, rejected transitions, recovery decisions, refunds,
    /// the processor's reports.
    func log(_ event: TenderEvent) {
        guard handler.withLock({ $0 != nil }) else { return }
        switch event {
        case .paymentStateChanged(let change):
            let level: TenderLogRecord.Level = change.to == .outcomeUnknown ? .warning : .info
            var metadata = ["reference": change.reference, "from": change.from.rawValue, "to": change.to.rawValue]
            if let error = change.error { metadata["code"] = error.code.rawValue }
            log(level, "\(change.reference): \(change.from.rawValue) → \(change.to.rawValue)", metadata)
        case .paymentRefused(let reference, let error):
            log(.notice, "\(reference) refused before the processor was called: \(error.message)",
                ["reference": reference, "code": error.code.rawValue])
        case .transitionRejected(let reference, let from, let to):
            log(.warning, "\(reference): the processor reported \(from.rawValue) → \(to.rawValue), which is not a legal transition; the session kept its state",
                ["reference": reference, "from": from.rawValue, "to": to.rawValue])
        case .unmatchedForwardingResult(let update):
            log(.warning, "A forwarding result for \(update.reference) matches no current vendor payment; ignored",
                ["reference": update.reference, "state": update.state.rawValue])
        case .recoveryFinished(let report):
            for change in report.resolved {
                log(.notice, "recovery: \(change.reference) \(change.from.rawValue) → \(change.to.rawValue)",
                    ["reference": change.reference, "decision": "resolved", "to": change.to.rawValue])
            }
            for reference in report.unresolved {
                log(.warning, "recovery: \(reference) left unresolved; it will be reconciled later",
                    ["reference": reference, "decision": "unresolved"])
            }
            log(.info, "recovery finished: \(report.examined) examined, \(report.resolved.count) resolved, \(report.unresolved.count) unresolved, \(report.stillStored) still stored")
        case .refundChanged(let refund):
            var metadata = ["reference": refund.reference, "refund": refund.id, "status": refund.status.rawValue]
            if let error = refund.error { metadata["code"] = error.code.rawValue }
            log(refund.status == .failed ? .warning : .info,
                "refund \(refund.id) of \(refund.reference): \(refund.status.rawValue)", metadata)
        case .queueChanged(let queue):
            log(.debug, "offline queue: \(queue.storedCount) stored", ["stored": String(queue.storedCount)])
        case .processor(let event):
            switch event {
            case .forwardingError(let error):
                log(.warning, "forwarding error: \(error.message)", ["code": error.code.rawValue])
            case .readerBatteryLow:
                log(.notice, "the reader's battery is low")
            default:
                log(.debug, "processor: \(event.logName)")
            }
        }
    }
}

extension ProcessorEvent {
    /// The event's case name (no payload: payloads may carry card presentation details).
    var logName: String {
        String(describing: self).prefix { $0 != "(" }.description
    }
}

extension PaymentTerminal {
    /// Sends Tender's log records at `minimumLevel` and above to `handler` (`nil`: stop logging): every call to the
    /// processor with its outcome, every payment state change, every recovery decision and error. Credentials and
    /// card data never reach it (``TenderLogRecord``).
    public nonisolated func setLogHandler(_ handler: (any TenderLogHandler)?,
                                          minimumLevel: TenderLogRecord.Level = .info) {
        logger.set(handler, minimum: minimumLevel)
        guard handler != nil, let source = (processor as? LoggingProcessor)?.base as? any VendorLogSource else { return }
        let logger = self.logger
        let name = source.vendorLogSourceName
        Task { await source.routeVendorLogs { line in logger.log(.debug, "\(name): \(line)", ["source": name]) } }
    }
}

/// A processor whose vendor SDK writes logs of its own (Stripe Terminal's `setLogListener`): the facade routes them
/// into the app's log handler, redacted like every record, with `source` naming the SDK. (Square's Mobile Payments
/// SDK has no log API.)
package protocol VendorLogSource: Sendable {
    /// The SDK's name for the `source` metadata.
    var vendorLogSourceName: String { get }
    /// Sends every line the SDK logs to `sink`.
    func routeVendorLogs(to sink: @escaping @Sendable (String) -> Void) async
}
