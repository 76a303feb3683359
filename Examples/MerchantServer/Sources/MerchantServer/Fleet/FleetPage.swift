import Foundation
import TenderWire

/// The fleet page: server-rendered HTML (no script needed; it reloads itself every 30 seconds), every value escaped.
enum FleetPage {
    static func render(_ view: FleetView, testMode: Bool) -> String {
        var html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="refresh" content="30">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Fleet — money at risk</title>
            <style>
            body{font:15px/1.4 system-ui,sans-serif;margin:1.5rem;color:#1d1d1f}
            h1{font-size:1.4rem;margin:0 0 .25rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
            table{border-collapse:collapse;margin:.25rem 0 1rem;min-width:40rem}
            th,td{border-bottom:1px solid #ddd;padding:.3rem .6rem;text-align:left;vertical-align:top}
            th{background:#f5f5f7}td.num{text-align:right;font-variant-numeric:tabular-nums}
            .banner{background:#fff4ce;border:1px solid #e0b400;padding:.4rem .7rem;margin-bottom:1rem;font-weight:600}
            .risk{color:#b00020;font-weight:600}.ok{color:#1b7f37}.muted{color:#6e6e73}
            </style></head><body>

            """
        if testMode { html += "<div class=\"banner\">TEST MODE — no real money moves</div>\n" }
        html += "<h1>Money at risk</h1>\n<p class=\"muted\">As of \(e(time(view.generatedAt))) UTC; a device is "
            + "silent after \(Int(view.silentAfter / 60)) minutes without a report. \(view.settled) reported "
            + "payment(s) since confirmed by the processor.</p>\n"
        html += section("At risk", rows: view.atRisk, empty: "Nothing at risk.")
        html += section("Follow up", rows: view.followUp, empty: "Nothing to follow up.")
        let silent = view.locations.flatMap { location in location.devices.filter(\.silent).map { (location, $0) } }
        html += "<h2>Silent devices</h2>\n"
        if silent.isEmpty {
            html += "<p class=\"ok\">Every device has reported recently.</p>\n"
        } else {
            html += "<table><tr><th>Shop</th><th>Device</th><th>Last report</th><th>Not yet safe</th></tr>\n"
            for (location, device) in silent {
                html += "<tr class=\"risk\"><td>\(e(location.locationID))</td><td>\(e(device.name))</td>"
                    + "<td>\(e(device.lastReportAt.map(time) ?? "never"))</td><td>\(e(totals(device.totals)))</td></tr>\n"
            }
            html += "</table>\n"
        }
        html += "<h2>Shops</h2>\n"
        for location in view.locations {
            html += "<h3>\(e(location.locationID)) — not yet safe: \(e(amounts(location.notYetSafe)))</h3>\n"
            html += "<table><tr><th>Device</th><th>Role</th><th>Last report</th><th>Stored offline</th>"
                + "<th>Awaiting capture</th><th>Outcome unknown</th><th>Declined after forwarding</th>"
                + "<th>Refunds pending</th><th>Oldest (deadline)</th><th>Notes</th></tr>\n"
            for device in location.devices {
                let notes = [device.revoked ? "revoked" : nil, device.silent ? "silent" : nil,
                             device.ledgerProblem.map { "ledger: \($0)" },
                             device.lastForwardingError.map { "last forwarding error: \($0)" }]
                    .compactMap { $0 }.joined(separator: "; ")
                let oldest = device.oldest.map { payment in
                    "\(payment.reference), \(time(payment.takenAt))"
                        + (payment.deadline.map { " (deadline \(time($0)))" } ?? "")
                } ?? "—"
                html += "<tr\(device.silent ? " class=\"risk\"" : "")><td>\(e(device.name))</td>"
                    + "<td>\(e(device.role))</td><td>\(e(device.lastReportAt.map(time) ?? "never"))</td>"
                    + cell(device.totals, \.storedOffline) + cell(device.totals, \.forwardedUnconfirmed)
                    + cell(device.totals, \.outcomeUnknown) + cell(device.totals, \.declinedAfterForwarding)
                    + cell(device.totals, \.refundsPending)
                    + "<td>\(e(oldest))</td><td>\(e(notes))</td></tr>\n"
            }
            html += "</table>\n"
        }
        html += "<h2>Webhooks</h2>\n<table><tr><th>Processor</th><th>Last event</th></tr>\n"
        for vendor in ["stripe", "square"] {
            html += "<tr><td>\(vendor)</td><td>\(e(view.lastVendorEvent[vendor].map(time) ?? "none yet"))</td></tr>\n"
        }
        html += "</table>\n</body></html>\n"
        return html
    }

    static func section(_ title: String, rows: [FleetView.Row], empty: String) -> String {
        guard !rows.isEmpty else { return "<h2>\(title)</h2>\n<p class=\"ok\">\(empty)</p>\n" }
        var html = "<h2>\(title)</h2>\n<table><tr><th>Shop</th><th>Device</th><th>Reference</th><th>Amount</th>"
            + "<th>Taken</th><th>Deadline</th><th>Why</th></tr>\n"
        for row in rows {
            html += "<tr class=\"risk\"><td>\(e(row.locationID))</td><td>\(e(row.deviceName))</td>"
                + "<td>\(e(row.reference))</td><td class=\"num\">\(e(row.amount.description))</td>"
                + "<td>\(e(time(row.takenAt)))</td><td>\(e(row.deadline.map(time) ?? "—"))</td>"
                + "<td>\(e(row.why))</td></tr>\n"
        }
        return html + "</table>\n"
    }

    static func cell(_ totals: [FleetReport.Totals], _ key: KeyPath<FleetReport.Totals, FleetReport.Amount>) -> String {
        let parts = totals.filter { $0[keyPath: key].count > 0 }.map { total in
            "\(total[keyPath: key].count) · \(money(total[keyPath: key].minorUnits, total.currency))"
        }
        return "<td class=\"num\">\(e(parts.isEmpty ? "—" : parts.joined(separator: ", ")))</td>"
    }

    static func totals(_ totals: [FleetReport.Totals]) -> String {
        var sums: [String: Int64] = [:]
        for total in totals {
            sums[total.currency, default: 0] += total.storedOffline.minorUnits + total.forwardedUnconfirmed.minorUnits
                + total.outcomeUnknown.minorUnits
        }
        return amounts(sums)
    }

    static func amounts(_ sums: [String: Int64]) -> String {
        let parts = sums.filter { $0.value != 0 }.sorted { $0.key < $1.key }.map { money($0.value, $0.key) }
        return parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
    }

    static func money(_ minor: Int64, _ code: String) -> String {
        guard let currency = try? Currency(code: code) else { return "\(minor) \(code)" }
        return Money(minorUnits: minor, currency: currency).description
    }

    /// `2026-12-02 13:59:23` (UTC).
    static func time(_ date: Date) -> String {
        date.formatted(Self.timeStyle)
    }

    static let timeStyle = Date.ISO8601FormatStyle(dateTimeSeparator: .space, timeZone: TimeZone(identifier: "UTC")!)

    /// HTML-escapes text for an element or a quoted attribute.
    static func e(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
