import Foundation
public import TenderWire

extension TenderBackendClient {
    /// `POST /v1/fleet/reports`: the device's fleet report, for the merchant's fleet view (the server keeps the
    /// latest per device). ``FleetReporter`` sends it for you.
    public func send(_ report: FleetReport) async throws {
        _ = try await send("POST", ["v1", "fleet", "reports"], body: report, phase: .reconciliation)
    }
}

/// Sends a device's ``TenderWire/FleetReport`` to the merchant's server while it runs: when the report changes, at
/// least every `interval` while the server can be reached, and again at the next check after a send failed (so
/// within `checkEvery` of the network coming back). A report that could not be sent is not queued: the next one,
/// made from the ledger, supersedes it.
///
/// ```swift
/// let reporter = FleetReporter(source: terminal, client: myServer, deviceID: "till-3", appVersion: "2.3")
/// Task { await reporter.run() }
/// ```
public actor FleetReporter {
    let source: any FleetReportSource
    let client: TenderBackendClient
    let deviceID: String
    let appVersion: String?
    let interval: Duration
    let checkEvery: Duration
    private var lastSent: FleetReport?
    private var lastSentAt: ContinuousClock.Instant?
    private var failedLastTime = false

    /// `source` is the terminal (`PaymentTerminal`); `deviceID` the app's install id for this device.
    public init(source: any FleetReportSource, client: TenderBackendClient, deviceID: String,
                appVersion: String? = nil, interval: Duration = .seconds(300), checkEvery: Duration = .seconds(15)) {
        self.source = source
        self.client = client
        self.deviceID = deviceID
        self.appVersion = appVersion
        self.interval = interval
        self.checkEvery = checkEvery
    }

    /// Checks and sends until the task is cancelled.
    public func run() async {
        while !Task.isCancelled {
            await check()
            try? await Task.sleep(for: checkEvery)
        }
    }

    /// One check: sends the report when it changed, is due, or the last send failed.
    func check() async {
        let report = await source.fleetReport(deviceID: deviceID, appVersion: appVersion)
        let now = ContinuousClock.now
        let changed = lastSent.map { !report.sameContent(as: $0) } ?? true
        let due = lastSentAt.map { now - $0 >= interval } ?? true
        guard changed || due || failedLastTime else { return }
        do {
            try await client.send(report)
            lastSent = report
            lastSentAt = now
            failedLastTime = false
        } catch {
            failedLastTime = true
        }
    }
}
