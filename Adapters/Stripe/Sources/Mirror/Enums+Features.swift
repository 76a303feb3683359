import Foundation

// Enums the SDK's API names, written from ../shared/reference/sdk-surface/full/stripe-terminal-ios.json (Stripe
// Terminal iOS 5.5.0) with all their cases and raw values, like every enum of this module.

/// `SCPSimulatedOfflineMode` (`NS_ENUM`), imported with raw type `UInt`.
public enum SimulatedOfflineMode: UInt, @unchecked Sendable {
    /// `SCPSimulatedOfflineModeDisabled` = 0.
    case disabled = 0
    /// `SCPSimulatedOfflineModeOfflineImmediate` = 1.
    case offlineImmediate = 1
    /// `SCPSimulatedOfflineModeOfflineTimeout` = 2.
    case offlineTimeout = 2
    /// `SCPSimulatedOfflineModeOfflineIntermittent` = 3.
    case offlineIntermittent = 3
}

/// `SCPIncrementalAuthorizationStatus` (`NS_ENUM`), imported with raw type `UInt`.
public enum IncrementalAuthorizationStatus: UInt, @unchecked Sendable {
    /// `SCPIncrementalAuthorizationStatusUnknown` = 0.
    case unknown = 0
    /// `SCPIncrementalAuthorizationStatusNotSupported` = 1.
    case notSupported = 1
    /// `SCPIncrementalAuthorizationStatusSupported` = 2.
    case supported = 2
}

/// `SCPMulticaptureStatus` (`NS_ENUM`), imported with raw type `UInt`.
public enum MulticaptureStatus: UInt, @unchecked Sendable {
    /// `SCPMulticaptureStatusUnknown` = 0.
    case unknown = 0
    /// `SCPMulticaptureStatusUnavailable` = 1.
    case unavailable = 1
    /// `SCPMulticaptureStatusAvailable` = 2.
    case available = 2
}

/// `SCPReauthorizationStatus` (`NS_ENUM`), imported with raw type `UInt`.
public enum ReauthorizationStatus: UInt, @unchecked Sendable {
    /// `SCPReauthorizationStatusUnknown` = 0.
    case unknown = 0
    /// `SCPReauthorizationStatusUnavailable` = 1.
    case unavailable = 1
    /// `SCPReauthorizationStatusAvailable` = 2.
    case available = 2
}
