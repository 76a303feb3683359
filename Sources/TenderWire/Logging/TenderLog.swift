import Foundation

/// One line Tender logs: a vendor call and its result, a payment's state change, a recovery decision, an error.
///
/// Records are made only by Tender (the initializer is not public), from values it chooses: references, states,
/// amounts, error codes and the vendors' error names. Card data is never among them, and every message and value
/// passes through the same redaction (secret and restricted keys, access and connection tokens, card-number-like
/// digit runs are replaced with `[redacted]`) before a handler sees it: a credential or card number cannot reach a log
/// by accident.
public struct TenderLogRecord: Hashable, Sendable {
    /// How much the line matters.
    public enum Level: Int, Hashable, Sendable, Comparable, CaseIterable {
        /// Detail for diagnosing (every vendor call).
        case debug
        /// A normal step (a payment changed state, recovery finished).
        case info
        /// Something the app should know (a refusal, a recovery decision).
        case notice
        /// A problem Tender handles (an unknown outcome, a rejected transition, a forwarding error).
        case warning
        /// A call failed.
        case error

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// How much it matters.
    public let level: Level
    /// The sentence, redacted.
    public let message: String
    /// Key-value context (`reference`, `state`, `code`, `call`…), redacted.
    public let metadata: [String: String]

    /// Makes a record, redacting the message and every metadata value.
    package init(_ level: Level, _ message: String, _ metadata: [String: String] = [:]) {
        self.level = level
        self.message = LogRedaction.redact(message)
        self.metadata = metadata.mapValues(LogRedaction.redact)
    }
}

/// Receives Tender's log records: adapt it to `os.Logger`, swift-log or the app's own logging. Called from any
/// thread; keep it quick.
///
/// With swift-log, a handler is a few lines:
/// ```swift
/// import Logging
/// struct SwiftLogHandler: TenderLogHandler {
///     let logger = Logger(label: "tender")
///     func log(_ record: TenderLogRecord) {
///         let level: Logger.Level = switch record.level {
///         case .debug: .debug
///         case .info: .info
///         case .notice: .notice
///         case .warning: .warning
///         case .error: .error
///         }
///         logger.log(level: level, "\(record.message)", metadata: record.metadata.mapValues { .string($0) })
///     }
/// }
/// ```
public protocol TenderLogHandler: Sendable {
    /// Logs one record.
    func log(_ record: TenderLogRecord)
}

/// The redaction every log record passes through.
package enum LogRedaction {
    /// Stripe secret, restricted and publishable keys, connection tokens and client secrets; Square access tokens
    /// (`EAAA…`, `sq0atp-…`, `sq0csp-…`); bearer values; runs of 13 to 19 digits (card numbers, with or without
    /// spaces or dashes).
    private static let patterns: [String] = [
        #"\b(sk|rk|pk)_(live|test)_[A-Za-z0-9]+"#,
        #"\bpst_(live|test)_[A-Za-z0-9_]+"#,
        #"\bpi_[A-Za-z0-9]+_secret_[A-Za-z0-9]+"#,
        #"\bEAAA[A-Za-z0-9_\-]+"#,
        #"\bsq0(atp|csp|idp)-[A-Za-z0-9_\-]+"#,
        #"(?i)\bbearer\s+[A-Za-z0-9._\-]+"#,
        #"\b\d(?:[ \-]?\d){12,18}\b"#,
    ]

    /// `text` with every credential and card-number-like run replaced by `[redacted]`.
    package static func redact(_ text: String) -> String {
        var result = text
        for pattern in patterns {
            while let range = result.range(of: pattern, options: .regularExpression) {
                result.replaceSubrange(range, with: "[redacted]")
            }
        }
        return result
    }
}
