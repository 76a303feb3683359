import Foundation

/// Square's `ReaderManager` (`MobilePaymentsSDK.shared.readerManager`): pairs and manages readers.
///
/// Mirror: `@objc(SQMPReaderManager)` is dropped; class-bound via `AnyObject`, as an `@objc` protocol is.
public protocol ReaderManager: AnyObject {
    /// Whether a pairing is in progress.
    var isPairingInProgress: Bool { get }
    /// Reader settings (opaque here: not described by the reference).
    var readerSettings: any ReaderSettings { get }
    /// The connected readers.
    var readers: [any ReaderInfo] { get }
    /// Tap to Pay settings (opaque here: not described by the reference).
    var tapToPaySettings: any TapToPaySettings { get }
    /// Adds an observer of the readers.
    func add(_ readerObserver: any ReaderObserver)
    /// Blinks a reader's light.
    func blink(_ readerInfo: any ReaderInfo)
    /// Forgets a reader.
    func forget(_ readerInfo: any ReaderInfo)
    /// Reboots a reader (nothing happens if it is not rebootable).
    func rebootReader(_ readerInfo: any ReaderInfo)
    /// Removes an observer added with ``add(_:)``.
    func remove(_ readerObserver: any ReaderObserver)
    /// Retries a reader's connection to Square; changes are reported to ``ReaderObserver``.
    func retryConnection(_ readerInfo: any ReaderInfo) -> RetryConnectionResult
    /// Starts pairing a nearby reader. Returns a handle when pairing started, otherwise `nil`. Pairing times out
    /// after a minute and stops once one reader connects.
    @discardableResult
    func startPairing(with delegate: any ReaderPairingDelegate) -> (any PairingHandle)?
}

/// Square's `ReaderObserver`: told when readers are added, removed or change. Implemented by the app.
///
/// Mirror: `@objc(SQMPReaderObserver)` is dropped; class-bound via `AnyObject`.
public protocol ReaderObserver: AnyObject {
    /// `readerInfo` changed in the way `change` says.
    func readerDidChange(_ readerInfo: any ReaderInfo, change: ReaderChange)
    /// A reader was added.
    func readerWasAdded(_ readerInfo: any ReaderInfo)
    /// A reader was removed.
    func readerWasRemoved(_ readerInfo: any ReaderInfo)
}

/// Square's `ReaderPairingDelegate`: told how a pairing started with `startPairing(with:)` goes. Implemented by the
/// app.
///
/// Mirror: `@objc(SQMPReaderPairingDelegate)` is dropped; class-bound via `AnyObject`.
public protocol ReaderPairingDelegate: AnyObject {
    /// Pairing began.
    func readerPairingDidBegin()
    /// Pairing failed with `error` (a ``ReaderPairingError`` by its `NSError` code).
    func readerPairingDidFail(with error: any Error)
    /// A reader paired.
    func readerPairingDidSucceed()
}

/// Square's `PairingHandle`: a pairing in progress.
///
/// Mirror: `@objc(SQMPPairingHandle)` is dropped; class-bound via `AnyObject`.
public protocol PairingHandle: AnyObject {
    /// Stops pairing; `true` if a pairing was canceled.
    @discardableResult
    func stop() -> Bool
}
