import Foundation
import Testing
@testable import Tender

/// Fixtures shared by the SQLite ledger's suites. A suite conforms to use them unqualified; nothing here is visible
/// to other suites of the module by accident.
protocol SQLiteLedgerFixtures {}

/// What a ledger answered to one step of ``SQLiteLedgerFixtures/exercise(_:)``.
enum LedgerAnswer: Equatable {
    case ok
    case session(PaymentSession?)
    case sessions([PaymentSession])
    case summary(StoredPaymentSummary)
    case scopes([LedgerScope])
    case refunds([RefundRecord])
    case refund(RefundRecord)
    case refused(PaymentError.Code)
}

extension SQLiteLedgerFixtures {
    var shop: LedgerScope { LedgerScope(merchantID: "acct_A", locationID: "loc_1") }
    var otherShop: LedgerScope { LedgerScope(merchantID: "acct_B", locationID: "loc_9") }
    /// A whole number of seconds, so that every time round-trips exactly.
    var t0: Date { Date(timeIntervalSinceReferenceDate: 800_000_000) }

    func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }
    func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }
    func jpy(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .jpy) }

    /// A fresh directory, removed when `body` returns.
    func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("tender-ledger-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    func newSession(_ reference: String, _ amount: Money, scope: LedgerScope? = nil, tip: Money? = nil,
                    capture: CaptureMode = .automatic, at time: Date? = nil) -> PaymentSession {
        PaymentSession(request: PaymentRequest(amount: amount, reference: reference, captureMode: capture,
                                               offlinePolicy: .preferOnline, tip: tip),
                       scope: scope ?? shop, processor: "square", route: nil, at: time ?? t0)
    }

    /// A session already stored offline (for bulk fixtures).
    func storedSession(_ reference: String, _ amount: Money, scope: LedgerScope, storedAt: Date) -> PaymentSession {
        var session = newSession(reference, amount, scope: scope, at: storedAt)
        session.transitions.append(PaymentTransition(from: .created, to: .storedOffline, at: storedAt))
        session.state = .storedOffline
        session.route = .offline
        session.storedAt = storedAt
        session.localID = "local-\(reference)"
        return session
    }

    /// A session that succeeded online (captured: refundable).
    func succeededSession(_ reference: String, _ amount: Money, scope: LedgerScope? = nil, tip: Money? = nil,
                          at time: Date? = nil) -> PaymentSession {
        var session = newSession(reference, amount, scope: scope, tip: tip, at: time)
        session.transitions.append(PaymentTransition(from: .created, to: .succeeded, at: time ?? t0))
        session.state = .succeeded
        session.route = .online
        session.processorPaymentID = "pi_\(reference)"
        return session
    }

    var declineAfterForwarding: PaymentError {
        PaymentError(.cardDeclined, recovery: .collectAnotherCard, phase: .forwarding, message: "Declined after forwarding.",
                     vendor: .init(processor: "square", name: "cardDeclined", numericCode: nil,
                                   message: "Card declined by issuer", declineCode: "insufficient_funds"))
    }

    var visa: CardDetails {
        CardDetails(brand: .visa, last4: "4242", entryMethod: .contactless, applicationName: "VISA CREDIT",
                    applicationIdentifier: "A0000000031010")
    }

    func answer(_ body: () async throws -> LedgerAnswer) async -> LedgerAnswer {
        do { return try await body() } catch let error as PaymentError { return .refused(error.code) } catch {
            Issue.record("unexpected error \(error)")
            return .refused(.init(rawValue: "unexpected"))
        }
    }

    func fileBytes(_ url: URL) throws -> Data { try Data(contentsOf: url) }
    func fileBytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    func permissions(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    /// Opens the ledger expecting a refusal; returns the error. With `sidecarsAllowed`, the `-wal`, `-shm` and
    /// `-journal` files that were there before may still be there (their bytes are checked by the caller).
    func expectRefusal(_ url: URL, sidecarsAllowed: Bool = false) async throws -> PaymentError {
        do {
            _ = try await SQLitePaymentLedger.open(url: url)
            Issue.record("\(url.lastPathComponent) was opened, not refused")
            throw CancellationError()
        } catch let error as PaymentError {
            #expect(error.code == .ledgerUnavailable)
            #expect(error.recovery == .fixIntegration)
            #expect(error.phase == .ledger)
            #expect(error.message.contains(url.path))
            #expect(error.message.contains("left it untouched"))
            if !sidecarsAllowed {
                for suffix in ["-wal", "-shm", "-journal"] {
                    #expect(!FileManager.default.fileExists(atPath: url.path + suffix), "\(suffix) left beside the file")
                }
            }
            return error
        }
    }

    /// Builds a closed ledger file holding `count` sessions, checkpointed: the file alone holds them (its `-wal` is
    /// empty).
    func makeLedgerFile(_ url: URL, count: Int) async throws {
        let ledger = try await SQLitePaymentLedger.open(url: url)
        try await ledger.insertBatch((0..<count).map { newSession("order-\($0)", usd(Int64(100 + $0)), at: at(Double($0))) })
        try await ledger.checkpoint()
        await ledger.close()
    }

    /// Every session of the scope with its history and refunds, by reference.
    func everything(in ledger: any PaymentLedger, scope: LedgerScope) async throws -> [String: PaymentSession] {
        var result: [String: PaymentSession] = [:]
        for session in try await ledger.allSessions(scope: scope) {
            result[session.reference] = try await ledger.session(reference: session.reference, scope: scope)
        }
        return result
    }
}
