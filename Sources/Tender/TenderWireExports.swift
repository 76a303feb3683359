// The wire types the device and the app's server share (money, references, idempotency keys, capture, void and
// refund requests and results, lookup results, `PaymentError`) live in the dependency-free `TenderWire` module, which
// `TenderServer` uses without the core. Re-exported here so that `import Tender` brings them as before.
@_exported public import TenderWire
