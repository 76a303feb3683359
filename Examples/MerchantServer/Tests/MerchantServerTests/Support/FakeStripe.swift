@testable import MerchantServer

/// The tests' vendor: the package's in-process test-mode Stripe.
typealias FakeStripe = TestModeStripe
