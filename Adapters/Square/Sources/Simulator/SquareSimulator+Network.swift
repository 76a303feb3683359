package import Foundation
import Tender
package import TenderSquare
public import TenderTesting

extension SquareSimulator {
    // MARK: Test control

    /// Sets the network. Observers hear of a change in reachability. On reconnection the SDK checks "for network
    /// connectivity and a connection to Square servers": when that check reaches Square (or on any
    /// reconnection, per ``Configuration/offlineWindowRestart``) the device counts as online again, which restarts
    /// the offline window and lifts the reader stop.
    public func setNetwork(_ network: SimulatedNetwork) {
        let was = self.network.reportedStatus
        self.network = network
        let now = network.reportedStatus
        if now == .online {
            switch store.configuration.offlineWindowRestart {
            case .squareReached: _ = requestReachesSquare()
            case .networkReconnection: if was != .online { noteOnline() }
            }
        }
        announceInputMethods()
        guard was != now else { return }
        for observer in networkObservers { observer.networkDidChange(isConnected: now == .online) }
    }

    // MARK: NetworkMonitor

    /// Whether the device reaches Square (a flaky network counts as connected, as a path monitor would see it).
    package var isConnected: Bool { network.reportedStatus == .online }

    /// When the device was last online as the SDK counts it for its offline window: now while the network is
    /// plainly online, otherwise the last time a request reached Square (``Configuration/offlineWindowRestart``).
    package var lastConnectedAt: Date? {
        if network == .online { noteOnline() }
        return store.lastOnlineAt
    }

    /// Adds a network observer.
    package func add(_ observer: any Square.NetworkObserver) { networkObservers.append(observer) }

    /// Removes a network observer.
    package func remove(_ observer: any Square.NetworkObserver) { networkObservers.removeAll { $0 === observer } }

    // MARK: Requests

    /// One request from the SDK to Square: drawn from the seeded generator on a flaky network. A request that gets
    /// through counts as the device being online.
    func requestReachesSquare() -> Bool {
        var generator = nextGenerator()
        let reached = network.requestSucceeds(using: &generator)
        if reached { noteOnline() }
        return reached
    }

    /// One request from the app's backend to Square (capture, lookups, refunds): it travels over the same simulated
    /// network, so an offline device cannot reach it, but it says nothing about the SDK's offline window.
    func serverRequestGetsThrough() -> Bool {
        var generator = nextGenerator()
        return network.requestSucceeds(using: &generator)
    }

    /// The device is online now: the offline window restarts and readers stopped by it come back.
    func noteOnline() {
        store.lastOnlineAt = clock.now()
        restoreReadersAfterOutage()
    }

    // MARK: Square's device rules

    /// Past the offline window (since the device was last online) or at the device-wide cap (queued payments of
    /// every account and location), while not plainly online: "the reader fails to connect" (seed). The reason
    /// reported, `notConnectedToInternet`, is the simulator's choice (unverified).
    func offlineLimitsReached() -> Bool {
        guard network != .online else { return false }
        if deviceQueuedCount >= store.configuration.deviceOfflinePaymentCap { return true }
        guard let last = store.lastOnlineAt else { return false }
        return clock.now().timeIntervalSince(last) >= store.configuration.offlineWindow
    }

    /// Payments queued on the device, every account and location together: what Square's cap counts.
    var deviceQueuedCount: Int { store.devicePayments.filter { $0.payment.status == .queued }.count }

    /// Stops every ready reader when the offline rules say so.
    func enforceOfflineLimits() {
        guard offlineLimitsReached() else { return }
        for reader in store.readers where reader.info.statusInfo.status == .ready {
            setReaderStatus(reader.info.id, .readerUnavailable, reason: .notConnectedToInternet)
        }
    }

    /// Readers stopped for want of the internet get ready again once the device is online.
    func restoreReadersAfterOutage() {
        for index in store.readers.indices {
            let reason = store.readers[index].info.statusInfo.unavailableReasonInfo?.reason
            guard reason == .notConnectedToInternet else { continue }
            store.readers[index].hasConnectedOnline = true
            setReaderStatus(store.readers[index].info.id, .ready)
        }
    }
}
