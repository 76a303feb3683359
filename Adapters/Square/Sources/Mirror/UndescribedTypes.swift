import Foundation

// Types the reference names but does not describe (`referencedButNotDescribed`): members of described types take or
// return them, so they must exist. Each is an empty, class-bound protocol: code can hold and pass them, and cannot use
// members the reference has not recorded. `package` classes in SurfaceObjectsUndescribed.swift conform to them.

/// Square's `PaymentSource` (a cash, keyed-card or Tap to Pay source for ``AdditionalPaymentMethod``). Opaque here:
/// the reference does not describe it.
///
/// Mirror: an empty class-bound protocol; its members are not mirrored.
public protocol PaymentSource: AnyObject {}

/// Square's `ReadCardInfoManager` (`SDKManager.readCardInfoManager`). Opaque here: the reference does not describe it.
///
/// Mirror: an empty class-bound protocol; its members are not mirrored.
public protocol ReadCardInfoManager: AnyObject {}

/// Square's `ReaderSettings` (`ReaderManager.readerSettings`). Opaque here: the reference does not describe it.
///
/// Mirror: an empty class-bound protocol; its members are not mirrored.
public protocol ReaderSettings: AnyObject {}

/// Square's `TapToPaySettings` (`ReaderManager.tapToPaySettings`). Opaque here: the reference does not describe it.
///
/// Mirror: an empty class-bound protocol; its members are not mirrored.
public protocol TapToPaySettings: AnyObject {}
