public import Foundation
import Tender

/// Where a simulator keeps its "processor side" (what the vendor's servers and the device's SDK store hold), so
/// that a crash test can restart the app and compare Tender's ledger with what the processor really has.
///
/// Writes are atomic (write to a temporary file, then rename) and owner-only.
public struct SimulatorStateFile<State: Codable & Sendable>: Sendable {
    /// The file.
    public let url: URL

    /// Uses `url` for the state.
    public init(url: URL) { self.url = url }

    /// Reads the state, or `nil` if the file does not exist.
    /// - Throws: a decoding error if the file exists but is not a valid state.
    public func load() throws -> State? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data = try Data(contentsOf: url)
        return try JSONDecoder().decode(State.self, from: data)
    }

    /// Writes the state atomically.
    public func save(_ state: State) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(state)
        let temporary = url.appendingPathExtension("tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data,
                                             attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        guard Foundation.rename(temporary.path, url.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }
}
