import Foundation
import Tender
package import TenderSquare

extension SquareSimulator {
    /// Square's `PaymentHandle` for a simulated payment. A handle from before a ``relaunch()`` is dead: it reports
    /// nothing cancelable and cancels nothing.
    package struct Handle: Square.PaymentHandle {
        let simulator: SquareSimulator
        let generation: Int
        /// The parameters the payment started with.
        package let paymentParameters: Square.PaymentParameters
        /// The payment as it stands (initialized until it finishes).
        package var payment: any Square.Payment {
            get async { await simulator.payment(of: paymentParameters, generation: generation) }
        }
        /// Whether the payment can still be canceled (it is waiting for a card).
        package var isPaymentCancelable: Bool {
            get async { await simulator.isCancelable(paymentParameters.paymentAttemptID, generation: generation) }
        }
        /// The total with the surcharge the seller would add, if the payment allows one.
        package var totalMoneyWithProposedCardSurcharge: Square.Money? {
            get async { await simulator.proposedSurchargeTotal(paymentParameters) }
        }
        /// Cancels the payment if it is still waiting for a card; the delegate then gets `didCancel`.
        package func cancelPayment() async -> Bool {
            await simulator.cancel(paymentParameters.paymentAttemptID, generation: generation)
        }
    }

    // MARK: PaymentManager

    /// The handle of the payment in progress (an authorization held at Square counts: the SDK's UI still waits).
    package var currentPaymentHandle: (any Square.PaymentHandle)? {
        guard let flight = current ?? heldAuthorization?.flight else { return nil }
        return Handle(simulator: self, generation: generation, paymentParameters: flight.parameters)
    }

    /// The idempotency key stored for an attempt id, or `nil`.
    package func getIdempotencyKey(withPaymentAttemptId paymentAttemptId: String) async -> String? {
        store.attempts[paymentAttemptId]?.idempotencyKey
    }

    /// The ready readers' input methods; swipe is not available offline.
    package var availableCardInputMethods: Square.CardInputMethods {
        enforceOfflineLimits()
        return inputMethodsNow
    }

    /// The ready readers' input methods now, without applying the offline rules first.
    var inputMethodsNow: Square.CardInputMethods {
        var methods = store.readers.filter { $0.info.statusInfo.status == .ready }
            .reduce(into: Square.CardInputMethods()) { $0.formUnion($1.info.supportedInputMethods) }
        if network != .online { methods.remove(.swipe) }
        return methods
    }

    /// Tells the `AvailableCardInputMethodsObserver`s when the available methods changed (a reader got ready or
    /// stopped, was paired or forgotten, the network went on or off).
    func announceInputMethods() {
        let methods = inputMethodsNow
        guard methods != announcedInputMethods else { return }
        announcedInputMethods = methods
        for observer in inputMethodObservers { observer.availableCardInputMethodsDidChange(methods) }
    }

    /// Adds an observer of the available card input methods.
    package func add(_ observer: any Square.AvailableCardInputMethodsObserver) { inputMethodObservers.append(observer) }

    /// Removes an observer of the available card input methods.
    package func remove(_ observer: any Square.AvailableCardInputMethodsObserver) {
        inputMethodObservers.removeAll { $0 === observer }
    }

    /// Starts a payment: Square's checks, in order, then the card (at once, when presented, or when a held card is
    /// released). A payment that does not start gets `didFail` before `nil` is returned.
    package func startPayment(_ paymentParameters: Square.PaymentParameters, promptParameters: Square.PromptParameters,
                             from presentation: Square.PresentationContext,
                             delegate: any Square.PaymentManagerDelegate) async -> (any Square.PaymentHandle)? {
        applyTimedRules()
        lastPresentation = presentation.name
        let now = clock.now()
        func refuse(_ error: any Error) -> (any Square.PaymentHandle)? {
            delegate.paymentManager(self, didFail: initializedPayment(paymentParameters, at: now), withError: error)
            return nil
        }
        guard let (seller, location) = authorized.map({ ($0.seller, $0.location) }) else {
            return refuse(Square.PaymentError.notAuthorized)
        }
        if let first = pendingFaults.first {
            switch first {
            case .error(let error): pendingFaults.removeFirst(); return refuse(error)
            case .unrecognizedError(let name): pendingFaults.removeFirst(); return refuse(UnrecognizedSDKError(name: name))
            case .answerLostAfterCharge, .confirmNotReceived, .errorAfterCharge, .holdNextCard, .holdNextAuthorization,
                 .reader: break
            }
        }
        if current != nil || heldAuthorization != nil { return refuse(Square.PaymentError.paymentAlreadyInProgress) }
        guard parametersAreValid(paymentParameters, location: location) else {
            return refuse(Square.PaymentError.invalidPaymentParameters)
        }
        if attemptIsReused(paymentParameters.paymentAttemptID) {
            return refuse(Square.PaymentError.paymentAttemptIdReused)
        }
        let mode = paymentParameters.processingMode
        let eligible = offlineEligibility(paymentParameters, seller: seller, location: location)
        switch mode {
        case .onlineOnly: break
        case .offlineOnly:
            if let eligible { return refuse(eligible) }
        case .autoDetect:
            if seller.environment == .sandbox { return refuse(Square.PaymentError.sandboxUnsupportedForOfflineProcessing) }
            if let eligible, network == .offline, seller.paymentSettings.isOfflineProcessingAllowed {
                return refuse(eligible)
            }
        }
        let key = nextIdentifier(prefix: "idem-", length: 20)
        store.attempts[paymentParameters.paymentAttemptID] = AttemptRecord(idempotencyKey: key, outcome: .started)
        var flight = InFlight(parameters: paymentParameters, promptParameters: promptParameters, delegate: delegate,
                              idempotencyKey: key, merchantID: seller.merchantID, location: location,
                              surchargeBasisPoints: seller.cardSurchargeBasisPoints,
                              mayStoreOffline: mode != .onlineOnly && eligible == nil,
                              mustStoreOffline: mode == .offlineOnly, startedAt: now, generation: generation)
        if holdNextCard {
            holdNextCard = false
            flight.cardHeld = true
        }
        current = flight
        delegate.paymentManager(self, didStart: initializedPayment(flight))
        let handle = Handle(simulator: self, generation: generation, paymentParameters: paymentParameters)
        if store.configuration.cardPresentation == .immediate, !flight.cardHeld { processCurrent() }
        return handle
    }

    // MARK: The payment in progress

    func isCancelable(_ attemptID: String, generation: Int) -> Bool {
        generation == self.generation && current?.parameters.paymentAttemptID == attemptID
    }

    /// Cancels the payment with this attempt id if it has not read a card yet: `willCancel`, then `didCancel`.
    func cancel(_ attemptID: String, generation: Int) -> Bool {
        guard isCancelable(attemptID, generation: generation), let flight = current else { return false }
        current = nil
        store.attempts[attemptID]?.outcome = .ended
        var payment = initializedPayment(flight)
        flight.delegate.paymentManager(self, willCancel: payment)
        payment.status = .canceled
        flight.delegate.paymentManager(self, didCancel: payment)
        return true
    }

    func payment(of parameters: Square.PaymentParameters, generation: Int) -> any Square.Payment {
        let server = store.serverPayments.last { $0.paymentAttemptID == parameters.paymentAttemptID }
        if generation == self.generation, let server { return server.onlinePayment }
        return initializedPayment(parameters, at: current?.startedAt ?? clock.now())
    }

    func proposedSurchargeTotal(_ parameters: Square.PaymentParameters) -> Square.Money? {
        guard parameters.allowCardSurcharge, let seller = authorized?.seller, seller.cardSurchargeBasisPoints > 0 else {
            return nil
        }
        return Square.Money(totaling: parameters.totalMoney,
                            Self.surcharge(on: parameters.amountMoney, basisPoints: seller.cardSurchargeBasisPoints))
    }

    /// Reads the presented card and acts on it: offline refusals, storing, or the authorization request to Square.
    func processCurrent() {
        guard let flight = current, !flight.cardHeld else { return }
        let card = presentedCard
        enforceOfflineLimits()
        guard hasReadyReader else {
            // No reader can read the card: the SDK's payment timeout fires (2.2.3), nothing is charged.
            return failCurrent(.timedOut, outcome: .ended)
        }
        let chipReader = card.entryMethod == .emv ? store.readers.first { $0.info.statusInfo.status == .ready }?.info.id : nil
        if let chipReader { updateReader(chipReader, change: .cardInserted) { $0.cardInsertionStatus = .inserted } }
        defer {
            if let chipReader { updateReader(chipReader, change: .cardRemoved) { $0.cardInsertionStatus = .notInserted } }
        }
        // Keyed entry is a payment method of Square's UI, offered only when the prompt asks for it.
        if card.entryMethod == .keyed, !flight.promptParameters.additionalMethods.contains(.keyed) {
            return failCurrent(.invalidPaymentSource, outcome: .ended)
        }
        if flight.mustStoreOffline { return storeCurrentOffline(card) }
        var fault: Fault?
        if let first = pendingFaults.first {
            switch first {
            case .answerLostAfterCharge, .confirmNotReceived, .errorAfterCharge: fault = pendingFaults.removeFirst()
            default: break
            }
        }
        if case .timingOut = network { return failCurrent(.timedOut, outcome: .started) }
        guard fault != .confirmNotReceived else { return failCurrent(.timedOut, outcome: .started) }
        guard requestReachesSquare() else {
            if flight.mayStoreOffline { return storeCurrentOffline(card) }
            return failCurrent(.noNetwork, outcome: .ended)
        }
        current = nil
        if case .errorAfterCharge(let error) = fault { return authorize(flight, card: card, answerLost: true, lostWith: error) }
        let answerLost = fault == .answerLostAfterCharge
        if holdNextAuthorization {
            holdNextAuthorization = false
            heldAuthorization = HeldAuthorization(flight: flight, card: card, answerLost: answerLost)
            return
        }
        authorize(flight, card: card, answerLost: answerLost)
    }

    /// Square acts on an authorization request that reached it: the payment is created and settled on the server;
    /// the delegate hears of it unless the answer is lost (`didFail` with `lostWith`) or the app was relaunched since.
    func authorize(_ flight: InFlight, card: SimulatedCard, answerLost: Bool,
                   lostWith lostError: Square.PaymentError = .timedOut) {
        let now = clock.now()
        let parameters = flight.parameters
        let surcharge = parameters.allowCardSurcharge
            ? Self.surcharge(on: parameters.amountMoney, basisPoints: flight.surchargeBasisPoints) : nil
        var details = onlineCardDetails(card, status: .failed)
        if let surcharge { details.appliedCardSurchargeDetails = Square.CardSurchargeDetails(cardSurchargeMoney: surcharge) }
        var server = ServerPayment(
            id: nextIdentifier(prefix: "sqpay_"), merchantID: flight.merchantID, locationID: flight.location.id,
            paymentAttemptID: parameters.paymentAttemptID, idempotencyKey: flight.idempotencyKey,
            referenceID: parameters.referenceID, note: parameters.note,
            amountMoney: Square.Money(totaling: parameters.amountMoney, surcharge), tipMoney: parameters.tipMoney,
            status: .failed, cardDetails: details, createdAt: now, delayAction: parameters.delayAction)
        settle(&server, response: card.issuerResponse, expired: isExpired(card, at: now),
               autocomplete: parameters.autocomplete, delay: parameters.delayDuration, at: now)
        server.revisions = [server.revision(at: now)]
        store.serverPayments.append(server)
        guard flight.generation == generation else { return }  // relaunched: nobody to tell
        if answerLost {
            flight.delegate.paymentManager(self, didFail: initializedPayment(flight), withError: lostError)
            return
        }
        store.attempts[parameters.paymentAttemptID]?.outcome = server.isCharge ? .charged : .ended
        // An online decline: Square's docs give no PaymentError for it; the simulator finishes with a `failed`
        // payment whose card part failed (unverified how the real SDK reports it).
        flight.delegate.paymentManager(self, didFinish: server.onlinePayment)
    }

    func failCurrent(_ error: Square.PaymentError, outcome: AttemptRecord.Outcome) {
        guard let flight = current else { return }
        current = nil
        store.attempts[flight.parameters.paymentAttemptID]?.outcome = outcome
        flight.delegate.paymentManager(self, didFail: initializedPayment(flight), withError: error)
    }

    func initializedPayment(_ flight: InFlight) -> Square.OnlinePayment {
        var payment = initializedPayment(flight.parameters, at: flight.startedAt)
        payment.locationID = flight.location.id
        return payment
    }

    func initializedPayment(_ parameters: Square.PaymentParameters, at date: Date) -> Square.OnlinePayment {
        Square.OnlinePayment(id: nil, status: .initialized, amountMoney: parameters.amountMoney,
                             tipMoney: parameters.tipMoney, createdAt: date, updatedAt: date,
                             locationID: parameters.locationID, referenceID: parameters.referenceID,
                             cardDetails: nil, note: parameters.note)
    }

    // MARK: Rules

    /// Square's surcharge on `amount` (see ``Seller/cardSurchargeBasisPoints``), `nil` when none.
    static func surcharge(on amount: Square.Money, basisPoints: UInt) -> Square.Money? {
        guard basisPoints > 0 else { return nil }
        let (product, overflow) = amount.amount.multipliedReportingOverflow(by: basisPoints)
        guard !overflow else { return nil }
        return Square.Money(amount: (product + 5_000) / 10_000, currency: amount.currency)
    }

    private func offlineEligibility(_ parameters: Square.PaymentParameters, seller: Seller,
                                    location: Square.Location) -> Square.PaymentError? {
        let settings = seller.paymentSettings
        if seller.environment == .sandbox { return .sandboxUnsupportedForOfflineProcessing }
        if !settings.isOfflineProcessingAllowed { return .merchantNotOptedIntoOfflineProcessing }
        let total = parameters.totalMoney.amount
        if total > settings.offlineTransactionAmountLimit?.amount ?? 0 { return .offlineTransactionAmountExceeded }
        if storedTotal(merchantID: seller.merchantID, locationID: location.id) + total
            > settings.offlineTotalStoredAmountLimit?.amount ?? 0 { return .offlineStoredAmountExceeded }
        return nil
    }

    private func parametersAreValid(_ parameters: Square.PaymentParameters, location: Square.Location) -> Bool {
        let amount = parameters.amountMoney
        guard amount.amount > 0, amount.currency == location.currency, !parameters.paymentAttemptID.isEmpty else {
            return false
        }
        if let tip = parameters.tipMoney, tip.currency != amount.currency { return false }
        if let locationID = parameters.locationID, locationID != location.id { return false }
        if parameters.delayDuration != 0 && (parameters.delayDuration < 60 || parameters.autocomplete) { return false }
        if parameters.delayDuration > Self.cardPresentDelayMaximum { return false }
        if parameters.autocomplete && parameters.acceptPartialAuthorization { return false }
        if parameters.delayAction == .complete && parameters.orderID != nil { return false }
        if (parameters.referenceID?.count ?? 0) > 40 || (parameters.note?.count ?? 0) > 500 { return false }
        if let maximum = store.configuration.maximumPaymentAmount,
           amount.amount + (parameters.tipMoney?.amount ?? 0) > maximum { return false }
        return true
    }

    /// Square's default and largest delay for a card-present delayed-capture payment: 36 hours.
    static let cardPresentDelayMaximum: TimeInterval = 36 * 60 * 60

    /// An attempt id is refused when the device knows it charged or stored a payment, or when Square's servers
    /// hold a charge under its current key (the device did not learn the outcome). An attempt that ended without a
    /// charge may be used again: the SDK makes a new key ("repeated requests in the same attempt"). Which earlier
    /// outcomes Square refuses is unverified; this is the reading that never charges twice, and the rule Tender's
    /// adapter relies on when it continues an attempt.
    private func attemptIsReused(_ attemptID: String) -> Bool {
        guard let record = store.attempts[attemptID] else { return false }
        switch record.outcome {
        case .charged, .stored: return true
        case .ended: return false
        case .started:
            guard store.serverPayments.contains(where: { $0.idempotencyKey == record.idempotencyKey && $0.isCharge })
            else { return false }
            store.attempts[attemptID]?.outcome = .charged
            return true
        }
    }

    func settle(_ server: inout ServerPayment, response: SimulatedCard.IssuerResponse, expired: Bool,
                autocomplete: Bool, delay: TimeInterval, at now: Date) {
        if expired {
            server.declineReason = "EXPIRED_CARD"
            return
        }
        switch response {
        case .decline(let reason):
            server.declineReason = reason
        case .approve:
            server.status = autocomplete ? .completed : .approved
            server.cardDetails.status = autocomplete ? .captured : .authorized
            server.cardDetails.authResultCode = String(nextIdentifier(prefix: "", length: 6).uppercased())
            if !autocomplete { server.delayedUntil = now.addingTimeInterval(delay == 0 ? Self.cardPresentDelayMaximum : delay) }
        }
    }

    func onlineCardDetails(_ card: SimulatedCard, status: Square.CardPaymentStatus) -> Square.CardPaymentDetails {
        Square.CardPaymentDetails(
            status: status, entryMethod: card.entryMethod,
            card: Square.Card(cardBrand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear),
            applicationIdentifier: card.entryMethod == .emv || card.entryMethod == .contactless ? "A000000003101001" : nil,
            applicationName: card.applicationName)
    }

    func isExpired(_ card: SimulatedCard, at now: Date) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month], from: now)
        let (year, month) = (UInt(parts.year ?? 0), UInt(parts.month ?? 0))
        return card.expYear < year || (card.expYear == year && card.expMonth < month)
    }
}
