/// The names the server half used before its HTTP types were named ``TenderHTTPRequest`` and ``TenderHTTPResponse``
/// (issue 29): Hummingbird re-exports `HTTPTypes.HTTPRequest`/`HTTPResponse`, and `TenderServer.HTTPRequest` could not
/// disambiguate because the module also holds a type named `TenderServer`. Kept at `package` access only, so the
/// package's own code reads as before while an app that imports TenderServer beside Hummingbird sees no clash.
package typealias HTTPRequest = TenderHTTPRequest
/// See ``HTTPRequest``.
package typealias HTTPResponse = TenderHTTPResponse
