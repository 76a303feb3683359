import Foundation

// The SDK's display strings for its enums. The strings are the SDK's (the backend supplies them); only the
// declarations are fixed here.
extension Terminal {
    /// `+stringFromReaderInputOptions:`: the display text for a `ReaderInputOptions`.
    @discardableResult
    public class func stringFromReaderInputOptions(_ options: ReaderInputOptions = []) -> String {
        SurfaceRuntime.backend(for: "Terminal.stringFromReaderInputOptions(_:)").describe(.readerInputOptions(options))
    }

    /// `+stringFromReaderDisplayMessage:`: the display text for a `ReaderDisplayMessage`.
    @discardableResult
    public class func stringFromReaderDisplayMessage(_ message: ReaderDisplayMessage) -> String {
        SurfaceRuntime.backend(for: "Terminal.stringFromReaderDisplayMessage(_:)").describe(.readerDisplayMessage(message))
    }

    /// `+stringFromReaderEvent:`: the display text for a `ReaderEvent`.
    @discardableResult
    public class func stringFromReaderEvent(_ event: ReaderEvent) -> String {
        SurfaceRuntime.backend(for: "Terminal.stringFromReaderEvent(_:)").describe(.readerEvent(event))
    }

    /// `+stringFromConnectionStatus:`: the display text for a `ConnectionStatus`.
    @discardableResult
    public class func stringFromConnectionStatus(_ status: ConnectionStatus) -> String {
        SurfaceRuntime.backend(for: "Terminal.stringFromConnectionStatus(_:)").describe(.connectionStatus(status))
    }

    /// `+stringFromPaymentStatus:`: the display text for a `PaymentStatus`.
    @discardableResult
    public class func stringFromPaymentStatus(_ status: PaymentStatus) -> String {
        SurfaceRuntime.backend(for: "Terminal.stringFromPaymentStatus(_:)").describe(.paymentStatus(status))
    }

    /// `+stringFromDeviceType:`: the display text for a `DeviceType`.
    @discardableResult
    public class func stringFromDeviceType(_ deviceType: DeviceType) -> String {
        SurfaceRuntime.backend(for: "Terminal.stringFromDeviceType(_:)").describe(.deviceType(deviceType))
    }

    /// `+stringFromDiscoveryMethod:`: the display text for a `DiscoveryMethod`.
    @discardableResult
    public class func stringFromDiscoveryMethod(_ method: DiscoveryMethod) -> String {
        SurfaceRuntime.backend(for: "Terminal.stringFromDiscoveryMethod(_:)").describe(.discoveryMethod(method))
    }

    /// `+stringFromCardBrand:`: the display text for a `CardBrand`.
    @discardableResult
    public class func stringFromCardBrand(_ cardBrand: CardBrand) -> String {
        SurfaceRuntime.backend(for: "Terminal.stringFromCardBrand(_:)").describe(.cardBrand(cardBrand))
    }

    /// `+stringFromPaymentIntentStatus:`: the display text for a `PaymentIntentStatus`.
    @discardableResult
    public class func stringFromPaymentIntentStatus(_ paymentIntentStatus: PaymentIntentStatus) -> String {
        SurfaceRuntime.backend(for: "Terminal.stringFromPaymentIntentStatus(_:)").describe(.paymentIntentStatus(paymentIntentStatus))
    }

    /// `+stringFromCaptureMethod:`: the display text for a `CaptureMethod`.
    @discardableResult
    public class func stringFromCaptureMethod(_ captureMethod: CaptureMethod) -> String {
        SurfaceRuntime.backend(for: "Terminal.stringFromCaptureMethod(_:)").describe(.captureMethod(captureMethod))
    }

    /// `+stringFromReadMethod:`: the display text for a `ReadMethod`.
    @discardableResult
    public class func stringFromReadMethod(_ method: ReadMethod) -> String {
        SurfaceRuntime.backend(for: "Terminal.stringFromReadMethod(_:)").describe(.readMethod(method))
    }

    /// `+stringFromNetworkStatus:`: the display text for a `NetworkStatus`.
    @discardableResult
    public class func stringFromNetworkStatus(_ networkStatus: NetworkStatus) -> String {
        SurfaceRuntime.backend(for: "Terminal.stringFromNetworkStatus(_:)").describe(.networkStatus(networkStatus))
    }

    /// `+stringFromDisconnectReason:`: the display text for a `DisconnectReason`.
    @discardableResult
    public class func stringFromDisconnectReason(_ reason: DisconnectReason) -> String {
        SurfaceRuntime.backend(for: "Terminal.stringFromDisconnectReason(_:)").describe(.disconnectReason(reason))
    }

    /// `+stringFromOfflineBehavior:`: the display text for a `OfflineBehavior`.
    @discardableResult
    public class func stringFromOfflineBehavior(_ behavior: OfflineBehavior) -> String {
        SurfaceRuntime.backend(for: "Terminal.stringFromOfflineBehavior(_:)").describe(.offlineBehavior(behavior))
    }

    /// `+stringFromError:`: the display text for a `ErrorCode.Code`.
    @discardableResult
    public class func stringFromError(_ error: ErrorCode.Code) -> String {
        SurfaceRuntime.backend(for: "Terminal.stringFromError(_:)").describe(.error(error))
    }

    /// `+stringFromSimulatedOfflineMode:`: the display text for a `SimulatedOfflineMode`.
    @discardableResult
    public class func stringFromSimulatedOfflineMode(_ mode: SimulatedOfflineMode) -> String {
        SurfaceRuntime.backend(for: "Terminal.stringFromSimulatedOfflineMode(_:)").describe(.simulatedOfflineMode(mode))
    }

    /// `+stringFromPaymentMethodType:`: the display text for a `PaymentMethodType`.
    @discardableResult
    public class func stringFromPaymentMethodType(_ paymentMethodType: PaymentMethodType) -> String {
        SurfaceRuntime.backend(for: "Terminal.stringFromPaymentMethodType(_:)")
            .describe(.paymentMethodType(paymentMethodType))
    }
}
