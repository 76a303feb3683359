import Foundation
import Tender
package import TenderSquare
package import TenderTesting

/// The Square simulator's Tap to Pay state and the blocking firmware updates it runs on its clock.
struct SquareReaderKindState {
    /// `tapToPaySettings.isDeviceCapable`.
    var deviceCapable = true
    /// Whether the merchant's Apple account is linked (Apple's Tap to Pay terms accepted).
    var appleAccountLinked = false
    /// The next `linkAppleAccount` fails (`linkingFailed`).
    var linkingFails = false
    /// Blocking firmware updates started by ``SquareSimulator/injectReaderFault(_:)``: reader id → when it began.
    var firmwareUpdates: [UInt: Date] = [:]
}

extension SquareSimulator {
    /// How long a blocking firmware update takes on the simulator's clock.
    static let firmwareUpdateDuration: TimeInterval = 60

    /// Makes a reader fault happen: Tap to Pay on a device that cannot do it (`isDeviceCapable` false from now);
    /// the next Apple-account linking fails (`linkingFailed`) and the account is not linked; an update required: a
    /// blocking firmware update starts on the first paired reader (it is `readerUnavailable` /
    /// `blockingFirmwareUpdate` and takes no payment until the update finishes, a minute later on the clock, Square
    /// installing it on its own). Square has no internet readers: that fault does nothing.
    package func injectReaderFault(_ fault: ReaderFault) {
        switch fault {
        case .tapToPayUnsupportedDevice: readerKinds.deviceCapable = false
        case .tapToPayNotLinked:
            readerKinds.appleAccountLinked = false
            readerKinds.linkingFails = true
            store.readers.removeAll { $0.info.model == .tapToPay }
        case .internetReaderUnreachable: break
        case .updateRequired:
            guard let reader = store.readers.first(where: { $0.info.model != .tapToPay }) else { return }
            readerKinds.firmwareUpdates[reader.info.id] = clock.now()
            announceFirmwareUpdate(reader.info.id, blocking: true)
        }
    }

    /// Moves the blocking firmware updates on with the clock; a finished one leaves its reader ready.
    func progressFirmwareUpdates() {
        for (id, began) in readerKinds.firmwareUpdates {
            let elapsed = clock.now().timeIntervalSince(began)
            if elapsed >= Self.firmwareUpdateDuration {
                readerKinds.firmwareUpdates[id] = nil
                advanceFirmwareUpdate(id, toPercent: 100)
            } else if elapsed > 0 {
                advanceFirmwareUpdate(id, toPercent: UInt(elapsed / Self.firmwareUpdateDuration * 100))
            }
        }
    }

    /// `readerManager.tapToPaySettings`.
    package nonisolated var tapToPaySettings: any Square.TapToPaySettings { SimulatedTapToPaySettings(simulator: self) }

    /// `rebootReader(_:)`: a rebootable reader goes through `connectingToDevice` back to ready; others ignore it (the
    /// SDK's no-op).
    package func rebootReader(_ readerInfo: Square.ReaderInfo) async throws {
        guard let reader = store.readers.first(where: { $0.info.id == readerInfo.id }), reader.info.isRebootable else {
            return
        }
        setReaderStatus(reader.info.id, .connectingToDevice)
        setReaderStatus(reader.info.id, .ready)
    }

    /// `linkAppleAccount` (`relink`: `relinkAppleAccount`, the same sheet for another Apple account, which is not
    /// refused as `alreadyLinked`).
    func linkAppleAccount(relink: Bool = false) throws(Square.TapToPayReaderError) {
        guard readerKinds.deviceCapable else { throw .unsupportedDeviceModel }
        guard authorized != nil else { throw .notAuthorized }
        if readerKinds.linkingFails {
            readerKinds.linkingFails = false
            throw .linkingFailed
        }
        guard relink || !readerKinds.appleAccountLinked else { throw .alreadyLinked }
        readerKinds.appleAccountLinked = true
        // The iPhone's own reader appears once the account is linked.
        guard !store.readers.contains(where: { $0.info.model == .tapToPay }) else { return }
        let id = store.nextReaderID
        store.nextReaderID += 1
        let info = Square.ReaderInfo(
            id: id, name: "Tap to Pay on iPhone", serialNumber: nil, model: .tapToPay,
            supportedInputMethods: [.contactless], firmwareInfo: nil, statusInfo: .ready, batteryStatus: nil,
            cardInsertionStatus: .unknown, connectionType: .embedded)
        store.readers.append(SimulatedReader(info: info, hasConnectedOnline: true))
        for observer in readerObservers { observer.readerWasAdded(info) }
        announceInputMethods()
    }

    var isAppleAccountLinked: Bool { readerKinds.appleAccountLinked }
    var isTapToPayCapable: Bool { readerKinds.deviceCapable }
}

/// `TapToPaySettings` over the simulator.
struct SimulatedTapToPaySettings: Square.TapToPaySettings {
    let simulator: SquareSimulator
    var isDeviceCapable: Bool { get async { await simulator.isTapToPayCapable } }
    func isAppleAccountLinked() async throws -> Bool { await simulator.isAppleAccountLinked }
    func linkAppleAccount() async throws { try await simulator.linkAppleAccount() }
    func relinkAppleAccount() async throws { try await simulator.linkAppleAccount(relink: true) }
}
