import Foundation
import Observation
@testable import Tender
@testable import TenderUI

/// Records every value of one model property that Observation reports, in order (consecutive duplicates dropped):
/// the "sequence of observed state" a SwiftUI view would render.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
final class ObservationRecorder<Value: Equatable> {
    private(set) var values: [Value]
    private let model: TerminalModel
    private let read: @MainActor (TerminalModel) -> Value

    init(_ model: TerminalModel, _ read: @escaping @MainActor (TerminalModel) -> Value) {
        self.model = model
        self.read = read
        values = [read(model)]
        track()
    }

    private func track() {
        withObservationTracking {
            _ = read(model)
        } onChange: { [weak self] in
            // Called before the change is made: read the new value once it is, on the main actor.
            Task { @MainActor in self?.changed() }
        }
    }

    private func changed() {
        let value = read(model)
        if values.last != value { values.append(value) }
        track()
    }
}

/// Waits (yielding, bounded) until `condition` holds on the main actor.
@MainActor
func eventually(_ condition: @MainActor () -> Bool) async -> Bool {
    for _ in 0..<2_000 {
        if condition() { return true }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return condition()
}

let uiScope = LedgerScope(merchantID: "acct_ui", locationID: "tml_ui")

func usd(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: .usd) }
