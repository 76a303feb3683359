import Foundation
import Tender

/// The adapter's delegates: turns the SDK's callbacks into ``ProcessorEvent``s and remembers what they said about
/// stored payments (the SDK lists nothing it stores: these callbacks, and the payments this launch stored, are all the
/// per-payment knowledge there is; after a relaunch it starts empty).
final class StripeEventBridge: Stripe.TerminalDelegate, Stripe.OfflineDelegate, Stripe.MobileReaderDelegate {
    let emitter: ProcessorEventEmitter
    private let clock: any TenderClock
    private let network = Locked<Stripe.NetworkStatus?>(nil)
    /// Per-payment queue entries, by reference and vendor payment (an earlier attempt's result never stands for a
    /// later attempt's payment).
    private let queue = Locked<[PaymentKey: QueuedPayment]>([:])
    /// The intent each forwarding callback reported, and what it meant, by reference and vendor payment.
    private let forwarded = Locked<[PaymentKey: (intent: Stripe.PaymentIntent, update: ProcessorPaymentUpdate)]>([:])
    /// Waiters for the end of a software update.
    private let updateWaiters = Locked<[CallbackResult<Stripe.ErrorCode?>]>([])
    /// Since when the SDK is known to have stored nothing (nil: it stores something, or it was not seen yet).
    private let emptySince = Locked<Date?>(nil)

    init(emitter: ProcessorEventEmitter, clock: any TenderClock) {
        self.emitter = emitter
        self.clock = clock
    }

    // MARK: What the callbacks said

    /// A payment's key: the reference and the vendor payment its intent's metadata names.
    struct PaymentKey: Hashable {
        var reference: String
        var paymentAttempt: Int
    }

    /// The queue entries known to this launch, oldest first.
    var queuedPayments: [QueuedPayment] {
        queue.current.values.sorted {
            ($0.storedAt, $0.reference, $0.paymentAttempt ?? 1) < ($1.storedAt, $1.reference, $1.paymentAttempt ?? 1)
        }
    }

    /// The entry of the latest vendor payment of a reference, if known.
    func queuedPayment(_ reference: String) -> QueuedPayment? {
        queue.current.filter { $0.key.reference == reference }.max { $0.key.paymentAttempt < $1.key.paymentAttempt }?.value
    }

    /// The intent a forwarding callback reported for this vendor payment, if any (this launch).
    func forwardedIntent(_ reference: String, paymentAttempt: Int) -> Stripe.PaymentIntent? {
        forwarded.current[PaymentKey(reference: reference, paymentAttempt: paymentAttempt)]?.intent
    }

    /// The intent a forwarding callback reported for the latest vendor payment of a reference, if any.
    func latestForwardedIntent(_ reference: String) -> Stripe.PaymentIntent? {
        forwarded.current.filter { $0.key.reference == reference }
            .max { $0.key.paymentAttempt < $1.key.paymentAttempt }?.value.intent
    }

    /// What the last forwarding callback for this vendor payment meant (forwarded, declined, failed to forward).
    func forwardingResult(_ reference: String, paymentAttempt: Int) -> ProcessorPaymentUpdate? {
        forwarded.current[PaymentKey(reference: reference, paymentAttempt: paymentAttempt)]?.update
    }

    /// Records a payment this launch stored, with the SDK's `storedAt`.
    func trackStored(reference: String, intent: Stripe.PaymentIntent) {
        guard let storedAt = intent.offlineDetails?.storedAt, let amount = Self.money(intent) else { return }
        let attempt = StripeMapping.paymentAttempt(intent)
        let key = PaymentKey(reference: reference, paymentAttempt: attempt)
        queue.withLock { queue in
            if queue[key]?.status.countsAsStored == false { return }
            queue[key] = QueuedPayment(reference: reference, processorPaymentID: intent.stripeId, amount: amount,
                                       storedAt: storedAt, status: .stored, paymentAttempt: attempt)
        }
    }

    /// An intent's total (``StripeMapping/total(_:)``: an on-reader tip included) as `Money`, or nil for a currency
    /// Tender does not know.
    static func money(_ intent: Stripe.PaymentIntent) -> Money? {
        StripeMapping.total(intent)
    }

    /// Records what the SDK said of its stored count (`paymentsCount`; nil is unknown, so not empty).
    func observeStoredCount(_ count: Int?) {
        let now = clock.now()
        emptySince.withLock { since in
            if count == 0 { since = since ?? now } else { since = nil }
        }
    }

    /// Since when the SDK has been seen storing nothing, continuously; nil when it stores something or this launch
    /// has not seen it yet. A payment forwarded before then has had that long to appear in Stripe's search.
    var storedNothingSince: Date? { emptySince.current }

    /// A waiter for the next `didFinishInstallingUpdate`.
    func expectUpdateFinish() -> CallbackResult<Stripe.ErrorCode?> {
        let waiter = CallbackResult<Stripe.ErrorCode?>()
        updateWaiters.withLock { $0.append(waiter) }
        return waiter
    }

    // MARK: TerminalDelegate

    func didChangeConnectionStatus(_ status: Stripe.ConnectionStatus) {
        emitter.emit(.readerConnectionChanged(StripeMapping.connectionStatus(status)))
    }

    func didChangePaymentStatus(_ status: Stripe.PaymentStatus) {}

    // MARK: OfflineDelegate

    func didChangeOfflineStatus(_ offlineStatus: Stripe.OfflineStatus) {
        observeStoredCount(offlineStatus.sdk.paymentsCount)
        let status = offlineStatus.sdk.networkStatus
        let changed = network.withLock { previous -> Bool in
            defer { previous = status }
            return previous != status
        }
        if changed { emitter.emit(.networkStatusChanged(StripeMapping.networkStatus(status))) }
        emitter.emit(.offlineQueueChanged)
    }

    func didForwardPaymentIntent(_ intent: Stripe.PaymentIntent, error: Stripe.ErrorCode?) {
        guard let update = StripeMapping.forwardingUpdate(intent, error: error) else {
            emitter.emit(.forwardingError(PaymentError(
                .forwardingFailed, recovery: .none, phase: .forwarding,
                message: "Stripe forwarded a payment without Tender's reference in its metadata.")))
            return
        }
        let status: OfflinePaymentStatus = switch update.state {
        case .forwarded: .forwarded
        case .declinedAfterForwarding: .declinedAfterForwarding
        case .storedOffline: .stored
        default: .failedToForward
        }
        let attempt = StripeMapping.paymentAttempt(intent)
        let key = PaymentKey(reference: update.reference, paymentAttempt: attempt)
        if status != .stored { forwarded.withLock { $0[key] = (intent, update) } }
        queue.withLock { queue in
            let storedAt = intent.offlineDetails?.storedAt ?? queue[key]?.storedAt
            guard let storedAt, let amount = Self.money(intent) else { return }
            queue[key] = QueuedPayment(reference: update.reference, processorPaymentID: update.processorPaymentID,
                                       amount: amount, storedAt: storedAt, status: status, paymentAttempt: attempt)
        }
        if status == .stored {
            // The SDK keeps it and forwards it later (an error: a reason it is still stored), or Stripe's outcome
            // is still to come (`requiresPaymentMethod` with no charge, RN#1061): not a result for the payment.
            if let error = update.error { emitter.emit(.forwardingError(error)) }
        } else {
            emitter.emit(.paymentForwarded(update))
        }
    }

    func didReportForwardingError(_ error: Stripe.ErrorCode) {
        emitter.emit(.forwardingError(StripeMapping.paymentError(error, phase: .forwarding)))
    }

    // MARK: MobileReaderDelegate

    func didReportAvailableUpdate(_ update: Stripe.ReaderSoftwareUpdate) {
        emitter.emit(.softwareUpdateAvailable(StripeMapping.softwareUpdate(update, now: clock.now())))
    }

    func didStartInstallingUpdate(_ update: Stripe.ReaderSoftwareUpdate, cancelable: (any Stripe.Cancelable)?) {
        emitter.emit(.softwareUpdateProgress(0))
    }

    func didReportReaderSoftwareUpdateProgress(_ progress: Float) { emitter.emit(.softwareUpdateProgress(Double(progress))) }

    func didFinishInstallingUpdate(_ update: Stripe.ReaderSoftwareUpdate?, error: Stripe.ErrorCode?) {
        if update != nil || error != nil {
            emitter.emit(.softwareUpdateFinished(error.map { StripeMapping.paymentError($0, phase: .softwareUpdate) }))
        }
        let waiters = updateWaiters.withLock { waiters in
            defer { waiters.removeAll() }
            return waiters
        }
        for waiter in waiters { waiter.resume(error) }
    }

    func didRequestReaderInput(_ inputOptions: Stripe.ReaderInputOptions) {
        emitter.emit(.readerInputRequested(StripeMapping.inputOptions(inputOptions)))
    }

    func didRequestReaderDisplayMessage(_ displayMessage: Stripe.ReaderDisplayMessage) {
        emitter.emit(.readerMessage(StripeMapping.displayMessage(displayMessage)))
    }

    func didReportReaderEvent(_ event: Stripe.ReaderEvent) {
        emitter.emit(.readerMessage(StripeMapping.displayMessage(event)))
    }

    func didReportBatteryLevel(_ batteryLevel: Float, status: Stripe.BatteryStatus, isCharging: Bool) {
        emitter.emit(.batteryLevelChanged(level: Double(batteryLevel), isCharging: isCharging))
    }

    func didDisconnect(_ reason: Stripe.DisconnectReason) {
        emitter.emit(.readerDisconnected(StripeMapping.disconnectReason(reason)))
    }

    func didStartReconnect(_ cancelable: any Stripe.Cancelable, disconnectReason: Stripe.DisconnectReason) {
        emitter.emit(.readerReconnectStarted(StripeMapping.disconnectReason(disconnectReason)))
    }

    func didSucceedReconnect() { emitter.emit(.readerReconnectSucceeded) }

    func didFailReconnect() { emitter.emit(.readerReconnectFailed) }

    func didReportLowBatteryWarning() { emitter.emit(.readerBatteryLow) }
}
