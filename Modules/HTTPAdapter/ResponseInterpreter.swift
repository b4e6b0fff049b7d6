import ConfigDomain
import ConfigPorts
import Foundation
import HTTPSupport

/// Turns how a transfer ended into a ``ConfigPorts/FetchResult`` or a typed ``ConfigDomain/FetchError``.
///
/// Pure: no I/O, so every branch is unit-testable.
struct ResponseInterpreter {
    /// The URL as shown in messages.
    var displayURL: String
    /// The fetcher's settings.
    var configuration: HTTPFetcher.Configuration
    /// The time `Retry-After: <seconds>` counts from.
    var now: Date

    /// The result, or why there is none.
    func result(for outcome: TransferOutcome, request: FetchRequest) throws(FetchError) -> FetchResult {
        if let abort = outcome.abort {
            throw error(for: abort, head: outcome.head)
        }
        guard let head = outcome.head else {
            throw error(for: outcome.failure ?? TransportFailure(domain: "", code: 0, description: "no response arrived"))
        }
        if let expected = head.verifiableLength, outcome.body.count < expected, head.status != 304 {
            throw FetchError(
                .truncatedBody(expected: expected, received: outcome.body.count), retry: .backoff,
                message: "the body from \(displayURL) ended after \(outcome.body.count) of the \(expected) bytes its "
                    + "Content-Length announced; the connection was cut or the server misreports the length")
        }
        if let failure = outcome.failure {
            throw error(for: failure)
        }
        switch head.status {
        case 304:
            return .notModified(
                Validators(
                    etag: head.etag ?? request.validators.etag,
                    lastModified: head.lastModified ?? request.validators.lastModified))
        case 200..<300 where head.status != 206:
            return .modified(try payload(head: head, body: outcome.body))
        default:
            throw statusError(head)
        }
    }

    private func payload(head: ResponseHead, body: Data) throws(FetchError) -> FetchedPayload {
        guard !body.isEmpty else {
            throw FetchError(
                .emptyBody, retry: .backoff,
                message: "the server at \(displayURL) answered \(head.status) with an empty body; a configuration "
                    + "payload was expected (is the file being deployed, or empty?)")
        }
        if let format = configuration.validatePayload {
            do throws(PayloadError) {
                _ = try format.decode(body)
            } catch {
                throw FetchError(
                    .invalidPayload, retry: .doNotRetry,
                    message: "the body from \(displayURL) does not decode: \(error); fix the payload on the server")
            }
        }
        let ttl =
            configuration.honorsCacheControlMaxAge
            ? ResponseHeaderParsing.maxAge(cacheControl: head.cacheControl, age: head.age) : nil
        return FetchedPayload(
            bytes: body, validators: Validators(etag: head.etag, lastModified: head.lastModified),
            contentType: head.contentType, ttlHint: ttl, source: displayURL,
            signature: configuration.signatureTransport == .header ? head.signature : nil)
    }

    private func error(for abort: TransferAbort, head: ResponseHead?) -> FetchError {
        switch abort {
        case .callerCancelled:
            return .cancelled
        case .deadline:
            return FetchError(
                .timeout, retry: .backoff,
                message: "no complete answer from \(displayURL) within the timeout of \(seconds(configuration.timeout)); "
                    + "the server or the network is slow")
        case .bodyTooLarge(let count):
            return FetchError(
                .bodyTooLarge(limit: configuration.maxBodySize), retry: .doNotRetry,
                message: "the body from \(displayURL) passed the limit of \(configuration.maxBodySize) bytes "
                    + "(aborted after \(count) bytes); shrink the payload or raise maxBodySize")
        case .declaredTooLarge(let declared):
            return FetchError(
                .bodyTooLarge(limit: configuration.maxBodySize), retry: .doNotRetry,
                message: "the server at \(displayURL) announced a body of \(declared) bytes, over the limit of "
                    + "\(configuration.maxBodySize) bytes, so it was not downloaded; shrink the payload or raise maxBodySize")
        case .status:
            guard let head else { return FetchError(.other, retry: .backoff, message: "no response from \(displayURL)") }
            return statusError(head)
        case .contentType:
            let type = head?.contentType
            return FetchError(
                .unsupportedContentType(type), retry: .backoff,
                message: "the server at \(displayURL) sent "
                    + (type.map { "content type \"\($0)\"" } ?? "no content type")
                    + ", which is not one of \(configuration.acceptedContentTypes.joined(separator: ", ")); "
                    + "fix the server's Content-Type or add it to acceptedContentTypes (a captive portal's login page looks like this)"
            )
        case .redirectLoop(let target):
            return FetchError(
                .redirectLoop, retry: .doNotRetry,
                message: "redirects from \(displayURL) went round in a loop (back to \(target)); fix the server's redirects")
        case .tooManyRedirects(let limit):
            return FetchError(
                .redirectLoop, retry: .doNotRetry,
                message: "redirects from \(displayURL) went past the limit of \(limit); fix the server's redirects "
                    + "or point the fetcher at the final URL")
        case .refusedRedirect(let reason):
            return FetchError(
                .insecureURL, retry: .doNotRetry,
                message: "the server at \(displayURL) redirected to a URL that is refused: \(reason)")
        }
    }

    private func statusError(_ head: ResponseHead) -> FetchError {
        let status = head.status
        let answered = "the server at \(displayURL) answered HTTP \(status)"
        let retryAt = RetryAfter.date(head.retryAfter, now: now)
        if let transient = FetchError.transient(status: status, answered: answered, retryAt: retryAt) { return transient }
        switch status {
        case 401, 403:
            return FetchError(
                .httpStatus(status), retry: .doNotRetry,
                message:
                    "\(answered) (\(status == 401 ? "unauthorized" : "forbidden")); check the credentials in the headers or the header provider"
            )
        case 404, 410:
            return FetchError(.httpStatus(status), retry: .doNotRetry, message: "\(answered) (not found); check the URL")
        case 300..<400:
            return FetchError(
                .httpStatus(status), retry: .doNotRetry,
                message: "\(answered), a redirect that could not be followed (no usable Location)")
        default:
            return FetchError(
                .httpStatus(status), retry: .doNotRetry,
                message: "\(answered); retrying will not help until the server or the request changes")
        }
    }

    private func error(for failure: TransportFailure) -> FetchError {
        let detail = "\(failure.description) (\(failure.domain) \(failure.code))"
        switch failure.code {
        case -999:
            return .cancelled
        case -1001:
            return FetchError(
                .timeout, retry: .backoff,
                message: "no answer from \(displayURL) within the timeout of \(seconds(configuration.timeout)): \(detail)")
        case -1007:
            return FetchError(
                .redirectLoop, retry: .doNotRetry,
                message: "redirects from \(displayURL) went past the session's limit: \(detail); fix the server's redirects")
        case -1000, -1002:
            return FetchError(.other, retry: .doNotRetry, message: "the URL \(displayURL) cannot be fetched: \(detail)")
        default:
            return FetchError(
                .transport, retry: .backoff,
                message: "could not fetch \(displayURL): \(detail); check the network, the host name and that the server is up")
        }
    }

    private func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() && value < 1e9 ? "\(Int(value)) s" : "\(value) s"
    }
}
