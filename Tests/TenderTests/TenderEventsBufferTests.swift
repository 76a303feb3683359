import Foundation
import Testing
@testable import Tender
import TenderTesting

/// Subscriptions to the facade's events keep a bounded number of unread events: the newest.
@Suite("Event subscriptions: bounded buffers")
struct TenderEventsBufferTests {
    private func refused(_ index: Int) -> TenderEvent {
        .paymentRefused(reference: "order-\(index)", error: PaymentError(.invalidAmount, recovery: .fixRequest,
                                                                          phase: .validation, message: "\(index)"))
    }

    private func references(_ events: [TenderEvent]) -> [String] {
        events.map { if case .paymentRefused(let reference, _) = $0 { reference } else { "?" } }
    }

    /// Reads what the subscription holds now (the hub is finished first, so the reading ends).
    private func drain(_ events: TenderEvents) async -> [TenderEvent] {
        var read: [TenderEvent] = []
        for await event in events { read.append(event) }
        return read
    }

    @Test("a subscriber that reads nothing keeps the newest events up to its bound, the oldest are dropped")
    func boundedKeepsTheNewest() async {
        let hub = EventHub()
        let events = hub.subscribe(bufferingNewest: 3)
        for index in 1...10 { hub.send(refused(index)) }
        hub.finish()
        #expect(references(await drain(events)) == ["order-8", "order-9", "order-10"])
    }

    @Test("the default bound is 1,024 events")
    func defaultBound() async {
        #expect(defaultEventBufferLimit == 1_024)
        let hub = EventHub()
        let events = hub.subscribe()
        let sent = defaultEventBufferLimit + 50
        for index in 1...sent { hub.send(refused(index)) }
        hub.finish()
        let read = references(await drain(events))
        #expect(read.count == defaultEventBufferLimit)
        #expect(read.first == "order-51" && read.last == "order-\(sent)")
    }

    @Test("a subscriber that keeps up loses nothing, whatever its bound")
    func readerKeepingUpLosesNothing() async {
        let hub = EventHub()
        let events = hub.subscribe(bufferingNewest: 1)
        var iterator = events.makeAsyncIterator()
        var read: [TenderEvent] = []
        for index in 1...20 {
            hub.send(refused(index))
            if let event = await iterator.next() { read.append(event) }
        }
        #expect(references(read) == (1...20).map { "order-\($0)" })
    }

    @Test("the facade's subscriptions use the bound they are given")
    func facadeSubscriptions() async {
        let terminal = PaymentTerminal(processor: InMemoryPaymentProcessor(), scope: LedgerScope(merchantID: "m", locationID: "l"))
        let small = terminal.events(bufferingNewest: 2)
        let standard = terminal.events
        for index in 1...5 { terminal.hub.send(refused(index)) }
        terminal.hub.finish()
        #expect(references(await drain(small)) == ["order-4", "order-5"])
        #expect(references(await drain(standard)) == (1...5).map { "order-\($0)" })
    }
}
