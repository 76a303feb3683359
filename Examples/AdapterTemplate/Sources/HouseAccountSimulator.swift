import Foundation
import Tender

// MARK: - 3. The simulator: the vendor's behaviour, unhappy paths included

/// A house-account system in memory: accounts with credit lines, a server that can be unreachable, and charges
/// held on the device while it is, judged when they are sent.
public actor HouseAccountSimulator: HouseAccountClient {
    private var creditLines: [String: Int64]
    private var balances: [String: Int64] = [:]
    private var server: [String: HouseCharge] = [:]   // by server id
    private var held: [HouseCharge] = []                // on the device
    private var reachable = true
    private var nextID = 0

    /// Creates the system with accounts and their credit lines (minor units).
    public init(creditLines: [String: Int64]) { self.creditLines = creditLines }

    /// Makes the server reachable or not.
    public func setReachable(_ value: Bool) { reachable = value }

    /// Changes an account's credit line (for example to make a held charge be refused when sent).
    public func setCreditLine(_ account: String, _ limit: Int64) { creditLines[account] = limit }

    /// How many charges the server accepted for an order number (the processor-side truth).
    public func acceptedCharges(orderNumber: String) -> Int {
        server.values.filter { $0.orderNumber == orderNumber && $0.status != .refused && $0.status != .released }.count
    }

    /// Whether the server is reachable.
    public func isReachable() -> Bool { reachable }

    /// Charges, or holds on the device as `hold` allows. A reused order number returns the existing charge (or
    /// refuses a different amount): the vendor's idempotency.
    public func charge(account: String, orderNumber: String, amount: Int64, currency: String, hold: HoldMode,
                       settleImmediately: Bool) throws(HouseAccountError) -> HouseCharge {
        if let existing = (server.values.first { $0.orderNumber == orderNumber } ?? held.first { $0.orderNumber == orderNumber }) {
            guard existing.amount == amount else { throw .orderNumberReused }
            return existing
        }
        var charge = HouseCharge(serverID: nil, account: account, orderNumber: orderNumber, amount: amount,
                                 currency: currency, status: .heldOnDevice)
        if hold == .always || (!reachable && hold == .ifUnreachable) {
            held.append(charge)
            return charge
        }
        guard reachable else { throw .serverUnreachable }
        try judge(&charge, settle: settleImmediately)
        return charge
    }

    private func judge(_ charge: inout HouseCharge, settle: Bool) throws(HouseAccountError) {
        guard let limit = creditLines[charge.account] else { throw .unknownAccount }
        nextID += 1
        charge.serverID = "house_\(nextID)"
        if balances[charge.account, default: 0] + charge.amount > limit {
            charge.status = .refused
            server[charge.serverID!] = charge
            throw .overCreditLimit
        }
        balances[charge.account, default: 0] += charge.amount
        charge.status = settle ? .settled : .onHold
        server[charge.serverID!] = charge
    }

    /// Settles a charge on hold.
    public func settle(serverID: String) throws(HouseAccountError) -> HouseCharge {
        guard var charge = server[serverID], charge.status == .onHold else { throw .notOnHold }
        charge.status = .settled
        server[serverID] = charge
        return charge
    }

    /// Releases a charge on hold.
    public func release(serverID: String) throws(HouseAccountError) -> HouseCharge {
        guard var charge = server[serverID], charge.status == .onHold else { throw .notOnHold }
        charge.status = .released
        balances[charge.account, default: 0] -= charge.amount
        server[serverID] = charge
        return charge
    }

    /// Every charge for an order number, on the server or held on the device.
    public func charges(orderNumber: String) -> [HouseCharge] {
        server.values.filter { $0.orderNumber == orderNumber } + held.filter { $0.orderNumber == orderNumber }
    }

    /// The charges held on the device.
    public func heldCharges() -> [HouseCharge] { held }

    /// Sends the held charges if the server is reachable; each is judged like a live charge.
    public func sendHeldCharges() -> [HouseCharge] {
        guard reachable else { return [] }
        var results: [HouseCharge] = []
        for var charge in held {
            do { try judge(&charge, settle: true) } catch { /* refused: recorded by judge */ }
            results.append(charge)
        }
        held.removeAll()
        return results
    }
}
