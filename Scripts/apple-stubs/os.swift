// Stand-in for the `os` module's unified logging (Scripts/check-apple-gated.py): only what the library targets'
// `#if canImport(os)` blocks use. Shapes as in the iOS 17 SDK's interface (`os.Logger`, `OSLogType`, `OSLogMessage`
// and its interpolation with `privacy:`).

/// `OSLogType`.
public struct OSLogType: Equatable, RawRepresentable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let `default` = OSLogType(rawValue: 0x00)
    public static let info = OSLogType(rawValue: 0x01)
    public static let debug = OSLogType(rawValue: 0x02)
    public static let error = OSLogType(rawValue: 0x10)
    public static let fault = OSLogType(rawValue: 0x11)
}

/// `OSLogPrivacy`.
public struct OSLogPrivacy: Equatable, Sendable {
    private let level: UInt8
    public static let `public` = OSLogPrivacy(level: 1)
    public static let `private` = OSLogPrivacy(level: 2)
    public static let sensitive = OSLogPrivacy(level: 3)
    public static let auto = OSLogPrivacy(level: 0)
}

/// `OSLogInterpolation`: what a string interpolation inside a log message may hold.
public struct OSLogInterpolation: StringInterpolationProtocol {
    public init(literalCapacity: Int, interpolationCount: Int) {}
    public mutating func appendLiteral(_ literal: String) {}
    public mutating func appendInterpolation(_ argumentString: @autoclosure @escaping () -> String,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {}
    public mutating func appendInterpolation<T: CustomStringConvertible>(_ value: @autoclosure @escaping () -> T,
                                                                         privacy: OSLogPrivacy = .auto) {}
    public mutating func appendInterpolation(_ number: @autoclosure @escaping () -> Int,
                                             privacy: OSLogPrivacy = .auto) {}
}

/// `OSLogStringAlignment`.
public struct OSLogStringAlignment: Sendable {
    public static let none = OSLogStringAlignment()
}

/// `OSLogMessage`: a log message, built from a literal with interpolations.
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    public init(stringInterpolation: OSLogInterpolation) {}
    public init(stringLiteral value: String) {}
}

/// `Logger` (os, iOS 14+): unified logging.
public struct Logger: @unchecked Sendable {
    public init(subsystem: String, category: String) {}
    public init() {}
    public func log(level: OSLogType, _ message: OSLogMessage) {}
    public func log(_ message: OSLogMessage) {}
    public func debug(_ message: OSLogMessage) {}
    public func info(_ message: OSLogMessage) {}
    public func notice(_ message: OSLogMessage) {}
    public func error(_ message: OSLogMessage) {}
    public func fault(_ message: OSLogMessage) {}
}
