import Foundation
import TenderWire

/// How one REST call failed, before it is turned into a ``TenderWire/PaymentError``: the clients branch on it (a
/// capture refused because it already happened is checked against the server's copy).
enum ServerFailure: Error {
    /// No HTTP answer.
    case transport(HTTPTransportError)
    /// An HTTP error answer, with the vendor's error decoded (`code`, `category`/`type`…).
    case api(status: Int, vendor: VendorDetails)
    /// An answer that could not be decoded (a success body of the wrong shape, or an error without the vendor's
    /// error object).
    case undecodable(status: Int, requestID: String?, what: String)

    /// A vendor error, as both vendors describe one.
    struct VendorDetails: Hashable {
        /// Stripe `code` / Square `code`, when given.
        var code: String?
        /// Stripe `type` / Square `category`.
        var category: String?
        /// Stripe `decline_code`.
        var declineCode: String?
        /// The vendor's message (already scrubbed of the credential).
        var message: String?
        /// Stripe `param` / Square `field`.
        var field: String?
        /// The vendor's request id.
        var requestID: String?
    }

    /// The HTTP status, when an answer came.
    var status: Int? {
        switch self {
        case .transport: nil
        case .api(let status, _), .undecodable(let status, _, _): status
        }
    }

    /// The vendor's code, when one was decoded.
    var vendorCode: String? { if case .api(_, let vendor) = self { vendor.code } else { nil } }
}

/// The transport and HTTP-status part of the error mapping, shared by both vendors; each vendor's table handles
/// the codes it knows first.
enum ServerErrorMapping {
    /// The error for a failure without a vendor code the vendor table knows.
    static func generic(_ failure: ServerFailure, processor: String, operation: String, phase: PaymentError.Phase)
        -> PaymentError {
        switch failure {
        case .transport(let error):
            let vendor = PaymentError.VendorError(processor: processor, name: "transport.\(error.kind.rawValue)",
                                                  message: error.message)
            if error.neverSent {
                return PaymentError(.networkUnavailable, recovery: .waitAndRetry, phase: phase,
                                    message: "\(operation) could not reach \(processor)'s server; nothing was sent.",
                                    vendor: vendor)
            }
            return PaymentError(.timedOut, recovery: .retrySamePayment, phase: phase,
                                message: "\(operation) got no answer from \(processor)'s server: whether it took effect is not known. Retrying sends the same request (same idempotency key).",
                                vendor: vendor)
        case .undecodable(let status, let requestID, let what):
            let vendor = PaymentError.VendorError(processor: processor, name: "http_\(status)", message: what,
                                                  requestID: requestID)
            let known = (200..<300).contains(status)
            return PaymentError(known ? .unexpected : .outcomeUnknown, recovery: .retrySamePayment, phase: phase,
                                message: "\(operation): \(processor)'s server answered HTTP \(status) with a body Tender cannot read (\(what)).",
                                vendor: vendor)
        case .api(let status, let details):
            let vendor = vendorError(details, processor: processor, status: status)
            let (code, recovery): (PaymentError.Code, PaymentError.Recovery) = switch status {
            case 401, 403: (.notAuthorized, .fixIntegration)
            case 402: (.cardDeclined, .collectAnotherCard)
            case 404: (.unknownReference, .fixRequest)
            case 409: (.paymentInProgress, .waitAndRetry)
            case 429: (.rateLimited, .waitAndRetry)
            case 500...: (.outcomeUnknown, .retrySamePayment)
            default: (.unrecognizedVendorError, .retrySamePayment)
            }
            return PaymentError(code, recovery: recovery, phase: phase,
                                message: "\(operation) was refused by \(processor) (HTTP \(status)\(details.code.map { ", \($0)" } ?? "")): \(details.message ?? "no message").",
                                vendor: vendor)
        }
    }

    /// The vendor record for decoded details.
    static func vendorError(_ details: ServerFailure.VendorDetails, processor: String, status: Int)
        -> PaymentError.VendorError {
        PaymentError.VendorError(processor: processor, name: details.code ?? details.category ?? "http_\(status)",
                                 message: details.message, declineCode: details.declineCode,
                                 category: details.category, field: details.field, requestID: details.requestID)
    }
}
