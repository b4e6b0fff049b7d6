import ConfigDomain
import Foundation

/// Why a transfer gave no usable response: what the network did, or why the transport stopped it.
enum TransferFailure: Error, Sendable, Hashable {
    /// The connection failed: the error's domain (usually `NSURLErrorDomain`), code (`-1004`) and description.
    case transport(domain: String, code: Int, description: String)
    /// The request's timeout passed.
    case deadline
    /// The payload grew past the limit after `received` bytes.
    case bodyTooLarge(received: Int)
    /// `Content-Length` announced more than the limit.
    case declaredTooLarge(declared: Int)
    /// The payload of this status has a content type the request does not accept (`nil`: none).
    case contentType(String?, status: Int)
    /// The payload ended before the length its `Content-Length` announced.
    case truncated(expected: Int, received: Int)
    /// A redirect went back to a URL already visited.
    case redirectLoop(target: String)
    /// More redirects than the policy allows.
    case tooManyRedirects(limit: Int)
    /// A redirect led to a URL the endpoint policy refuses, for this reason.
    case refusedRedirect(reason: String)
    /// A redirect that keeps the method would lose the body on the way (swift-corelibs-foundation resends none).
    case redirectDropsBody(target: String)
    /// The calling task was cancelled.
    case cancelled
}

extension HTTPTransportRequest {
    /// The error for `failure`, in the request's wording; secret header values and the raw URL never appear in it.
    func error(for failure: TransferFailure) -> FetchError {
        let error = unredactedError(for: failure)
        var shown = redactor.redact(error)
        shown.message = shown.message.replacingOccurrences(of: url.absoluteString, with: wording.url)
        return shown
    }

    private func unredactedError(for failure: TransferFailure) -> FetchError {
        let subject = wording.subject
        switch failure {
        case .transport(let domain, let code, let description):
            return transportError(domain: domain, code: code, description: description)
        case .deadline:
            return FetchError(
                .timeout, retry: .backoff,
                message: "no complete answer from \(subject) within the timeout of \(Self.seconds(timeout)); the server or "
                    + "the network is slow (\(wording.timeoutAdvice))")
        case .bodyTooLarge(let received):
            return FetchError(
                .bodyTooLarge(limit: maxBodySize), retry: .doNotRetry,
                message: "the body from \(subject) passed the limit of \(maxBodySize) bytes (aborted after \(received) "
                    + "bytes); \(wording.bodyLimitAdvice)")
        case .declaredTooLarge(let declared):
            return FetchError(
                .bodyTooLarge(limit: maxBodySize), retry: .doNotRetry,
                message: "\(subject) announced a body of \(declared) bytes, over the limit of \(maxBodySize) bytes, so it "
                    + "was not downloaded; \(wording.bodyLimitAdvice)")
        case .contentType(let type, let status):
            let sent = type.map { "content type \"\(Self.printable($0))\"" } ?? "no content type"
            return FetchError(
                .unsupportedContentType(type), retry: .backoff,
                message: "\(subject) answered \(status) with \(sent), which is not one of "
                    + "\(acceptedContentTypes.joined(separator: ", ")); \(wording.contentTypeAdvice) (a captive portal's "
                    + "login page looks like this)")
        case .truncated(let expected, let received):
            return FetchError(
                .truncatedBody(expected: expected, received: received), retry: .backoff,
                message: "the body from \(subject) ended after \(received) of the \(expected) bytes its Content-Length "
                    + "announced; the connection was cut or the server misreports the length")
        case .redirectLoop(let target):
            return FetchError(
                .redirectLoop, retry: .doNotRetry,
                message: "redirects from \(subject) went round in a loop (back to \(target)); fix the server's redirects")
        case .tooManyRedirects(let limit):
            return FetchError(
                .redirectLoop, retry: .doNotRetry,
                message: "redirects from \(subject) went past the limit of \(limit); fix the server's redirects or use "
                    + "the final URL")
        case .refusedRedirect(let reason):
            return FetchError(
                .insecureURL, retry: .doNotRetry, message: "\(subject) redirected to a URL that is refused: \(reason)")
        case .redirectDropsBody(let target):
            return FetchError(
                .other, retry: .doNotRetry,
                message: "\(subject) redirected the \(method) to \(target) keeping the method, and this platform's URLSession "
                    + "would send it there without its body; use the URL it redirects to")
        case .cancelled:
            return .cancelled
        }
    }

    /// The error for a failed connection: a timeout, a redirect limit, a URL that cannot be fetched, or a network problem.
    private func transportError(domain: String, code: Int, description: String) -> FetchError {
        let detail = "\(description) (\(domain) \(code))"
        switch code {
        case -999:
            return .cancelled
        case -1001:
            return FetchError(
                .timeout, retry: .backoff,
                message: "no answer from \(wording.subject) within the timeout of \(Self.seconds(timeout)): \(detail)")
        case -1007:
            return FetchError(
                .redirectLoop, retry: .doNotRetry,
                message: "redirects from \(wording.subject) went past the session's limit: \(detail); fix the server's "
                    + "redirects")
        case -1000, -1002:
            return FetchError(.other, retry: .doNotRetry, message: "the URL \(wording.url) cannot be fetched: \(detail)")
        default:
            return FetchError(
                .transport, retry: .backoff,
                message: "could not reach \(wording.subject): \(detail); check the network, the host name and that the "
                    + "server is up")
        }
    }

    /// `15 s`, or `0.5 s`.
    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() && value < 1e9 ? "\(Int(value)) s" : "\(value) s"
    }

    /// `text` with anything but printable ASCII shown as `?`.
    static func printable(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
    }
}
