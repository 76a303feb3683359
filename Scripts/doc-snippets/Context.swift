// The names the documentation's Swift examples take from their surroundings (an app's server client, a ledger's
// file, the terminal made earlier in the same article…), declared once so that each example type-checks against the
// public API as it is. Compiled beside every example by Scripts/check-doc-snippets.py; never run: a value nobody
// could have here is a `fatalError()`. Nothing in the package uses this file.
import Foundation
import Tender
import TenderBackend

/// "Your server": on the device, `TenderBackendClient` is the capture, lookup and refund service the examples pass.
let myServer = TenderBackendClient(baseURL: URL(string: "https://pos.example.com/tender")!) { [:] }
/// Where the app keeps its ledger, in its Application Support directory.
let applicationSupport = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0]
let ledgerURL = applicationSupport.appending(path: "ledger.sqlite")
/// The scope and limits an article set up before its example.
let scope = LedgerScope(merchantID: "acct_123", locationID: "tml_456")
let limits = OfflineRiskLimits.none
/// The processor and the terminal an article made before its example.
var processor: any PaymentProcessor { fatalError("type-checked, never run") }
var terminal: PaymentTerminal { fatalError("type-checked, never run") }
/// The readers a discovery screen shows.
@MainActor var found: [String: Reader] = [:]

/// What an app's own sign-in hands over (Square: an OAuth access token and a location id).
struct SignIn { var accessToken: String; var locationID: String }
let signIn = SignIn(accessToken: "EAAA…", locationID: "L…")

/// A server's environment and secret store.
let env: [String: String] = [:]
struct Secrets { func squareOAuthToken(merchant: String) async throws -> String { "" } }
let secrets = Secrets()

/// The device's own authentication with the app's server.
struct DeviceSession { func deviceToken() async throws -> String { "" } }
let session = DeviceSession()
