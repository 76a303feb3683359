import Foundation
import TenderWire

/// What the vendor last said of a payment (its webhooks), as the fleet view reconciles devices' reports with it.
public struct VendorPaymentSummary: Sendable, Equatable {
    /// `stripe` or `square`.
    public var vendor: String
    public var paymentID: String
    /// Tender's reference (Stripe metadata `tender_reference`, Square `reference_id`), when the payment carries it.
    public var reference: String?
    /// Settled: the vendor has the money (Stripe `succeeded`/`requires_capture`; Square `COMPLETED`/`APPROVED`).
    public var settled: Bool
    /// Refused after the fact (Stripe `payment_failed`/`canceled`; Square `FAILED`/`CANCELED`).
    public var failed: Bool

    public init(vendor: String, paymentID: String, reference: String?, settled: Bool, failed: Bool) {
        self.vendor = vendor
        self.paymentID = paymentID
        self.reference = reference
        self.settled = settled
        self.failed = failed
    }
}

/// The fleet: each location's devices and the money not yet safe on them, what is at risk and why, and the payments
/// to follow up. Built from the devices' latest reports, the registry and the vendors' word (``build(…)``); the page
/// `GET /fleet` and its JSON twin `GET /v1/fleet` show it.
public struct FleetView: Codable, Sendable, Equatable {
    public var generatedAt: Date
    /// A device whose last report is older than this many seconds is silent (its payments count as at risk).
    public var silentAfter: TimeInterval
    public var locations: [Location]
    /// Payments at risk, oldest first, with why.
    public var atRisk: [Row]
    /// Payments the merchant must follow up (declined after forwarding, or refused by the vendor afterwards).
    public var followUp: [Row]
    /// Reported payments the vendor has confirmed since (no longer at risk).
    public var settled: Int
    /// The last webhook event received, per vendor.
    public var lastVendorEvent: [String: Date]

    public struct Location: Codable, Sendable, Equatable {
        public var locationID: String
        public var devices: [Device]
        /// Money not yet safe per currency (minor units), over its devices.
        public var notYetSafe: [String: Int64]
    }

    public struct Device: Codable, Sendable, Equatable {
        public var deviceID: String
        public var name: String
        public var role: String
        public var revoked: Bool
        /// When its last report arrived (`nil`: it never reported).
        public var lastReportAt: Date?
        public var silent: Bool
        public var appVersion: String?
        public var tenderVersion: String?
        public var totals: [FleetReport.Totals]
        /// The oldest payment not yet safe: its reference, when it was taken, its deadline.
        public var oldest: FleetReport.Payment?
        public var ledgerProblem: String?
        public var lastForwardingError: String?
    }

    /// One payment on a device, and why it is listed.
    public struct Row: Codable, Sendable, Equatable {
        public var locationID: String
        public var deviceID: String
        public var deviceName: String
        public var reference: String
        public var processor: String
        public var processorPaymentID: String?
        public var amount: Money
        public var takenAt: Date
        public var deadline: Date?
        public var why: String
    }

    /// Within this many seconds of its deadline a stored payment is at risk.
    public static let nearDeadline: TimeInterval = 2 * 3600

    /// The view at `now`.
    public static func build(devices: [DeviceRecord], reports: [StoredFleetReport], vendor: [VendorPaymentSummary],
                             lastVendorEvent: [String: Date], now: Date, silentAfter: TimeInterval) -> FleetView {
        let decoder = MerchantJSON.decoder
        return build(devices: devices, reports: reports.compactMap { stored in
            (try? decoder.decode(FleetReport.self, from: Data(stored.json.utf8))).map { (stored, $0) }
        }, vendor: vendor, lastVendorEvent: lastVendorEvent, now: now, silentAfter: silentAfter)
    }

    /// The view from reports already decoded (``FleetReportCache``).
    static func build(devices: [DeviceRecord], reports: [(StoredFleetReport, FleetReport)],
                      vendor: [VendorPaymentSummary], lastVendorEvent: [String: Date], now: Date,
                      silentAfter: TimeInterval) -> FleetView {
        var latest: [String: (StoredFleetReport, FleetReport)] = [:]
        for pair in reports { latest[pair.0.deviceID] = pair }
        var byID: [String: VendorPaymentSummary] = [:], byReference: [String: VendorPaymentSummary] = [:]
        for summary in vendor {
            byID["\(summary.vendor)/\(summary.paymentID)"] = summary
            if let reference = summary.reference { byReference["\(summary.vendor)/\(reference)"] = summary }
        }
        var view = FleetView(generatedAt: now, silentAfter: silentAfter, locations: [], atRisk: [], followUp: [],
                             settled: 0, lastVendorEvent: lastVendorEvent)
        var locations: [String: Location] = [:]
        for record in devices.sorted(by: { ($0.locationID, $0.name, $0.id) < ($1.locationID, $1.name, $1.id) }) {
            let entry = latest[record.id]
            let report = entry?.1
            let silent = record.revokedAt == nil
                && (entry.map { now.timeIntervalSince($0.0.receivedAt) > silentAfter } ?? false)
            var device = Device(deviceID: record.id, name: record.name, role: record.role,
                                revoked: record.revokedAt != nil, lastReportAt: entry?.0.receivedAt, silent: silent,
                                appVersion: report?.appVersion, tenderVersion: report?.tenderVersion,
                                totals: report?.totals ?? [], oldest: nil, ledgerProblem: report?.ledgerProblem,
                                lastForwardingError: report?.lastForwardingError?.message)
            var location = locations[record.locationID]
                ?? Location(locationID: record.locationID, devices: [], notYetSafe: [:])
            for payment in report?.payments ?? [] {
                let word = byID["\(payment.processor)/\(payment.processorPaymentID ?? "")"]
                    ?? byReference["\(payment.processor)/\(payment.reference)"]
                func row(_ why: String) -> Row {
                    Row(locationID: record.locationID, deviceID: record.id, deviceName: record.name,
                        reference: payment.reference, processor: payment.processor,
                        processorPaymentID: payment.processorPaymentID ?? word?.paymentID, amount: payment.amount,
                        takenAt: payment.takenAt, deadline: payment.deadline, why: why)
                }
                if payment.standing == .declinedAfterForwarding {
                    view.followUp.append(row("money lost — follow up: declined by the issuer after forwarding"))
                    continue
                }
                if word?.failed == true {
                    view.followUp.append(row("money lost — follow up: the processor refused it after forwarding"))
                    continue
                }
                if word?.settled == true {
                    view.settled += 1
                    continue
                }
                location.notYetSafe[payment.amount.currency.code, default: 0] += payment.amount.minorUnits
                if device.oldest == nil { device.oldest = payment }
                if let deadline = payment.deadline, deadline <= now {
                    view.atRisk.append(row("past the processor's deadline"))
                } else if let deadline = payment.deadline, deadline.timeIntervalSince(now) <= nearDeadline {
                    view.atRisk.append(row("near the processor's deadline"))
                } else if silent {
                    view.atRisk.append(row("on a silent device"))
                } else if payment.standing == .outcomeUnknown {
                    view.atRisk.append(row("outcome unknown"))
                }
            }
            location.devices.append(device)
            locations[record.locationID] = location
        }
        view.locations = locations.values.sorted { $0.locationID < $1.locationID }
        view.atRisk.sort { ($0.takenAt, $0.reference) < ($1.takenAt, $1.reference) }
        view.followUp.sort { ($0.takenAt, $0.reference) < ($1.takenAt, $1.reference) }
        return view
    }
}

/// The devices' latest reports, decoded once per report rather than once per page: a report is decoded again only
/// when the device's stored JSON changed.
actor FleetReportCache {
    private var decoded: [String: (json: String, report: FleetReport)] = [:]
    private let decoder = MerchantJSON.decoder

    func reports(_ stored: [StoredFleetReport]) -> [(StoredFleetReport, FleetReport)] {
        stored.compactMap { report in
            if let cached = decoded[report.deviceID], cached.json == report.json { return (report, cached.report) }
            guard let value = try? decoder.decode(FleetReport.self, from: Data(report.json.utf8)) else { return nil }
            decoded[report.deviceID] = (report.json, value)
            return (report, value)
        }
    }
}
