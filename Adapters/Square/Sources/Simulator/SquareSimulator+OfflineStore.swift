package import Foundation
import Tender
package import TenderSquare

extension SquareSimulator {
    /// One offline payment on the device, with what the simulator needs to process it later.
    package struct DevicePayment: Hashable, Sendable, Codable {
        /// The seller it belongs to.
        package var merchantID: String
        /// The location it belongs to.
        package var locationID: String
        /// The app's payment attempt id.
        package var paymentAttemptID: String
        /// The idempotency key.
        package var idempotencyKey: String
        /// Whether it completes at processing.
        package var autocomplete: Bool
        /// The delay action for delayed capture.
        package var delayAction: Square.DelayAction
        /// The delay, in seconds (0 = Square's 36-hour default).
        package var delayDuration: TimeInterval
        /// The payment as the SDK shows it.
        package var payment: Square.OfflinePayment
        /// How the issuer will answer at processing.
        package var issuerResponse: SimulatedCard.IssuerResponse
        /// Whether the card expired before it was taken.
        package var cardExpired: Bool
        /// When Square processed it (the SDK deletes it ``Configuration/processedRetention`` later).
        package var processedAt: Date?
    }

    // MARK: OfflinePaymentQueue

    /// The offline payments of the authorized account and location.
    package func getPayments() async throws(Square.OfflinePaymentQueueError) -> [Square.OfflinePayment] {
        applyTimedRules()
        let (seller, location) = try queueScope()
        return store.devicePayments.filter { $0.merchantID == seller.merchantID && $0.locationID == location.id }
            .map(\.payment)
    }

    /// The total of queued payments of the authorized account and location.
    package func getTotalStoredPaymentsAmount() async throws(Square.OfflinePaymentQueueError) -> any Square.MoneyAmount {
        applyTimedRules()
        let (seller, location) = try queueScope()
        return Square.Money(amount: storedTotal(merchantID: seller.merchantID, locationID: location.id),
                            currency: location.currency)
    }

    // MARK: Storing

    /// Stores the payment in progress offline, or refuses the card: the reader takes only chip and contactless
    /// offline, never Interac (unless configured to store it), so such a card ends the payment with `didCancel`,
    /// whose payment carries the refused card and no status the queue knows (how the SDK reports the refusal is
    /// Unverified).
    func storeCurrentOffline(_ card: SimulatedCard) {
        guard let flight = current else { return }
        let now = clock.now()
        let parameters = flight.parameters
        let details = Square.OfflineCardPaymentDetails(
            entryMethod: card.entryMethod, card: Square.OfflineCard(cardBrand: card.brand, last4: card.last4),
            applicationIdentifier: card.entryMethod == .emv || card.entryMethod == .contactless ? "A000000003101001" : nil,
            applicationName: card.applicationName)
        var payment = Square.OfflinePayment(
            localID: uuid(), status: .queued, amountMoney: parameters.amountMoney, tipMoney: parameters.tipMoney,
            createdAt: now, updatedAt: now, locationID: flight.location.id, referenceID: parameters.referenceID,
            cardDetails: details)
        let storesInterac = card.brand == .interac && store.configuration.interacOffline == .failsToProcess
        if !card.isReadableOffline && !storesInterac {
            current = nil
            store.attempts[parameters.paymentAttemptID]?.outcome = .ended
            payment.status = .unknown
            flight.delegate.paymentManager(self, didCancel: payment)
            return
        }
        store.devicePayments.append(DevicePayment(
            merchantID: flight.merchantID, locationID: flight.location.id,
            paymentAttemptID: parameters.paymentAttemptID, idempotencyKey: flight.idempotencyKey,
            autocomplete: parameters.autocomplete, delayAction: parameters.delayAction,
            delayDuration: parameters.delayDuration, payment: payment,
            issuerResponse: storesInterac ? .decline(reason: "INTERAC_OFFLINE") : card.issuerResponse,
            cardExpired: isExpired(card, at: now)))
        store.attempts[parameters.paymentAttemptID]?.outcome = .stored
        current = nil
        flight.delegate.paymentManager(self, didFinish: payment)
        enforceOfflineLimits()
    }

    // MARK: Sync (driven, never timed)

    /// One step of the SDK's background sync, only while the network is on: the SDK checks that it reaches Square,
    /// then up to `maxCount` payments each move one step: queued → uploaded (or failedToUpload once older than the
    /// offline window, or with an injected ``UploadFault``), unknown → uploaded, uploaded → processed or
    /// failedToProcess. On a flaky network each payment's request may fail and wait for the next step. Processed
    /// payments are deleted on the SDK's schedule (``Configuration/processedRetention``), whether or not anyone
    /// read them. How long Square waits before expiring a payment, and that expiry shows as `failedToUpload`, are
    /// Unverified (help 8106 says unuploaded payments "expire" after 24 hours).
    /// - Returns: how many payments changed status.
    @discardableResult
    package func syncOfflinePayments(maxCount: Int = .max) -> Int {
        applyTimedRules()
        guard network.reportedStatus == .online, requestReachesSquare() else { return 0 }
        let now = clock.now()
        var changed = 0
        for index in store.devicePayments.indices where changed < maxCount {
            let entry = store.devicePayments[index]
            guard isInSyncScope(entry), Self.syncing.contains(entry.payment.status) else { continue }
            guard requestReachesSquare() else { continue }
            var payment = entry.payment
            if payment.status == .queued || payment.status == .unknown {
                let expired = now.timeIntervalSince(payment.createdAt) > store.configuration.offlineWindow
                let fault = payment.status == .queued && !uploadFaults.isEmpty ? uploadFaults.removeFirst() : nil
                switch (expired, fault) {
                case (true, _), (false, .rejected?): payment.status = .failedToUpload
                case (false, .unverifiable?): payment.status = .unknown
                case (false, nil):
                    payment.status = .uploaded
                    payment.uploadedAt = now
                }
            } else {
                let server = charge(entry, at: now)
                payment.status = server.isCharge ? .processed : .failedToProcess
                payment.id = server.isCharge ? server.id : nil
                if server.isCharge { store.devicePayments[index].processedAt = now }
            }
            payment.updatedAt = now
            store.devicePayments[index].payment = payment
            changed += 1
        }
        deleteProcessedPayments()
        return changed
    }

    /// Runs ``syncOfflinePayments(maxCount:)`` while payments in scope are queued or uploaded (at most `limit`
    /// steps). Processed payments stay on the device only until the SDK deletes them.
    @discardableResult
    package func syncUntilIdle(limit: Int = 10) -> Int {
        var total = 0
        for _ in 0..<limit {
            let pending = store.devicePayments.contains { Self.syncing.contains($0.payment.status) && isInSyncScope($0) }
            guard pending else { break }
            let changed = syncOfflinePayments()
            total += changed
            if changed == 0 { break }
        }
        return total
    }

    /// The SDK deletes processed payments from the device once ``Configuration/processedRetention`` has passed.
    func deleteProcessedPayments() {
        let now = clock.now()
        let retention = store.configuration.processedRetention
        store.devicePayments.removeAll { entry in
            guard entry.payment.status == .processed, let at = entry.processedAt else { return false }
            return now.timeIntervalSince(at) >= retention
        }
    }

    /// The statuses a sync step moves on.
    private static let syncing: Set<Square.OfflineStatus> = [.queued, .unknown, .uploaded]

    private func isInSyncScope(_ entry: DevicePayment) -> Bool {
        store.configuration.uploadsOtherAccounts
            || (entry.merchantID == store.authorizedMerchantID && entry.locationID == store.authorizedLocationID)
    }

    /// Processes an uploaded offline payment on Square's servers.
    private func charge(_ entry: DevicePayment, at now: Date) -> ServerPayment {
        let payment = entry.payment
        let card = payment.cardDetails
        let details = Square.CardPaymentDetails(
            status: .failed, entryMethod: card?.entryMethod ?? .unknown,
            card: card?.card.map { Square.Card(cardBrand: $0.cardBrand, last4: $0.last4, expMonth: 0, expYear: 0) },
            applicationIdentifier: card?.applicationIdentifier, applicationName: card?.applicationName)
        var server = ServerPayment(
            id: nextIdentifier(prefix: "sqpay_"), merchantID: entry.merchantID, locationID: entry.locationID,
            paymentAttemptID: entry.paymentAttemptID, idempotencyKey: entry.idempotencyKey,
            referenceID: payment.referenceID, amountMoney: payment.amountMoney, tipMoney: payment.tipMoney,
            status: .failed, cardDetails: details, createdAt: now, delayAction: entry.delayAction,
            localID: payment.localID, clientCreatedAt: payment.createdAt)
        settle(&server, response: entry.issuerResponse, expired: entry.cardExpired, autocomplete: entry.autocomplete,
               delay: entry.delayDuration, at: now)
        server.revisions = [server.revision(at: now)]
        store.serverPayments.append(server)
        return server
    }

    // MARK: Scope

    func queueScope() throws(Square.OfflinePaymentQueueError) -> (Seller, Square.Location) {
        if queueReadFailures > 0 {
            queueReadFailures -= 1
            throw .unexpected
        }
        guard let scope = authorized else { throw .notAuthorized }
        if scope.seller.environment == .sandbox { throw .unsupportedSandboxEnvironment }
        return (scope.seller, scope.location)
    }

    func storedTotal(merchantID: String, locationID: String) -> UInt {
        store.devicePayments
            .filter { $0.merchantID == merchantID && $0.locationID == locationID && $0.payment.status == .queued }
            .reduce(0) { $0 + $1.payment.totalMoney.amount }
    }
}
