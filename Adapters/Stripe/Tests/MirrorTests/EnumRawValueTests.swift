import Foundation
import StripeTerminalSurface
import StripeTerminalSurfaceBackend
import Testing

/// Raw values, which a symbol graph does not show: each reference case must be the mirror's case of that raw value, by
/// name (Swift prints an enum case's name), and each option of an option set must have the reference's bits.
@Suite struct EnumRawValueTests {
    /// The case name for a raw value, per mirrored enum. A mirrored reference enum missing here fails the test.
    static let caseName: [String: @Sendable (Int) -> String?] = [
        "TestReaderUpdateType": { UInt(exactly: $0).flatMap(TestReaderUpdateType.init(rawValue:)).map { "\($0)" } },
        "ErrorCode.Code": { Int(exactly: $0).flatMap(ErrorCode.Code.init(rawValue:)).map { "\($0)" } },
        "PaymentIntentStatus": { UInt(exactly: $0).flatMap(PaymentIntentStatus.init(rawValue:)).map { "\($0)" } },
        "OfflineBehavior": { Int(exactly: $0).flatMap(OfflineBehavior.init(rawValue:)).map { "\($0)" } },
        "NetworkStatus": { UInt(exactly: $0).flatMap(NetworkStatus.init(rawValue:)).map { "\($0)" } },
        "ConnectionStatus": { UInt(exactly: $0).flatMap(ConnectionStatus.init(rawValue:)).map { "\($0)" } },
        "PaymentStatus": { UInt(exactly: $0).flatMap(PaymentStatus.init(rawValue:)).map { "\($0)" } },
        "ReaderDisplayMessage": { UInt(exactly: $0).flatMap(ReaderDisplayMessage.init(rawValue:)).map { "\($0)" } },
        "DisconnectReason": { UInt(exactly: $0).flatMap(DisconnectReason.init(rawValue:)).map { "\($0)" } },
        "CardBrand": { Int(exactly: $0).flatMap(CardBrand.init(rawValue:)).map { "\($0)" } },
        "ReadMethod": { UInt(exactly: $0).flatMap(ReadMethod.init(rawValue:)).map { "\($0)" } },
        "DeviceType": { UInt(exactly: $0).flatMap(DeviceType.init(rawValue:)).map { "\($0)" } },
        "UpdateTimeEstimate": { UInt(exactly: $0).flatMap(UpdateTimeEstimate.init(rawValue:)).map { "\($0)" } },
        "SimulateReaderUpdate": { UInt(exactly: $0).flatMap(SimulateReaderUpdate.init(rawValue:)).map { "\($0)" } },
        "SimulatedCardType": { UInt(exactly: $0).flatMap(SimulatedCardType.init(rawValue:)).map { "\($0)" } },
        "DiscoveryMethod": { UInt(exactly: $0).flatMap(DiscoveryMethod.init(rawValue:)).map { "\($0)" } },
        "BatteryStatus": { UInt(exactly: $0).flatMap(BatteryStatus.init(rawValue:)).map { "\($0)" } },
        "ReaderEvent": { UInt(exactly: $0).flatMap(ReaderEvent.init(rawValue:)).map { "\($0)" } },
        "LogLevel": { UInt(exactly: $0).flatMap(LogLevel.init(rawValue:)).map { "\($0)" } },
        "CaptureMethod": { UInt(exactly: $0).flatMap(CaptureMethod.init(rawValue:)).map { "\($0)" } },
        "ChargeStatus": { UInt(exactly: $0).flatMap(ChargeStatus.init(rawValue:)).map { "\($0)" } },
        "CardFundingType": { Int(exactly: $0).flatMap(CardFundingType.init(rawValue:)).map { "\($0)" } },
        "CustomerCancellation": { UInt(exactly: $0).flatMap(CustomerCancellation.init(rawValue:)).map { "\($0)" } },
        "AllowRedisplay": { UInt(exactly: $0).flatMap(AllowRedisplay.init(rawValue:)).map { "\($0)" } },
        "LocationStatus": { UInt(exactly: $0).flatMap(LocationStatus.init(rawValue:)).map { "\($0)" } },
        "ReaderNetworkStatus": { UInt(exactly: $0).flatMap(ReaderNetworkStatus.init(rawValue:)).map { "\($0)" } },
        "PaymentMethodType": { UInt(exactly: $0).flatMap(PaymentMethodType.init(rawValue:)).map { "\($0)" } },
        "RefundStatus": { UInt(exactly: $0).flatMap(RefundStatus.init(rawValue:)).map { "\($0)" } },
        "PaymentOptionType": { UInt(exactly: $0).flatMap(PaymentOptionType.init(rawValue:)).map { "\($0)" } },
        "SimulatedOfflineMode": { UInt(exactly: $0).flatMap(SimulatedOfflineMode.init(rawValue:)).map { "\($0)" } },
        "IncrementalAuthorizationStatus": {
            UInt(exactly: $0).flatMap(IncrementalAuthorizationStatus.init(rawValue:)).map { "\($0)" }
        },
        "MulticaptureStatus": { UInt(exactly: $0).flatMap(MulticaptureStatus.init(rawValue:)).map { "\($0)" } },
        "ReauthorizationStatus": { UInt(exactly: $0).flatMap(ReauthorizationStatus.init(rawValue:)).map { "\($0)" } },
    ]

    /// The bits of each option, per mirrored option set, by the reference's option name.
    static let optionBits: [String: [String: UInt]] = [
        "ReaderInputOptions": [
            "swipeCard": ReaderInputOptions.swipeCard.rawValue,
            "insertCard": ReaderInputOptions.insertCard.rawValue,
            "tapCard": ReaderInputOptions.tapCard.rawValue,
        ],
        "UpdateComponent": [
            "incremental": UpdateComponent.incremental.rawValue,
            "firmware": UpdateComponent.firmware.rawValue,
            "config": UpdateComponent.config.rawValue,
            "keys": UpdateComponent.keys.rawValue,
        ],
    ]

    @Test func everyEnumCaseHasTheReferenceRawValue() throws {
        let reference = try SurfaceReference.load()
        // The enums the mirror declares (the mirror-vs-surface check requires each with all its cases).
        let graph = try MirrorSurfaceTests.extracted.get()
        let declared = Set(graph.symbols.filter { $0.kind.identifier == "swift.enum" }.map(\.path))
        let enums = reference.types.filter { $0.kind == "enum" && declared.contains($0.name) }
        #expect(Set(enums.map(\.name)) == Set(Self.caseName.keys))
        var checked = 0
        for entry in enums {
            let name = try #require(Self.caseName[entry.name], "\(entry.name) has no raw-value check")
            for referenceCase in entry.cases ?? [] {
                #expect(name(referenceCase.rawValue) == referenceCase.name, "\(entry.name).\(referenceCase.name)")
                checked += 1
            }
        }
        #expect(checked == enums.reduce(0) { $0 + ($1.cases?.count ?? 0) })
    }

    @Test func everyOptionHasTheReferenceBits() throws {
        let reference = try SurfaceReference.load()
        let optionSets = reference.types.filter { $0.kind == "optionset" }
        #expect(Set(optionSets.map(\.name)) == Set(Self.optionBits.keys))
        for entry in optionSets {
            let expected = Dictionary(uniqueKeysWithValues: (entry.cases ?? []).map { ($0.name, UInt($0.rawValue)) })
            #expect(Self.optionBits[entry.name] == expected, "\(entry.name)")
        }
    }

    @Test func errorCodesAreAlsoStaticMembersAndMatchByPattern() {
        #expect(ErrorCode.canceled == .canceled && ErrorCode.canceled.rawValue == 2020)
        #expect(ErrorCode.offlineBehaviorForceOfflineWithFeatureDisabled.rawValue == 10107)
        do {
            throw ErrorCode(.readerBusy, userInfo: [ErrorKey.message.rawValue: "busy"])
        } catch ErrorCode.readerBusy {
            // `catch ErrorCode.<code>` works as with the imported struct.
        } catch {
            Issue.record("ErrorCode.readerBusy did not match its own error: \(error)")
        }
        let error: any Error = ErrorCode(.declinedByStripeAPI)
        let nsError = error as NSError
        #expect(nsError.domain == ErrorDomain && nsError.code == 6000)
        #expect((error as? ErrorCode)?.code == .declinedByStripeAPI)
        #expect(ErrorCode.errorDomain == ErrorDomain)
    }
}
