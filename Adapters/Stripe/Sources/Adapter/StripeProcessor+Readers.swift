package import Foundation
public import Tender

// MARK: - Readers

extension StripeProcessor {
    /// Stripe's discovery for `kind` (``ReaderKind/bluetooth``: a scan, or proximity when
    /// ``Configuration/bluetoothProximity`` is on; ``ReaderKind/internet``: the account's smart readers;
    /// ``ReaderKind/tapToPay``: the iPhone itself), each reader yielded as the SDK reports it and again when its
    /// details change (proximity's second report). Ends after `timeout` seconds (the SDK's own timeout, and the
    /// adapter's for the methods the SDK does not time out; `0` or less: until cancelled); Tap to Pay's ends after its
    /// one report. Cancelling the consuming
    /// task cancels the SDK's discovery (`Cancelable.cancel`). USB throws ``PaymentError/Code/featureUnavailable``.
    public nonisolated func readerDiscovery(_ kind: ReaderKind, timeout: Double) -> AsyncThrowingStream<Reader, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Reader.self, throwing: (any Error).self)
        let task = Task { await self.discover(kind, timeout: timeout, into: continuation) }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    private func discover(_ kind: ReaderKind, timeout: Double,
                          into continuation: AsyncThrowingStream<Reader, any Error>.Continuation) async {
        guard let method = Stripe.DiscoveryMethod.method(for: kind, proximity: configuration.bluetoothProximity) else {
            return continuation.finish(throwing: PaymentError(
                .featureUnavailable, recovery: .fixIntegration, phase: .readerConnection,
                message: "Stripe Terminal's iOS SDK offers USB readers only in builds with SCP_USB_ENABLED."))
        }
        let seconds = timeout > 0 ? UInt(max(1, timeout.rounded(.up))) : 0
        let delegate = DiscoveryStream(registry: discovered, continuation: continuation)
        let done = CallbackResult<Stripe.ErrorCode?>()
        let cancelable = await client.discoverReaders(
            Stripe.DiscoveryConfiguration(method: method, timeout: seconds, simulated: configuration.simulatedReaders),
            delegate: delegate, completion: { done.resume($0) })
        // The SDK times out only its Bluetooth scan and internet discovery; the adapter ends the others itself.
        let timer = seconds == 0 ? nil : Task { [clock] in
            try await clock.sleep(seconds: Double(seconds))
            cancelable.cancel { _ in }
        }
        // Tap to Pay discovery reports the iPhone's one reader once and then runs until cancelled: the sequence ends
        // after that report (the SDK's discovery cancelled), without waiting for the timeout.
        let once = kind == .tapToPay ? Task {
            await delegate.firstReport.value
            cancelable.cancel { _ in }
        } : nil
        let outcome = await withTaskCancellationHandler {
            await done.value
        } onCancel: {
            cancelable.cancel { _ in }
        }
        timer?.cancel()
        delegate.firstReport.resume(())
        once?.cancel()
        // Stripe's own errors end the sequence, `bluetoothScanTimedOut` included (its scan found nothing in time).
        if let error = outcome {
            continuation.finish(throwing: StripeMapping.paymentError(error, phase: .readerConnection))
        } else {
            continuation.finish()
        }
    }

    /// Connects at `locationID` with the configuration for the reader's kind (Bluetooth and Tap to Pay register to
    /// the location and reconnect automatically as configured; Tap to Pay may show Apple's terms of service; a smart
    /// reader is registered to its location already). A reader no discovery of this launch reported (one the app
    /// saved) is looked for first, for up to 10 seconds.
    public func connectReader(_ reader: Reader, locationID: String) async throws -> Reader {
        var target = discovered.current[reader.id]
        if target == nil {
            for try await found in readerDiscovery(reader.kind, timeout: 10) where found.id == reader.id { break }
            target = discovered.current[reader.id]
        }
        guard let target else {
            throw PaymentError(.readerConnectionFailed, recovery: .reconnectReader, phase: .readerConnection,
                               message: "The reader \(reader.id) was not found.")
        }
        let auto = configuration.autoReconnectOnUnexpectedDisconnect
        do {
            let connected: Stripe.Reader
            switch target.deviceType.kind {
            case .tapToPay:
                connected = try await client.connectReader(target, connectionConfig: Stripe.TapToPayConnectionConfiguration(
                    locationId: locationID, merchantDisplayName: configuration.tapToPayMerchantDisplayName,
                    tosAcceptancePermitted: true, autoReconnectOnUnexpectedDisconnect: auto, delegate: bridge))
            case .internet:
                connected = try await client.connectReader(
                    target, connectionConfig: Stripe.InternetConnectionConfiguration(delegate: bridge))
            case .bluetooth, .usb:
                connected = try await client.connectReader(target, connectionConfig: Stripe.BluetoothConnectionConfiguration(
                    locationId: locationID, autoReconnectOnUnexpectedDisconnect: auto, delegate: bridge))
            }
            return StripeMapping.reader(connected, now: clock.now())
        } catch let error as PaymentError {
            throw error
        } catch let error as Stripe.ErrorCode {
            var mapped = StripeMapping.paymentError(error, phase: .readerConnection)
            if error.code == .notConnectedToInternet {
                // Stripe's first connect-while-offline refusal ("The SDK isn't connected to the internet"): surface
                // it as the offline-connection refusal it is, keeping Stripe's error intact.
                mapped.code = .readerOfflineConnectionRefused
                mapped.message = "The reader cannot be connected offline: connect any reader online first, and make "
                    + "sure the location is configured for offline mode."
            }
            throw mapped
        }
    }

    /// Disconnects the reader.
    public func disconnectReader() async throws {
        do { try await client.disconnectReader() } catch { throw StripeMapping.paymentError(error, phase: .readerConnection) }
    }

    /// The SDK's `connectedReader`, with its kind, features and any update it reports (required once its
    /// `requiredAt` has passed).
    public func connectedReader() async -> Reader? {
        await client.connectedReader.map { StripeMapping.reader($0, now: clock.now()) }
    }

    /// Installs the update the reader reported (`installAvailableUpdate`), and waits for the reader delegate to
    /// report its end. Progress arrives as events.
    public func installReaderUpdate() async throws {
        let finished = bridge.expectUpdateFinish()
        await client.installAvailableUpdate()
        if let error = await finished.value { throw StripeMapping.paymentError(error, phase: .softwareUpdate) }
    }

    /// `rebootReader`: the reader reboots; with automatic reconnection on, it reconnects.
    public func rebootReader() async throws {
        do { try await client.rebootReader() } catch { throw StripeMapping.paymentError(error, phase: .readerConnection) }
    }

    /// `setReaderDisplay` (or `clearReaderDisplay` for `nil`) on a smart reader; other readers have no screen for it.
    public func setReaderDisplay(_ cart: ReaderCart?) async throws {
        guard let reader = await client.connectedReader else {
            throw PaymentError(.readerNotConnected, recovery: .reconnectReader, phase: .collection,
                               message: "No reader is connected.")
        }
        guard reader.deviceType.features.contains(.cartDisplay) else {
            throw PaymentError(.featureUnavailable, recovery: .fixRequest, phase: .collection,
                               message: "A \(reader.deviceType.rawValue) cannot show a cart: only smart readers can.")
        }
        do {
            if let cart { try await client.setReaderDisplay(try StripeMapping.cart(cart)) } else { try await client.clearReaderDisplay() }
        } catch let error as Stripe.ErrorCode {
            throw StripeMapping.paymentError(error, phase: .collection)
        }
    }
}

/// Yields each reader a discovery reports when it is new or changed (Bluetooth proximity reports a reader twice,
/// serial number first), and records it for the connection.
final class DiscoveryStream: Stripe.DiscoveryDelegate {
    /// Resumed by the first report (or by the discovery's end).
    let firstReport = CallbackResult<Void>()
    private let registry: Locked<[String: Stripe.Reader]>
    private let continuation: AsyncThrowingStream<Reader, any Error>.Continuation
    private let yielded = Locked<[String: Stripe.Reader]>([:])

    init(registry: Locked<[String: Stripe.Reader]>, continuation: AsyncThrowingStream<Reader, any Error>.Continuation) {
        self.registry = registry
        self.continuation = continuation
    }

    func didUpdateDiscoveredReaders(_ readers: [Stripe.Reader]) {
        defer { firstReport.resume(()) }
        for reader in readers {
            let changed = yielded.withLock { seen in
                guard seen[reader.serialNumber] != reader else { return false }
                seen[reader.serialNumber] = reader
                return true
            }
            guard changed else { continue }
            registry.withLock { $0[reader.serialNumber] = reader }
            continuation.yield(StripeMapping.reader(reader))
        }
    }
}

// MARK: - Readers and cards

extension StripeMapping {
    /// `ReaderDisplayMessage`.
    package static func displayMessage(_ message: Stripe.ReaderDisplayMessage) -> ReaderDisplayMessage {
        switch message {
        case .retryCard: .retryCard
        case .insertCard: .insertCard
        case .insertOrSwipeCard: .insertOrSwipeCard
        case .swipeCard: .swipeCard
        case .removeCard: .removeCard
        case .multipleContactlessCardsDetected: .multipleContactlessCardsDetected
        case .tryAnotherReadMethod: .tryAnotherReadMethod
        case .tryAnotherCard: .tryAnotherCard
        case .cardRemovedTooEarly: .cardRemovedTooEarly
        }
    }

    /// `ReaderEvent`, shown as a message.
    package static func displayMessage(_ event: Stripe.ReaderEvent) -> ReaderDisplayMessage {
        switch event {
        case .cardInserted: .cardInserted
        case .cardRemoved: .cardRemoved
        }
    }

    /// `ReaderInputOptions`, option by option.
    package static func inputOptions(_ options: Stripe.ReaderInputOptions) -> ReaderInputOptions {
        var result: ReaderInputOptions = []
        if options.contains(.swipeCard) { result.insert(.swipe) }
        if options.contains(.insertCard) { result.insert(.insert) }
        if options.contains(.tapCard) { result.insert(.tap) }
        return result
    }

    /// `DisconnectReason`.
    package static func disconnectReason(_ reason: Stripe.DisconnectReason) -> ReaderDisconnectReason {
        switch reason {
        case .unknown: .unknown
        case .disconnectRequested: .requested
        case .rebootRequested, .securityReboot: .rebooted
        case .criticallyLowBattery: .batteryLow
        case .poweredOff, .idlePowerDown: .poweredOff
        case .bluetoothDisabled, .usbDisconnected, .bluetoothSignalLost: .linkLost
        case .peerRemovedPairingInformation: .pairingRemoved
        }
    }

    /// `CardBrand`.
    package static func cardBrand(_ brand: Stripe.CardBrand) -> CardBrand {
        switch brand {
        case .visa: .visa
        case .amex: .amex
        case .masterCard: .mastercard
        case .discover: .discover
        case .JCB: .jcb
        case .dinersClub: .dinersClub
        case .interac: .interac
        case .unionPay: .unionPay
        case .eftposAu: .eftpos
        case .cartesBancaires: .cartesBancaires
        case .girocard: .girocard
        case .unknown: .unknown
        }
    }

    /// `ReadMethod`.
    package static func entryMethod(_ method: Stripe.ReadMethod) -> CardEntryMethod {
        switch method {
        case .unknown: .unknown
        case .contactEMV: .chip
        case .contactlessEMV: .contactless
        case .magneticStripeFallback: .swipedFallback
        case .magneticStripeTrack2: .swiped
        case .contactlessMagstripeMode: .contactlessMagstripe
        }
    }

    /// Receipt details from card-present details (online) or offline card-present details. Fields Stripe cannot
    /// supply offline (`accountType`, `authorizationResponseCode`) stay absent.
    package static func cardDetails(_ details: Stripe.CardPresentDetails) -> CardDetails {
        CardDetails(brand: cardBrand(details.brand), last4: details.last4, entryMethod: entryMethod(details.readMethod),
                    applicationName: details.receiptDetails?.applicationPreferredName,
                    applicationIdentifier: details.receiptDetails?.dedicatedFileName,
                    authorizationCode: details.receiptDetails?.authorizationCode,
                    expiryMonth: details.expMonth, expiryYear: details.expYear)
    }

    /// The receipt details of an intent: the authorizing charge's card-present details when Stripe has them, else
    /// the offline card-present details.
    package static func cardDetails(_ intent: Stripe.PaymentIntent) -> CardDetails? {
        (intent.authorizedCharge?.cardPresentDetails ?? intent.offlineDetails?.cardPresentDetails
            ?? intent.charges.last?.cardPresentDetails).map(cardDetails)
    }

    /// A Stripe reader as Tender's ``Reader`` (the serial number is the id), with its kind and features by model and,
    /// given `now`, the update it reports.
    package static func reader(_ reader: Stripe.Reader, now: Date? = nil) -> Reader {
        var mapped = Reader(id: reader.serialNumber, serialNumber: reader.serialNumber, model: reader.deviceType.rawValue,
               kind: reader.deviceType.kind, features: reader.deviceType.features, softwareVersion: reader.deviceSoftwareVersion, batteryLevel: reader.batteryLevel.map(Double.init),
               isCharging: reader.isCharging, locationID: reader.locationId, isSimulated: reader.simulated)
        mapped.availableUpdate = now.flatMap { now in reader.availableUpdate.map { softwareUpdate($0, now: now) } }
        return mapped
    }

    /// A Stripe cart from Tender's (Stripe's cart carries its own total).
    package static func cart(_ cart: ReaderCart) throws(PaymentError) -> Stripe.Cart {
        let total = try cart.total()
        return Stripe.Cart(currency: cart.tax.currency.code.lowercased(), tax: Int(cart.tax.minorUnits),
                           total: Int(total.minorUnits),
                           lineItems: cart.lineItems.map {
                               Stripe.CartLineItem(displayName: $0.description, quantity: $0.quantity,
                                                   amount: Int($0.amount.minorUnits))
                           })
    }

    /// A Stripe software update as Tender's, required when `requiredAt` is not after `now`.
    package static func softwareUpdate(_ update: Stripe.ReaderSoftwareUpdate, now: Date) -> ReaderSoftwareUpdate {
        ReaderSoftwareUpdate(version: update.deviceSoftwareVersion, isRequired: update.requiredAt <= now,
                             requiredAt: update.requiredAt.timeIntervalSince1970,
                             estimatedSeconds: estimatedSeconds(update.durationEstimate))
    }

    /// The upper bound of an update's duration estimate, in seconds.
    package static func estimatedSeconds(_ estimate: Stripe.UpdateTimeEstimate) -> Double {
        switch estimate {
        case .estimateLessThan1Minute: 60
        case .estimate1To2Minutes: 120
        case .estimate2To5Minutes: 300
        case .estimate5To15Minutes: 900
        }
    }
}
