import Foundation
import Testing
@testable import Tender
import TenderTesting

/// Collects every record it is handed.
final class RecordingLogHandler: TenderLogHandler, Sendable {
    let records = Locked<[TenderLogRecord]>([])
    func log(_ record: TenderLogRecord) { records.withLock { $0.append(record) } }
    var lines: [String] {
        records.current.map { record in
            ([record.message] + record.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
                .joined(separator: " ")
        }
    }
}

private let logScope = LedgerScope(merchantID: "acct_log", locationID: "loc_log")
private func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }

@Suite("Logging")
struct LoggingTests {
    private func terminal(_ processor: InMemoryPaymentProcessor, minimum: TenderLogRecord.Level = .debug)
        async -> (PaymentTerminal, RecordingLogHandler) {
        let terminal = PaymentTerminal(processor: processor, scope: logScope,
                                       limits: .single(perPayment: usd(10_000), storedTotal: usd(50_000)))
        let handler = RecordingLogHandler()
        terminal.setLogHandler(handler, minimumLevel: minimum)
        await terminal.handle(.networkStatusChanged(.online))
        return (terminal, handler)
    }

    @Test("every vendor call and every state change of a payment reaches the handler")
    func vendorCallsAndTransitions() async throws {
        let processor = InMemoryPaymentProcessor()
        let (terminal, handler) = await terminal(processor)
        let session = try await terminal.takePayment(PaymentRequest(amount: usd(1_250), reference: "log-1"))
        #expect(session.state == .succeeded)
        _ = try await terminal.refund(reference: "log-1")
        let records = handler.records.current
        let calls = records.compactMap { $0.metadata["call"] }
        #expect(calls.contains("startPayment") && calls.contains("refundPayment"), "\(calls)")
        let start = try #require(records.first { $0.metadata["call"] == "startPayment" })
        #expect(start.level == .debug && start.metadata["reference"] == "log-1" && start.message.hasSuffix("succeeded"))
        let states = records.filter { $0.metadata["reference"] == "log-1" }.compactMap { $0.metadata["to"] }
        #expect(states == ["collecting", "processing", "succeeded"], "\(states)")
        #expect(records.contains { $0.metadata["refund"] != nil && $0.metadata["status"] == "succeeded" })
    }

    @Test("a failed call is logged as an error with its code; a refusal as a notice; nothing below the minimum")
    func errorsRefusalsAndLevels() async throws {
        let processor = InMemoryPaymentProcessor()
        let (terminal, handler) = await terminal(processor, minimum: .notice)
        processor.setNetwork(.offline)
        await #expect(throws: PaymentError.self) {
            _ = try await terminal.takePayment(PaymentRequest(amount: usd(500), reference: "log-2",
                                                              offlinePolicy: .requireOnline))
        }
        processor.setNetwork(.online)
        processor.injectTimeout(.confirmNotReceived)
        let unknown = try await terminal.takePayment(PaymentRequest(amount: usd(700), reference: "log-3"))
        #expect(unknown.state == .outcomeUnknown)
        let records = handler.records.current
        #expect(records.allSatisfy { $0.level >= .notice })
        #expect(records.contains { $0.level == .notice && $0.metadata["reference"] == "log-2"
                && $0.metadata["code"] == PaymentError.Code.offlineNotAllowed.rawValue })
        #expect(records.contains { $0.level == .error && $0.metadata["call"] == "startPayment"
                && $0.metadata["reference"] == "log-3" && $0.metadata["code"] != nil })
        #expect(records.contains { $0.level == .warning && $0.metadata["to"] == "outcomeUnknown" })
    }

    @Test("every recovery decision is logged")
    func recoveryDecisions() async throws {
        let processor = InMemoryPaymentProcessor()
        let (terminal, handler) = await terminal(processor)
        processor.injectTimeout(.answerLostAfterCharge)
        let lost = try await terminal.takePayment(PaymentRequest(amount: usd(900), reference: "log-4"))
        #expect(lost.state == .outcomeUnknown)
        let report = await terminal.recover()
        #expect(report.resolved.contains { $0.reference == "log-4" && $0.to == .succeeded })
        let decisions = handler.records.current.filter { $0.metadata["decision"] != nil }
        #expect(decisions.contains { $0.metadata["reference"] == "log-4" && $0.metadata["decision"] == "resolved"
                && $0.metadata["to"] == "succeeded" }, "\(handler.lines)")
        #expect(handler.records.current.contains { $0.message.hasPrefix("recovery finished") })
        #expect(handler.records.current.contains { $0.metadata["call"] == "lookUpPayment" && $0.metadata["reference"] == "log-4" })
    }

    @Test("credentials and card numbers are redacted by construction")
    func redaction() {
        let record = TenderLogRecord(.error, "Stripe said: invalid key sk_live_51Habc123XYZ for card 4242 4242 4242 4242",
                                     ["token": "pst_test_YWNjdF8xM", "square": "EAAAl9xyz-123", "auth": "Bearer abc.def",
                                      "secret": "pi_123_secret_456", "pan": "5555555555554444", "ok": "order-17"])
        let line = ([record.message] + record.metadata.values.sorted()).joined(separator: " ")
        for leaked in ["sk_live", "51Habc", "4242 4242", "pst_test", "EAAA", "abc.def", "_secret_", "5555555555554444"] {
            #expect(!line.contains(leaked), "\(leaked) in \(line)")
        }
        #expect(record.metadata["ok"] == "order-17")
        #expect(record.message.contains("[redacted]"))
        // Short numbers (amounts, counts, years) are kept.
        #expect(LogRedaction.redact("1250 USD in 2026, 3 stored") == "1250 USD in 2026, 3 stored")
    }

    @Test("a day's log lines hold no card number and no credential")
    func aDayLogsNoSecrets() async throws {
        let processor = InMemoryPaymentProcessor()
        let (terminal, handler) = await terminal(processor)
        processor.present(.approve, .decline, .approve)
        for n in 1...3 {
            _ = try await terminal.takePayment(PaymentRequest(amount: usd(Int64(n) * 1_000), reference: "day-\(n)",
                                                              metadata: ["note": "card 4000056655665556"]))
        }
        _ = try await terminal.refund(reference: "day-1")
        let lines = handler.lines
        #expect(lines.count > 10)
        let cardNumber = try Regex(#"\d(?:[ \-]?\d){12,18}"#)
        #expect(lines.allSatisfy { $0.firstMatch(of: cardNumber) == nil }, "\(lines)")
        #expect(lines.allSatisfy { !$0.contains("sk_") && !$0.contains("pst_") && !$0.contains("EAAA") })
    }
}
