import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOFoundationCompat
import Testing
import TenderServer
import TenderWire
@testable import MerchantServer

// The Hummingbird example of `Sources/Tender/Tender.docc/YourServer.md`, compiled and run here (this package has
// Hummingbird); Scripts/check-doc-snippets.py checks that the article's block is the text between the markers.

/// The example's device: its own authentication's result.
struct DocDevice: Sendable { var scope: LedgerScope }

/// The example's request context: Hummingbird's, with the authenticated device.
struct DeviceContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var device = DocDevice(scope: LedgerScope(merchantID: "", locationID: ""))
    init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
    init(logger: Logger) {
        struct Source: RequestContextSource { let logger: Logger }
        coreContext = .init(source: Source(logger: logger))
    }
}

/// The example's authentication: one till's bearer token, at `tml_A`.
struct DeviceAuthenticator: RouterMiddleware {
    func handle(_ request: Request, context: DeviceContext,
                next: (Request, DeviceContext) async throws -> Response) async throws -> Response {
        guard request.headers[.authorization] == "Bearer till-1" else { return Response(status: .unauthorized) }
        var context = context
        context.device = DocDevice(scope: LedgerScope(merchantID: "acct_doc", locationID: "tml_A"))
        return try await next(request, context)
    }
}

func mountTenderTheWayTheArticleDoes(_ router: Router<DeviceContext>, routes: TenderRoutes) {
    // doc-snippet YourServer.md hummingbird: begin
    @Sendable func tender(_ request: Request, context: DeviceContext) async throws -> Response {
        let body = try await request.body.collect(upTo: 65_536)
        let answer = await routes.respond(
            to: TenderHTTPRequest(method: request.method.rawValue, url: URL(string: request.uri.description)!,
                                  headers: Dictionary(request.headers.map { ($0.name.rawName, $0.value) },
                                                      uniquingKeysWith: { a, _ in a }),
                                  body: Data(buffer: body)),
            caller: context.device.scope)
        var headers = HTTPFields()
        for (name, value) in answer.headers { if let field = HTTPFields.Element.Name(name) { headers[field] = value } }
        return Response(status: .init(code: answer.status), headers: headers,
                        body: .init(byteBuffer: ByteBuffer(data: answer.body)))
    }
    router.group("tender").add(middleware: DeviceAuthenticator())
        .get("**", use: tender).post("**", use: tender)
    // doc-snippet YourServer.md hummingbird: end
}

@Suite("The article's Hummingbird example")
struct YourServerSnippetTests {
    @Test("mounted as the article shows, the routes answer the device of their location and refuse others")
    func mounted() async throws {
        let stripe = TestModeStripe()
        let intent = stripe.addIntent(location: "tml_A", amount: 1_500, status: "requires_capture")
        let router = Router(context: DeviceContext.self)
        mountTenderTheWayTheArticleDoes(router, routes: TenderRoutes(stripe: stripe.client, stripeAccountID: "acct_doc",
                                                                     mountPath: "/tender"))
        let responder = router.buildResponder()
        func call(_ path: String, token: String?) async throws -> (Int, String) {
            var head = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: path)
            if let token { head.headerFields[.authorization] = "Bearer \(token)" }
            let response = try await responder.respond(to: Request(head: head, body: .init(buffer: ByteBuffer())),
                                                       context: DeviceContext(logger: StoreKind.logger))
            let box = Collected()
            try await response.body.write(Collector(box: box))
            return (response.status.code, String(decoding: box.data, as: UTF8.self))
        }
        let found = try await call("/tender/v1/stripe/payment-intents/\(intent)", token: "till-1")
        #expect(found.0 == 200 && found.1.contains(intent))
        #expect(try await call("/tender/v1/stripe/payment-intents/\(intent)", token: nil).0 == 401)
        let missing = try await call("/tender/v1/stripe/payment-intents/pi_nobody", token: "till-1")
        #expect(missing.0 == 404 && missing.1.contains("unknown_reference"))
    }
}
