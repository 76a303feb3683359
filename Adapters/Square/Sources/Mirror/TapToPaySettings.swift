public import Foundation

// Tap to Pay on iPhone and reader settings (Square 2.5.0 DocC, `gh-pages` 227876b): the objects
// `ReaderManager.tapToPaySettings` and `ReaderManager.readerSettings` return. Mirrored completely so bridge code can
// link the merchant's Apple account and check the device. Behaviour comes from the objects a ``SurfaceBackend``
// returns (these are protocols, like the SDK's).

/// Square's `TapToPaySettings`: whether this iPhone can take Tap to Pay payments, and linking the merchant's Apple
/// account (errors from these calls bridge to ``TapToPayReaderError``).
///
/// Mirror: `@objc(SQMPTapToPaySettings)` is dropped; class-bound, as an `@objc` protocol is.
public protocol TapToPaySettings: AnyObject {
    /// Whether the device can take Tap to Pay payments (model and OS version).
    var isDeviceCapable: Bool { get }
    /// Whether the merchant's Apple account is linked for Tap to Pay.
    func isAppleAccountLinked(completion: @escaping (Bool, Error?) -> Void)
    /// Links the merchant's Apple account (Apple's terms screen).
    func linkAppleAccount(completion: @escaping (Error?) -> Void)
    /// Links the Apple account again (after the terms changed or the link was lost).
    func relinkAppleAccount(completion: @escaping (Error?) -> Void)
}

/// Square's `ReaderSettings`: settings of the paired readers.
///
/// Mirror: `@objc(SQMPReaderSettings)` is dropped; class-bound, as an `@objc` protocol is.
public protocol ReaderSettings: AnyObject {
    /// When readers may install firmware updates (nil: any time).
    var preferredFirmwareUpdateTime: TimeOfDay? { get set }
    /// Whether readers charge in the reduced mode (battery longevity).
    var reducedChargingModeEnabled: Bool { get set }
    /// Adds an observer of the settings.
    func add(_ readerSettingsObserver: any ReaderSettingsObserver)
    /// Removes an observer.
    func remove(_ readerSettingsObserver: any ReaderSettingsObserver)
}

/// Square's `ReaderSettingsObserver`.
///
/// Mirror: `@objc(SQMPReaderSettingsObserver)` is dropped; class-bound, as an `@objc` protocol is.
public protocol ReaderSettingsObserver: AnyObject {
    /// The reader settings changed.
    func readerSettingsDidChange()
}

/// Square's `TimeOfDay`: an hour and minute (``ReaderSettings/preferredFirmwareUpdateTime``).
///
/// Mirror: `@objc(SQMPTimeOfDay)` is dropped.
public final class TimeOfDay: NSObject {
    /// The hour, 0...23.
    public let hour: Int
    /// The minute, 0...59.
    public let minute: Int

    /// A time of day; nil when `hour` or `minute` is out of range.
    public init?(hour: Int, minute: Int) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
        super.init()
    }
}
