import Foundation
import Testing
import Tender
import TenderSquare
@testable import TenderSquareMobilePaymentsOverSurface
import TenderTesting

/// Records connectivity changes.
final class NetworkProbe: Square.NetworkObserver {
    let changes = Locked<[Bool]>([])
    func networkDidChange(isConnected: Bool) { changes.withLock { $0.append(isConnected) } }
}

/// ``SquareNetworkMonitor`` fed by a scripted network path (on iOS `NWPathMonitor` feeds it; its own logic is this).
@Suite("SquareNetworkMonitor: what it reports")
struct NetworkMonitorTests {
    @Test("isConnected waits for the first path, then follows it; observers hear changes only")
    func followsThePath() async throws {
        let clock = ManualClock()
        let monitor = SquareNetworkMonitor(storage: .inMemory(), now: { clock.now() })
        let probe = NetworkProbe()
        await monitor.add(probe)
        await monitor.add(probe)
        let waiting = Task { await monitor.isConnected }
        try await Task.sleep(nanoseconds: 20_000_000)
        monitor.pathDidChange(isSatisfied: true)
        #expect(await waiting.value == true)
        monitor.pathDidChange(isSatisfied: true)
        monitor.pathDidChange(isSatisfied: false)
        #expect(await monitor.isConnected == false)
        monitor.pathDidChange(isSatisfied: true)
        #expect(probe.changes.current == [false, true], "no change for the first path or a repeated one; once per observer")
        await monitor.remove(probe)
        monitor.pathDidChange(isSatisfied: false)
        #expect(probe.changes.current == [false, true])
    }

    @Test("lastConnectedAt: now while connected, the moment the path was lost, a later answer from Square; kept across launches")
    func lastConnected() async {
        let clock = ManualClock()
        let storage = SquareNetworkMonitor.Storage.inMemory()
        let monitor = SquareNetworkMonitor(storage: storage, now: { clock.now() })
        #expect(await monitor.lastConnectedAt == nil, "never known")
        monitor.pathDidChange(isSatisfied: true)
        let online = clock.now()
        clock.advance(by: 60)
        #expect(await monitor.lastConnectedAt == online.addingTimeInterval(60), "now, while connected")
        monitor.pathDidChange(isSatisfied: false)
        let lost = clock.now()
        clock.advance(by: 3_600)
        #expect(await monitor.lastConnectedAt == lost)
        monitor.noteSquareReached()
        let reached = clock.now()
        clock.advance(by: 60)
        #expect(await monitor.lastConnectedAt == reached, "a request Square answered counts as online")

        let relaunched = SquareNetworkMonitor(storage: storage, now: { clock.now() })
        #expect(await relaunched.lastConnectedAt == reached, "kept across a relaunch")
        relaunched.pathDidChange(isSatisfied: false)
        #expect(await relaunched.lastConnectedAt == reached, "a first path that is not satisfied changes nothing")
    }

}
