import Foundation
import TenderServer
import TenderWire

/// The shipped refund policy: a largest single refund per role and currency, a largest total per device, currency
/// and (UTC) day, and a manager's device for anything above them. Amounts in minor units.
public struct RefundPolicy: Sendable, Equatable, Codable {
    /// Per role, per currency code: the largest single refund. A role (other than the manager's) with no entry for
    /// the currency may not refund in it.
    public var roleRefundMaximum: [String: [String: Int64]]
    /// Per currency code: the largest total a device (other than a manager's) refunds in one UTC day.
    public var deviceDailyRefundTotal: [String: Int64]
    /// The role above both limits.
    public var managerRole: String

    public init(roleRefundMaximum: [String: [String: Int64]], deviceDailyRefundTotal: [String: Int64],
                managerRole: String = "manager") {
        self.roleRefundMaximum = roleRefundMaximum
        self.deviceDailyRefundTotal = deviceDailyRefundTotal
        self.managerRole = managerRole
    }

    /// Cashiers refund at most 50.00 (5,000 in JPY) at a time and a device 500.00 (50,000 JPY) a day.
    public static let standard: RefundPolicy = {
        let twoDecimals = ["USD", "EUR", "GBP", "CAD", "AUD"]
        var single = Dictionary(uniqueKeysWithValues: twoDecimals.map { ($0, Int64(5_000)) })
        var daily = Dictionary(uniqueKeysWithValues: twoDecimals.map { ($0, Int64(50_000)) })
        single["JPY"] = 5_000
        daily["JPY"] = 50_000
        return RefundPolicy(roleRefundMaximum: ["cashier": single], deviceDailyRefundTotal: daily)
    }()
}

/// The merchant server's ``TenderServer/TenderRouteAuthorizer``: a device acts for its own merchant and location
/// only, and its refunds follow the ``RefundPolicy``. Each refusal is a `not_authorized` `PaymentError` whose message
/// names the rule.
public struct MerchantAuthorizer: TenderRouteAuthorizer {
    let policy: RefundPolicy
    let store: any MerchantStore
    let now: @Sendable () -> Date

    public init(policy: RefundPolicy, store: any MerchantStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.policy = policy
        self.store = store
        self.now = now
    }

    public func allows(_ caller: LedgerScope, toActFor owner: LedgerScope, processor: String) async -> Bool {
        caller == owner
    }

    public func authorize(_ operation: TenderRouteOperation, amount: Money?, caller: LedgerScope, device: String?,
                          role: String?, owner: LedgerScope, processor: String) async -> PaymentError? {
        guard caller == owner else {
            return Self.refusal("Rule \"own location\": this device is enrolled at location \(caller.locationID) "
                + "and may not act for location \(owner.locationID).")
        }
        guard operation == .refund, let amount, role != policy.managerRole else { return nil }
        let currency = amount.currency.code
        let roleName = role ?? "unknown"
        guard let maximum = policy.roleRefundMaximum[roleName]?[currency] else {
            return Self.refusal("Rule \"role refund maximum\": the \(roleName) role may not refund in \(currency); "
                + "a manager's device can.")
        }
        if amount.minorUnits > maximum {
            return Self.refusal("Rule \"role refund maximum\": a refund of \(amount) is more than the \(roleName) "
                + "role's maximum of \(Money(minorUnits: maximum, currency: amount.currency)); a manager's device "
                + "can refund it.")
        }
        guard let device else {
            return Self.refusal("Rule \"device daily refund total\": the request names no device.")
        }
        guard let daily = policy.deviceDailyRefundTotal[currency] else {
            return Self.refusal("Rule \"device daily refund total\": no daily total is set for \(currency); a "
                + "manager's device can refund it.")
        }
        let (start, end) = Self.utcDay(containing: now())
        let refunded: Int64
        do {
            refunded = try await store.refundedTotal(deviceID: device, currency: currency, from: start, to: end,
                                                     excluding: Self.idempotencyKey)
        } catch {
            return Self.refusal("Rule \"device daily refund total\": the day's refunds could not be read; try again.")
        }
        if refunded + amount.minorUnits > daily {
            return Self.refusal("Rule \"device daily refund total\": this device has refunded "
                + "\(Money(minorUnits: refunded, currency: amount.currency)) today; \(amount) more is above its daily "
                + "total of \(Money(minorUnits: daily, currency: amount.currency)); a manager's device can refund it.")
        }
        return nil
    }

    /// The idempotency key of the refund being decided (set by the server around the routes): a retry of a refund
    /// already recorded is not counted against itself.
    @TaskLocal static var idempotencyKey: String?

    static func refusal(_ message: String) -> PaymentError {
        PaymentError(.notAuthorized, recovery: .fixRequest, phase: .authorization, message: message)
    }

    /// The UTC day `[start, end)` holding `time`.
    static func utcDay(containing time: Date) -> (Date, Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let start = calendar.startOfDay(for: time)
        return (start, start.addingTimeInterval(86_400))
    }
}
