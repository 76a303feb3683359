import Foundation
import Tender
import TenderTesting

/// Random and malformed requests through both real adapters on their simulators (any offline policy, the network
/// toggling): every refusal is a `PaymentError` of the validation or routing phase; afterwards, with everything
/// forwarded and recovered, the ledger must agree with both processors.
func fuzzThroughAdapters(iterations: Int, random: inout SeededGenerator, report: inout FuzzReport) async {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("tender-chaos-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.removeItem(at: directory)
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let world: World
    do {
        world = try await World(directory: directory, seed: random.next(), persistsSimulators: false)
        try await world.connectReaders()
    } catch {
        report.tally.crashes += 1
        report.tally.note("fuzz: adapters setup failed: \(error)")
        return
    }
    world.startEventPumps()
    var stripeOnline = true
    var squareOnline = true
    for index in 0..<iterations {
        world.advance(by: 1)
        if random.chance(0.1) {
            stripeOnline.toggle()
            await world.setStripeNetwork(stripeOnline ? .disabled : .offlineImmediate)
        }
        if random.chance(0.1) {
            squareOnline.toggle()
            await world.setSquareNetwork(squareOnline ? .online : .offline)
        }
        var request = randomRequest(100_000 + index, &random)
        request.offlinePolicy = OfflinePolicy.allCases.randomElement(using: &random)!
        let terminal = random.chance(0.5) ? world.stripeTerminal : world.squareTerminal
        report.adapterRequests += 1
        do {
            _ = try await terminal.takePayment(request)
        } catch let error as PaymentError {
            // A total above the processor's own maximum (Stripe: eight digits of minor units) is refused before it.
            let aboveProcessorMaximum = await terminal.processor.capabilities().amountLimits
                .flatMap { $0.maximum(for: request.amount.currency) }
                .map { maximum in ((try? request.total().minorUnits) ?? .max) > maximum } ?? false
            if ![.validation, .routing].contains(error.phase) {
                report.tally.mismatch("fuzz: \(terminal.processor.name) refused in phase \(error.phase): \(error.message)")
            } else if expectedValid(request), error.phase == .validation, error.code != .invalidCurrency,
                      error.code != .invalidRequest, error.code != .invalidMetadata,
                      !(aboveProcessorMaximum && error.code == .invalidAmount) {
                // A request valid for Tender may still be one the processor cannot take (currency, manual
                // capture, tip, metadata for Square, which keeps none); anything else refused at validation is a
                // violation.
                report.tally.mismatch("fuzz: \(terminal.processor.name) refused a valid request: \(error.code) \(error.message)")
            }
        } catch {
            report.tally.crashes += 1
            report.tally.note("fuzz: \(terminal.processor.name) threw a non-PaymentError: \(error)")
        }
    }
    await world.forwardEverything()
    world.stopEventPumps()
    for (_, terminal) in world.terminals { _ = await terminal.recover() }
    for (_, terminal) in world.terminals {
        for session in (try? await terminal.sessions()) ?? [] where session.isReadyToCapture {
            _ = try? await terminal.capture(reference: session.reference)
        }
    }
    var tally = await compare(world: world, label: "fuzz adapters", prefix: "z")
    tally.payments = 0
    tally.chargesChecked = 0
    tally.refundsChecked = 0
    report.tally.add(tally)
    await world.close()
}
