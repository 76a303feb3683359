import Foundation
import Testing
import SquareMobilePaymentsSurface
import SquareMobilePaymentsSurfaceBackend
import TenderSquare
import TenderSquareSimulator
@testable import TenderSquareMobilePaymentsOverSurface
import class TenderTesting.ManualClock

/// Every case of an SDK enum as the mirror declares it (its raw values are the mirror's own, used here only to list
/// the cases).
func allCases<SDKEnum: RawRepresentable>(_ type: SDKEnum.Type) -> [SDKEnum] where SDKEnum.RawValue: BinaryInteger {
    (0..<64).compactMap { SDKEnum(rawValue: SDKEnum.RawValue($0)) }
}

/// Checks that `map` sends every SDK case to the ``Square`` case of the same name (the name the mirror gives the case,
/// `String(describing:)`, answered by the backend from the mirror's own case table), and reaches `expected` cases.
func expectByName<SDKEnum: RawRepresentable, Value: CaseIterable & RawRepresentable<String> & Hashable>(
    _ type: SDKEnum.Type, _ map: (SDKEnum) -> Value?, reaching expected: Int = Value.allCases.count,
    sourceLocation: SourceLocation = #_sourceLocation
) where SDKEnum.RawValue: BinaryInteger {
    let cases = allCases(type)
    var reached: Set<Value> = []
    for sdk in cases {
        let name = String(describing: sdk)
        guard let value = map(sdk) else {
            Issue.record("\(SDKEnum.self).\(name) is not mapped", sourceLocation: sourceLocation)
            continue
        }
        #expect(value.caseName == name, "\(SDKEnum.self).\(name) → \(value.caseName)", sourceLocation: sourceLocation)
        reached.insert(value)
    }
    #expect(cases.count == expected && reached.count == expected,
            "\(SDKEnum.self): \(cases.count) cases, \(reached.count) reached, \(expected) expected",
            sourceLocation: sourceLocation)
}

/// A backend for the tests that only need the slot (undocumented text, the device clock of `PaymentParameters`).
func installPlainBackend() -> SimulatorSurfaceBackend {
    let clock = ManualClock()
    let backend = SimulatorSurfaceBackend(simulator: SquareSimulator(sellers: BridgeSellers.all, clock: clock),
                                          clock: clock)
    SurfaceBackendSlot.install(backend)
    return backend
}

@Suite("The bridge maps Square's enums and errors by case name", .surfaceBackendExclusive)
struct BridgeMappingTests {
    typealias Values = SquareBridgeValues

    @Test("every case of every SDK enum the bridge reads maps to the case of the same name")
    func enumsByName() {
        _ = installPlainBackend()
        expectByName(Currency.self, Values.value)
        expectByName(ProcessingMode.self, Values.value)
        expectByName(DelayAction.self, Values.value)
        expectByName(AuthorizationState.self, Values.value)
        expectByName(Environment.self, Values.value)
        expectByName(PaymentStatus.self, Values.value)
        expectByName(OfflineStatus.self, Values.value)
        expectByName(SourceType.self, Values.value)
        expectByName(CardPaymentStatus.self, Values.value)
        expectByName(CardEntryMethod.self, Values.value)
        expectByName(CardBrand.self, Values.value)
        expectByName(CardCoBrand.self, Values.value)
        expectByName(ReaderStatus.self, Values.value)
        expectByName(ReaderUnavailableReason.self, Values.value)
        expectByName(ReaderModel.self, Values.value)
        expectByName(ReaderChange.self, Values.value)
        expectByName(FirmwareUpdateStatus.self, Values.value)
        expectByName(ReaderBatteryLevel.self, Values.value)
        expectByName(ReaderConnectionType.self, Values.value)
        expectByName(CardInsertionStatus.self, Values.value)
        expectByName(RetryConnectionResult.self, Values.value)
    }

    @Test("the enums the bridge builds SDK objects with map back by name")
    func enumsToSDKByName() {
        _ = installPlainBackend()
        for value in Square.Currency.allCases { #expect(String(describing: Values.sdk(value)) == value.caseName) }
        for value in Square.ProcessingMode.allCases { #expect(String(describing: Values.sdk(value)) == value.caseName) }
        for value in Square.DelayAction.allCases { #expect(String(describing: Values.sdk(value)) == value.caseName) }
        for value in Square.PromptMode.allCases { #expect(String(describing: Values.sdk(value)) == value.caseName) }
        for value in Square.ProcessingMode.allCases { #expect(Values.value(Values.sdk(value)) == value) }
    }

    @Test("every case of the SDK's four error enums maps by name, as the enum and as an NSError of its domain")
    func errorsByName() {
        _ = installPlainBackend()
        expectByName(PaymentError.self, { SquareBridgeErrors.payment($0) as? Square.PaymentError }, reaching: 16)
        expectByName(AuthorizationError.self, { SquareBridgeErrors.authorization($0) })
        expectByName(OfflinePaymentQueueError.self, { SquareBridgeErrors.offlineQueue($0) })
        expectByName(ReaderPairingError.self, { SquareBridgeErrors.pairing($0) as? Square.ReaderPairingError })
        let bridged: (PaymentError) -> NSError = { NSError(domain: PaymentError.errorDomain, code: $0.rawValue) }
        expectByName(PaymentError.self, { SquareBridgeErrors.payment(bridged($0)) as? Square.PaymentError },
                     reaching: 16)
        expectByName(AuthorizationError.self, {
            SquareBridgeErrors.authorization(NSError(domain: AuthorizationError.errorDomain, code: $0.rawValue))
        })
        expectByName(OfflinePaymentQueueError.self, {
            SquareBridgeErrors.offlineQueue(NSError(domain: OfflinePaymentQueueError.errorDomain, code: $0.rawValue))
        })
        expectByName(ReaderPairingError.self, {
            SquareBridgeErrors.pairing(NSError(domain: ReaderPairingError.errorDomain, code: $0.rawValue))
                as? Square.ReaderPairingError
        })
    }

    @Test("an error the SDK does not declare is passed on as it came (payments, pairing) or read as unexpected")
    func unknownErrors() {
        _ = installPlainBackend()
        let foreign = NSError(domain: "com.example.Future", code: 7)
        #expect((SquareBridgeErrors.payment(foreign) as NSError) === foreign)
        #expect((SquareBridgeErrors.pairing(foreign) as NSError) === foreign)
        #expect(SquareBridgeErrors.authorization(foreign) == .unexpected)
        #expect(SquareBridgeErrors.offlineQueue(foreign) == .unexpected)
        // A code of the SDK's domain that this SDK version does not declare (a newer SDK's case).
        let newer = NSError(domain: PaymentError.errorDomain, code: 999)
        #expect((SquareBridgeErrors.payment(newer) as NSError) === newer)
        #expect(SquareBridgeErrors.authorization(NSError(domain: AuthorizationError.errorDomain, code: 999)) == .unexpected)
        let historical = ErrorNotInThisSDK(name: "idempotencyKeyReused")
        #expect(SquareBridgeErrors.payment(historical) as? ErrorNotInThisSDK == historical)
    }
}
