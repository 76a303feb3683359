import Foundation
public import Tender

// MARK: - 3. The simulator: the vendor's behaviour, unhappy paths included

/// A house-account system in memory: accounts with credit lines, a server that can be unreachable, and charges
/// held on the device while it is, judged when they are sent.
///
/// Its unkind parts, for the conformance kit's faults: a charge request can time out before the server receives it
/// or after the server charged (the answer is lost); the server's search by order number lags behind its writes;
/// the next card or the next charge request can be held until released.
public actor HouseAccountSimulator: HouseAccountClient {
    /// A fault injected into the next charge request.
    public enum Fault: Hashable, Sendable {
        /// The request times out before the server receives it: nothing is charged.
        case confirmNotReceived
        /// The server charges, then the answer is lost.
        case answerLostAfterCharge
    }

    private var creditLines: [String: Int64]
    private var balances: [String: Int64] = [:]
    private var server: [String: HouseCharge] = [:]   // by server id
    private var changedAt: [String: Date] = [:]       // by order number: when the server last changed it
    private var held: [HouseCharge] = []                // on the device
    private var reachable = true
    private var nextID = 0
    private var faults: [Fault] = []
    private var searchLag: Double = 0
    private var holdNextCard = false
    private var holdNextCharge = false
    private var waiting: [CheckedContinuation<Bool, Never>] = []
    private let clock: any TenderClock

    /// Creates the system with accounts and their credit lines (minor units).
    public init(creditLines: [String: Int64], clock: any TenderClock = SystemClock()) {
        self.creditLines = creditLines
        self.clock = clock
    }

    /// Injects a fault into the next charge request.
    public func inject(_ fault: Fault) { faults.append(fault) }

    /// Makes the server's search by order number lag behind its writes by `seconds`.
    public func setSearchLag(seconds: Double) { searchLag = seconds }

    /// Holds the next card presentation until ``release()`` (or a cancellation).
    public func holdCard() { holdNextCard = true }

    /// Holds the next charge request until ``release()``; a cancellation cannot stop it.
    public func holdCharge() { holdNextCharge = true }

    /// Lets whatever is held proceed.
    public func release() { resumeWaiting(true) }

    /// Whether something is held now.
    public func isHolding() -> Bool { !waiting.isEmpty }

    /// The cashier canceled on the device: a held card presentation ends canceled.
    public func cancelHeldCard() -> Bool {
        guard !waiting.isEmpty, !holdingCharge else { return false }
        resumeWaiting(false)
        return true
    }

    private var holdingCharge = false

    private func resumeWaiting(_ value: Bool) {
        let all = waiting
        waiting = []
        holdingCharge = false
        for continuation in all { continuation.resume(returning: value) }
    }

    private func wait() async -> Bool {
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Waits while the card is held; `false` if it was canceled meanwhile.
    public func presentCard() async -> Bool {
        guard holdNextCard else { return true }
        holdNextCard = false
        return await wait()
    }

    /// Makes the server reachable or not.
    public func setReachable(_ value: Bool) { reachable = value }

    /// Changes an account's credit line (for example to make a held charge be refused when sent).
    public func setCreditLine(_ account: String, _ limit: Int64) { creditLines[account] = limit }

    /// How many charges the server accepted for a sale's reference, over every order number (attempt, shop) that
    /// carried it (the processor-side truth).
    public func acceptedCharges(reference: String) -> Int {
        server.values.filter { $0.reference == reference && $0.status != .refused && $0.status != .released }.count
    }

    /// The total settled (captured) for an order number, in cents, read on the server without its search lag (a
    /// test's view of the vendor's books).
    public func settledAmount(orderNumber: String) -> Int64 {
        server.values.filter { $0.orderNumber == orderNumber && $0.status == .settled }.reduce(Int64(0)) { $0 + $1.amount }
    }

    /// What the server settled for a sale's reference, every order number (vendor payment attempt) of it together.
    public func settledAmount(reference: String) -> Int64 {
        server.values.filter { $0.reference == reference && $0.status == .settled }.reduce(Int64(0)) { $0 + $1.amount }
    }

    /// Whether the server is reachable.
    public func isReachable() -> Bool { reachable }

    /// Charges, or holds on the device as `hold` allows. A reused order number returns the existing charge (or
    /// refuses a different amount): the vendor's idempotency.
    public func charge(account: String, orderNumber: String, reference: String, amount: Int64, currency: String,
                       hold: HoldMode, settleImmediately: Bool) async throws(HouseAccountError) -> HouseCharge {
        if holdNextCharge, reachable, hold != .always {
            holdNextCharge = false
            holdingCharge = true
            _ = await wait()
        }
        let fault = reachable && hold != .always && !faults.isEmpty ? faults.removeFirst() : nil
        if fault == .confirmNotReceived { throw .timedOut }
        let charged = try chargeNow(account: account, orderNumber: orderNumber, reference: reference, amount: amount,
                                    currency: currency, hold: hold, settleImmediately: settleImmediately)
        if fault == .answerLostAfterCharge { throw .timedOut }
        return charged
    }

    /// The most the vendor takes in one charge, in cents: 50,000.00 (its documented limit; more is refused with
    /// ``HouseAccountError/amountTooLarge``, held or sent).
    public static let maximumCharge: Int64 = 5_000_000

    private func chargeNow(account: String, orderNumber: String, reference: String, amount: Int64, currency: String,
                           hold: HoldMode, settleImmediately: Bool) throws(HouseAccountError) -> HouseCharge {
        guard amount <= Self.maximumCharge else { throw .amountTooLarge }
        if let existing = (server.values.first { $0.orderNumber == orderNumber } ?? held.first { $0.orderNumber == orderNumber }) {
            guard existing.amount == amount else { throw .orderNumberReused }
            return existing
        }
        var charge = HouseCharge(serverID: nil, account: account, orderNumber: orderNumber, reference: reference,
                                 amount: amount, currency: currency, status: .heldOnDevice)
        if hold == .always || (!reachable && hold == .ifUnreachable) {
            charge.heldAt = clock.now()
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
            changedAt[charge.orderNumber] = clock.now()
            throw .overCreditLimit
        }
        balances[charge.account, default: 0] += charge.amount
        charge.status = settle ? .settled : .onHold
        server[charge.serverID!] = charge
        changedAt[charge.orderNumber] = clock.now()
    }

    /// Settles a charge on hold.
    public func settle(serverID: String) throws(HouseAccountError) -> HouseCharge {
        guard var charge = server[serverID], charge.status == .onHold else { throw .notOnHold }
        changedAt[charge.orderNumber] = clock.now()
        charge.status = .settled
        server[serverID] = charge
        return charge
    }

    /// Releases a charge on hold.
    public func release(serverID: String) throws(HouseAccountError) -> HouseCharge {
        guard var charge = server[serverID], charge.status == .onHold else { throw .notOnHold }
        changedAt[charge.orderNumber] = clock.now()
        charge.status = .released
        balances[charge.account, default: 0] -= charge.amount
        server[serverID] = charge
        return charge
    }

    /// Every charge for an order number, on the server or held on the device. The server's part comes from its
    /// search, which lags (``setSearchLag(seconds:)``): a charge changed within the lag is not visible yet.
    public func charges(orderNumber: String) -> [HouseCharge] {
        let now = clock.now()
        let visible = server.values.filter {
            $0.orderNumber == orderNumber && now.timeIntervalSince(changedAt[orderNumber] ?? .distantPast) >= searchLag
        }
        return visible + held.filter { $0.orderNumber == orderNumber }
    }

    /// Releases a charge that never settled, by order number (an abandoned attempt). Returns it, or `nil` when the
    /// server holds nothing live for the order number.
    public func releaseUnsettled(orderNumber: String) -> HouseCharge? {
        guard let charge = server.values.first(where: { $0.orderNumber == orderNumber && $0.status == .onHold }),
              let id = charge.serverID else { return nil }
        return try? release(serverID: id)
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
