import Foundation
import StripeTerminalSurface
import StripeTerminalSurfaceBackend
import Tender
import TenderStripe
import TenderStripeSimulator
@testable import TenderStripeTerminalOverSurface
import Testing

extension StripeBridgeTests {
    /// In-person refunds through 5.x's `processRefund`, compiled over the mirror like every other bridge line.
    @Suite("In-person refunds through the bridge") struct Refunds {
        @Test("an Interac refund goes through processRefund, never the deprecated pair, and keeps the charge")
        func interacThroughProcessRefund() async throws {
            let device = BridgeDevice { $0.simulatedCard = .interac }
            let launch = try await device.connectedLaunch()
            let sale = PaymentRequest(amount: Money(minorUnits: 1_000, currency: .cad), reference: "IR-1")
            let paid = try await launch.processor.startPayment(sale, routing: .online, attempt: PaymentAttempt(),
                                                               updates: { _ in })
            #expect(paid.state == .succeeded)
            let request = RefundRequest(processor: "stripe", reference: "IR-1",
                                        processorPaymentID: paid.processorPaymentID ?? "",
                                        amount: Money(minorUnits: 300, currency: .cad),
                                        idempotencyKey: RefundRecord.idempotencyKey(reference: "IR-1", number: 1))
            let refunded = try await launch.processor.refundPayment(request, throughReader: true)
            #expect(refunded.status == .succeeded)
            #expect(launch.backend.calls.contains("processRefund"))
            #expect(launch.backend.calls.contains("build(refundParameters)"))
            #expect(!launch.backend.calls.contains("collectRefundPaymentMethod"))
            #expect(!launch.backend.calls.contains("confirmRefund"))
            let server = try #require(await device.simulator.serverRefunds.first)
            #expect(server.inPerson == true)
        }

        @Test("the first step reaches no reader; the refund's chargeId (nullable in the SDK) becomes the charge")
        func stepsAndCharge() async throws {
            let device = BridgeDevice { $0.simulatedCard = .interac }
            let launch = try await device.connectedLaunch()
            let sale = PaymentRequest(amount: Money(minorUnits: 1_000, currency: .cad), reference: "IR-2")
            let paid = try await launch.processor.startPayment(sale, routing: .online, attempt: PaymentAttempt(),
                                                               updates: { _ in })
            let intent = try #require(try await device.simulator.server.paymentIntent(id: paid.processorPaymentID ?? ""))
            let charge = try #require(intent.authorizedCharge?.stripeId)

            let prepared = Answer<Stripe.ErrorCode?>()
            _ = await launch.bridge.collectRefundPaymentMethod(
                Stripe.RefundParameters(chargeId: charge, amount: 200, currency: "cad"), refundConfig: nil,
                completion: { prepared.resume($0) })
            #expect(try #require(await prepared.wait()) == nil)
            #expect(!launch.backend.calls.contains("processRefund"), "nothing reaches the reader before the second step")

            let done = Answer<Refund2>()
            _ = await launch.bridge.confirmRefund { done.resume(Refund2(refund: $0, error: $1)) }
            let answer = try #require(await done.wait())
            #expect(answer.error == nil)
            #expect(answer.refund?.charge == charge)
            #expect(answer.refund?.amount == 200)

            // A second step without a first is refused as the SDK's confirmRefund did, without reaching the reader.
            let calls = launch.backend.calls.filter { $0 == "processRefund" }.count
            let again = Answer<Refund2>()
            _ = await launch.bridge.confirmRefund { again.resume(Refund2(refund: $0, error: $1)) }
            #expect(try #require(await again.wait()).error?.code.name == "nilRefundPaymentMethod")
            #expect(launch.backend.calls.filter { $0 == "processRefund" }.count == calls)
        }

        @Test("SCPRefund.chargeId nil: the charge the refund was asked for stands in")
        func nilChargeId() {
            let refund = Refund(surface: .backend, stripeId: "re_1", amount: 5, chargeId: nil, created: Date(),
                                currency: "cad", metadata: ["k": "v"], status: .pending)
            let value = StripeTerminalBridge.value(of: refund, requestedCharge: "ch_asked")
            #expect(value.charge == "ch_asked")
            #expect(value.status == .pending)
            #expect(value.metadata == ["k": "v"])
        }
    }

    /// The three optional `MobileReaderDelegate` callbacks the bridge implements.
    @Suite("Optional reader callbacks") struct OptionalReaderCallbacks {
        @Test("the low-battery warning reaches the adapter's delegate and becomes Tender's readerBatteryLow")
        func lowBattery() async throws {
            let registry = StripeObjectRegistry(capacity: 4)
            let delegate = RecordingReaderDelegate()
            let observer = StripeReaderObserver(forwardingTo: delegate, registry: registry)
            let reader = Reader(surface: .backend, deviceType: .stripeM2, simulated: true, locationStatus: .set, serialNumber: "STRM2-1",
                                livemode: false, batteryStatus: .nominal, status: .offline)
            observer.readerDidReportLowBatteryWarning(reader)
            #expect(delegate.recorder.all == ["lowBattery"])

            // Connected through the bridge, the SDK's call reaches the processor: the event Tender publishes.
            let device = BridgeDevice()
            let launch = try await device.connectedLaunch()
            let connected = try #require(launch.bridge.activeObservers.current.reader as? StripeReaderObserver)
            #expect(!launch.processor.emittedEvents.contains(.readerBatteryLow))
            connected.readerDidReportLowBatteryWarning(reader)
            #expect(launch.processor.emittedEvents.contains(.readerBatteryLow))
        }

        @Test("payment-method selection chooses the card option, and fails without one; QR display fails at once")
        func selectionAndQrCode() async throws {
            let observer = StripeReaderObserver(forwardingTo: nil, registry: StripeObjectRegistry(capacity: 4))
            let reader = Reader(surface: .backend, deviceType: .stripeM2, simulated: true, locationStatus: .set, serialNumber: "STRM2-1",
                                livemode: false, batteryStatus: .nominal, status: .offline)
            let intent = PaymentIntent(surface: .backend, amount: 100, captureMethod: .automatic, charges: [],
                                       created: Date(), currency: "usd", livemode: false, status: .requiresPaymentMethod)
            let options = [PaymentOption.nonCardPaymentOption(with: .wechatPay), PaymentOption.card()]
            let chosen = Locked<(PaymentOption?, (any Error)?)?>(nil)
            observer.reader(reader, didRequestPaymentMethodSelection: intent, availablePaymentOptions: options) {
                chosen.withLock { [value = ($0, $1)] in $0 = value }
            }
            #expect(chosen.current?.0 === options[1])
            #expect(chosen.current?.1 == nil)

            let refused = Locked<(PaymentOption?, (any Error)?)?>(nil)
            observer.reader(reader, didRequestPaymentMethodSelection: intent, availablePaymentOptions: [options[0]]) {
                refused.withLock { [value = ($0, $1)] in $0 = value }
            }
            #expect(refused.current?.0 == nil)
            let refusal = try #require(refused.current?.1)
            #expect((refusal as NSError).code == ErrorCode.Code.featureNotAvailable.rawValue)

            let qr = QrCodeDisplayData(surface: .backend, paymentMethodType: .wechatPay,
                                       qrCodeImageUrlPng: "https://example.invalid/qr.png", qrCodeImageUrlSvg: nil,
                                       expiresAtMs: 0)
            let shown = Locked<[String]>([])
            observer.reader(reader, didRequestQrCodeDisplay: intent, qrData: qr) { error in
                let code = (error as NSError?).map { "\($0.domain):\($0.code)" } ?? "none"
                shown.withLock { $0.append(code) }
            }
            #expect(shown.current == ["\(ErrorDomain):\(ErrorCode.Code.featureNotAvailable.rawValue)"])
        }
    }
}

/// A refund step's answer.
struct Refund2: @unchecked Sendable {
    var refund: Stripe.Refund?
    var error: Stripe.ErrorCode?
}
