#if TENDER_SURFACE_MIRROR           // test builds: the surface mirror (checked first, so tests never need the SDK)
import SquareMobilePaymentsSurface
#elseif SquareMobilePaymentsSDK     // the package trait: the real SDK
public import SquareMobilePaymentsSDK      // re-exports MobilePaymentsSDKAPI, the module of the SDK's protocols and types
#endif
#if SquareMobilePaymentsSDK || TENDER_SURFACE_MIRROR
package import Foundation
package import TenderSquare
#if canImport(Network)
public import Network
#endif

/// The device's connectivity, for ``SquareClient/networkMonitor``: Square's SDK exposes none (it "regularly checks
/// for network connectivity and a connection to Square servers" internally).
///
/// What it reports:
/// - ``isConnected``: whether the device's network path is satisfied (`NWPathMonitor`: `NWPath.status ==
///   .satisfied`, some interface has a route). It does not prove that Square answers (a captive portal, an outage at
///   Square): Square's SDK makes that check itself for `autoDetect`, and a payment that cannot reach Square ends with
///   Square's own error. Before the first path arrives (`NWPathMonitor` reports one as soon as it starts), it waits
///   for it.
/// - ``lastConnectedAt``: now while connected; otherwise the later of the last moment the path was satisfied and the
///   last request the bridge saw Square answer (an `authorize` that succeeded, an online payment that finished). It is
///   kept in ``Storage`` (the app's `UserDefaults` by default) so that it survives a relaunch: Square's 24-hour
///   offline window counts from when the device was last online. `nil` when never known.
/// - Observers hear `networkDidChange(isConnected:)` at each change after the first path, on the monitor's queue.
package final class SquareNetworkMonitor: Square.NetworkMonitor, @unchecked Sendable {
    /// Where ``lastConnectedAt`` is kept across launches.
    package struct Storage: Sendable {
        let load: @Sendable () -> Date?
        let save: @Sendable (Date) -> Void

        /// Storage made of two closures.
        package init(load: @escaping @Sendable () -> Date?, save: @escaping @Sendable (Date) -> Void) {
            self.load = load
            self.save = save
        }

        /// The app's standard `UserDefaults`, under `key`.
        package static func userDefaults(key: String = "Tender.SquareNetworkMonitor.lastConnectedAt") -> Storage {
            Storage(load: { UserDefaults.standard.object(forKey: key) as? Date },
                    save: { UserDefaults.standard.set($0, forKey: key) })
        }

        /// Memory only: forgotten at a relaunch.
        package static func inMemory() -> Storage {
            let box = MemoryBox()
            return Storage(load: { box.date }, save: { box.date = $0 })
        }

        private final class MemoryBox: @unchecked Sendable {
            private let lock = NSLock()
            private var stored: Date?
            var date: Date? {
                get { lock.lock(); defer { lock.unlock() }; return stored }
                set { lock.lock(); defer { lock.unlock() }; stored = newValue }
            }
        }
    }

    private let lock = NSLock()
    private let storage: Storage
    private let now: @Sendable () -> Date
    private var connected: Bool?
    private var lastConnected: Date?
    private var observers: [any Square.NetworkObserver] = []
    private var waiters: [CheckedContinuation<Bool, Never>] = []
    #if canImport(Network)
    private var pathMonitor: NWPathMonitor?
    #endif

    #if canImport(Network)
    /// A monitor of the device's network path (`NWPathMonitor`, started at once on its own queue).
    /// - Parameter storage: where ``lastConnectedAt`` is kept across launches.
    package convenience init(storage: Storage = .userDefaults()) {
        self.init(storage: storage, now: { Date() })
        let monitor = NWPathMonitor()
        monitor.pathUpdateHandler = { [weak self] path in self?.pathDidChange(isSatisfied: path.status == .satisfied) }
        locked { pathMonitor = monitor }
        monitor.start(queue: DispatchQueue(label: "Tender.SquareNetworkMonitor"))
    }

    deinit { pathMonitor?.cancel() }
    #endif

    /// A monitor fed only by ``pathDidChange(isSatisfied:)``: for tests, and for platforms without the Network
    /// framework.
    package init(storage: Storage, now: @escaping @Sendable () -> Date) {
        self.storage = storage
        self.now = now
        lastConnected = storage.load()
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// Whether the device's network path is satisfied; waits for the first path.
    package var isConnected: Bool {
        get async {
            if let known = locked({ connected }) { return known }
            return await withCheckedContinuation { continuation in
                let known: Bool? = locked {
                    if connected == nil { waiters.append(continuation) }
                    return connected
                }
                if let known { continuation.resume(returning: known) }
            }
        }
    }

    /// Now while connected; otherwise when the device was last online (see the type's documentation).
    package var lastConnectedAt: Date? {
        get async {
            let (isConnected, last) = locked { (connected, lastConnected) }
            if isConnected == true { return now() }
            return last
        }
    }

    /// Adds an observer of connectivity changes.
    package func add(_ observer: any Square.NetworkObserver) async {
        locked { if !observers.contains(where: { $0 === observer }) { observers.append(observer) } }
    }

    /// Removes an observer added before (by identity).
    package func remove(_ observer: any Square.NetworkObserver) async {
        locked { observers.removeAll { $0 === observer } }
    }

    /// A new network path: satisfied or not. Records the time while satisfied (and the moment it stops being), wakes
    /// those waiting for the first path, and tells the observers when the state changed.
    package func pathDidChange(isSatisfied: Bool) {
        let time = now()
        let (waiting, observing, stamp): ([CheckedContinuation<Bool, Never>], [any Square.NetworkObserver], Date?) =
            locked {
                let was = connected
                connected = isSatisfied
                let stamp: Date? = isSatisfied || was == true ? time : nil
                if let stamp { lastConnected = stamp }
                defer { waiters = [] }
                return (waiters, was != nil && was != isSatisfied ? observers : [], stamp)
            }
        if let stamp { storage.save(stamp) }
        for waiter in waiting { waiter.resume(returning: isSatisfied) }
        for observer in observing { observer.networkDidChange(isConnected: isSatisfied) }
    }

    /// A request to Square just succeeded: the device was online now.
    package func noteSquareReached() {
        let time = now()
        locked { lastConnected = max(lastConnected ?? time, time) }
        storage.save(time)
    }
}
#endif
