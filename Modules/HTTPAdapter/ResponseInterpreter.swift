import ConfigDomain
import ConfigPorts
import Foundation
import HTTPSupport

/// Turns the response to a conditional GET into a ``ConfigPorts/FetchResult`` or a typed ``ConfigDomain/FetchError``.
///
/// Pure: no I/O, so every branch is unit-testable. The transport has already enforced the limits, the content types
/// and the redirect policy; what is left is the fetcher's own: validators, the payload check, the TTL and the signature.
struct ResponseInterpreter {
    /// The URL as shown in messages.
    var displayURL: String
    /// The fetcher's settings.
    var configuration: HTTPFetcher.Configuration
    /// The time `Retry-After: <seconds>` counts from.
    var now: Date

    /// The result, or why there is none.
    func result(for response: HTTPTransportResponse, request: FetchRequest) throws(FetchError) -> FetchResult {
        switch response.status {
        case 304:
            return .notModified(response.validators(fallingBackTo: request.validators))
        case _ where response.isPayload:
            return .modified(try payload(response))
        default:
            throw FetchError.forStatus(of: response, wording: HTTPFetcher.wording(for: displayURL), now: now)
        }
    }

    private func payload(_ response: HTTPTransportResponse) throws(FetchError) -> FetchedPayload {
        guard !response.body.isEmpty else {
            throw FetchError(
                .emptyBody, retry: .backoff,
                message: "the server at \(displayURL) answered \(response.status) with an empty body; a configuration "
                    + "payload was expected (is the file being deployed, or empty?)")
        }
        if let format = configuration.validatePayload {
            do throws(PayloadError) {
                _ = try format.decode(response.body)
            } catch {
                throw FetchError(
                    .invalidPayload, retry: .doNotRetry,
                    message: "the body from \(displayURL) does not decode: \(error); fix the payload on the server")
            }
        }
        let ttl =
            configuration.honorsCacheControlMaxAge
            ? ResponseHeaderParsing.maxAge(cacheControl: response.header("Cache-Control"), age: response.header("Age"))
            : nil
        return FetchedPayload(
            bytes: response.body, validators: response.validators, contentType: response.contentType, ttlHint: ttl,
            source: displayURL,
            signature: configuration.signatureTransport == .header
                ? response.header(HTTPFetcher.SignatureTransport.headerName) : nil)
    }
}
