#if canImport(os)
public import Tender
import os

/// Sends Tender's log records to the unified logging system (`os.Logger`), at the matching `OSLogType`. Messages are
/// already redacted (``Tender/TenderLogRecord``), so they are logged as public.
/// ```swift
/// terminal.setLogHandler(OSLogHandler(subsystem: "com.example.pos"), minimumLevel: .info)
/// ```
/// Compiled only where `os` exists (Apple platforms); not compiled on Linux.
public struct OSLogHandler: TenderLogHandler {
    private let logger: Logger

    /// A handler logging under `subsystem` and `category`.
    public init(subsystem: String, category: String = "Tender") {
        logger = Logger(subsystem: subsystem, category: category)
    }

    /// Logs one record.
    public func log(_ record: TenderLogRecord) {
        let type: OSLogType = switch record.level {
        case .debug: .debug
        case .info, .notice: .info
        case .warning: .default
        case .error: .error
        }
        let context = record.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        logger.log(level: type, "\(record.message, privacy: .public) \(context, privacy: .public)")
    }
}
#endif
