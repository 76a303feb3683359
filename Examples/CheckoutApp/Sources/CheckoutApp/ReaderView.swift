#if canImport(SwiftUI)
import SwiftUI
import Tender
import TenderUI

/// Finds and connects a reader; shows its status, battery and software-update progress.
struct ReaderView: View {
    let model: TerminalModel

    var body: some View {
        List {
            Section("Connected") {
                if let reader = model.reader {
                    LabeledContent(reader.model, value: reader.serialNumber ?? reader.id)
                    if let battery = reader.batteryLevel { ProgressView("Battery", value: battery) }
                    Button("Disconnect") { Task { await model.disconnect() } }
                } else {
                    Text(model.readerStatus.rawValue)
                }
                if let update = model.softwareUpdate {
                    LabeledContent("Update \(update.version)", value: update.isRequired ? "required" : "optional")
                }
                if let progress = model.updateProgress { ProgressView("Updating", value: progress) }
            }
            Section("Nearby") {
                ForEach(model.discoveredReaders) { reader in
                    Button(reader.serialNumber ?? reader.id) { Task { await model.connect(reader) } }
                }
                if model.readerStatus == .discovering {
                    Button("Stop") { model.stopDiscovery() }
                } else {
                    Button("Find readers") { Task { await model.discoverReaders() } }
                }
            }
        }
    }
}
#endif
