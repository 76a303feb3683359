import Testing

@Suite("Declaration normalizer")
struct DeclarationNormalizerTests {
    let normalizer = SquareSurfaceAllowances.current.normalizer

    @Test("reference and compiler spellings of one declaration are equal", arguments: [
        ("@objc var location: Location? { get }", "var location: (any Location)? { get }"),
        ("@objc func add(_ authorizationStateObserver: AuthorizationStateObserver)",
         "func add(_ authorizationStateObserver: any AuthorizationStateObserver)"),
        ("@objc(getPayments:) func getPayments(completion: @escaping ([OfflinePayment], Error?) -> Void)",
         "func getPayments(completion: @escaping ([any OfflinePayment], (any Error)?) -> Void)"),
        ("@objc optional func paymentManager(_ paymentManager: PaymentManager, didStart payment: Payment)",
         "func paymentManager(_ paymentManager: any PaymentManager, didStart payment: any Payment)"),
        ("convenience override init()", "override convenience init()"),
        ("var dictionaryRepresentation: [String : Any] { get }", "var dictionaryRepresentation: [String: Any] { get }"),
        ("@objc var environment: MobilePaymentsSDKAPI.Environment { get }", "var environment: Environment { get }"),
        ("convenience init(totaling monies: MoneyAmount?...)", "convenience init(totaling monies: (any MoneyAmount)?...)"),
        ("@objc(SQMPSDKManager) protocol SDKManager : NSObjectProtocol", "protocol SDKManager : NSObjectProtocol"),
    ])
    func equal(reference: String, compiler: String) {
        #expect(normalizer.normalize(reference) == normalizer.normalize(compiler))
    }

    @Test("the enclosing type's qualification of its own associated types is dropped")
    func selfQualification() {
        #expect(normalizer.normalize("@objc let rawValue: RawValue", enclosingType: "CardInputMethods")
            == normalizer.normalize("let rawValue: CardInputMethods.RawValue", enclosingType: "CardInputMethods"))
    }

    @Test("meaningful differences survive normalization", arguments: [
        ("@objc var id: String? { get }", "var id: String { get }"),
        ("static var shared: SDKManager { get }", "var shared: any SDKManager { get }"),
        ("@discardableResult @objc func stop() -> Bool", "func stop() -> Bool"),
        ("@objc func triggerPayment(with source: PaymentSource) throws",
         "func triggerPayment(with source: any PaymentSource)"),
        ("@objc var amount: UInt { get }", "var amount: UInt { get set }"),
        ("@objc let mode: PromptMode", "var mode: PromptMode"),
        ("@objc func forget(_ readerInfo: ReaderInfo)", "func forget(readerInfo: any ReaderInfo)"),
        ("@objc func getIdempotencyKey(paymentAttemptId: String) -> String?",
         "func getIdempotencyKey(withPaymentAttemptId paymentAttemptId: String) -> String?"),
    ])
    func different(reference: String, compiler: String) {
        #expect(normalizer.normalize(reference) != normalizer.normalize(compiler))
    }
}
