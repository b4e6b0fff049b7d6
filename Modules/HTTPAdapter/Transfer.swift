import Foundation
import HTTPSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why the fetcher stopped a transfer itself.
enum TransferAbort: Sendable, Hashable {
    /// The calling task was cancelled.
    case callerCancelled
    /// ``HTTPFetcher/Configuration/timeout`` passed.
    case deadline
    /// The body grew past the limit after `received` bytes.
    case bodyTooLarge(received: Int)
    /// `Content-Length` announced more than the limit.
    case declaredTooLarge(declared: Int)
    /// The status is not one the fetcher reads a body for.
    case status
    /// The content type is not accepted.
    case contentType
    /// A redirect went back to a URL already visited.
    case redirectLoop(target: String)
    /// More redirects than allowed.
    case tooManyRedirects(limit: Int)
    /// A redirect led to a URL the endpoint policy refuses.
    case refusedRedirect(reason: String)
}

/// The transport-level error a transfer ended with, copied out of `NSError`.
struct TransportFailure: Sendable, Hashable {
    /// The error domain, usually `NSURLErrorDomain`.
    var domain: String
    /// The error code, for example `-1004` (cannot connect).
    var code: Int
    /// The error's own description.
    var description: String
}

/// How one transfer ended: what arrived, and why it stopped if it did not finish cleanly.
struct TransferOutcome: Sendable {
    /// The response head, when one arrived.
    var head: ResponseHead?
    /// The body bytes received (complete only when there is no failure and no abort).
    var body: Data
    /// The transport error, if any.
    var failure: TransportFailure?
    /// Why the fetcher stopped the transfer itself, if it did.
    var abort: TransferAbort?
}

/// What happens to a data task, in the order it happens.
enum TaskEvent: Sendable {
    /// The response head arrived (`nil` when the response is not HTTP); `decide` is told whether to read the body.
    case response(ResponseHead?, decide: @Sendable (URLSession.ResponseDisposition) -> Void)
    /// Body bytes arrived.
    case data(Data)
    /// The server redirects to `request`; `decide` is given the request to follow, or `nil` to stop.
    case redirect(URLRequest, decide: @Sendable (URLRequest?) -> Void)
    /// The task ended, with its transport error if any.
    case completed(TransportFailure?)
    /// ``HTTPFetcher/Configuration/timeout`` passed.
    case deadlinePassed
}

/// One request in flight: reads its task's events, checks the response head, redirects and body
/// size against the configuration, and says how the transfer ended.
struct Transfer {
    /// The URL first requested: redirects are compared with its origin.
    let url: URL
    /// The fetcher's settings.
    let configuration: HTTPFetcher.Configuration

    /// Reads `events` until the task completes or the transfer has to stop.
    ///
    /// The stream ends early only when the calling task is cancelled.
    func run(_ events: AsyncStream<TaskEvent>) async -> TransferOutcome {
        var head: ResponseHead?
        var body = Data()
        var visited: Set<String> = [url.absoluteString]
        var redirects = 0
        func stop(_ abort: TransferAbort) -> TransferOutcome {
            TransferOutcome(head: head, body: body, failure: nil, abort: abort)
        }

        for await event in events {
            switch event {
            case .response(let received, let decide):
                head = received
                if let received, let abort = decision(for: received) {
                    decide(.cancel)
                    return stop(abort)
                }
                decide(.allow)
            case .data(let chunk):
                if body.count + chunk.count > configuration.maxBodySize {
                    return stop(.bodyTooLarge(received: body.count + chunk.count))
                }
                body.append(chunk)
            case .redirect(let request, let decide):
                redirects += 1
                // Without a target the redirect is not followed, and the 3xx is the answer.
                guard let target = request.url else {
                    decide(nil)
                    continue
                }
                if let abort = refusal(ofRedirectTo: target, count: redirects, visited: &visited) {
                    decide(nil)
                    return stop(abort)
                }
                decide(EndpointPolicy.sameOrigin(url, target) ? request : withoutSecretHeaders(request))
            case .completed(let failure):
                return TransferOutcome(head: head, body: body, failure: failure, abort: nil)
            case .deadlinePassed:
                return stop(.deadline)
            }
        }
        return stop(.callerCancelled)
    }

    /// Why the body of a response with this head is not read, or `nil` to read it.
    private func decision(for head: ResponseHead) -> TransferAbort? {
        switch head.status {
        case 304:
            return nil
        case 200..<300 where head.status != 206:
            if let mediaType = ResponseHeaderParsing.mediaType(head.contentType) {
                let accepted = configuration.acceptedContentTypes.contains {
                    ResponseHeaderParsing.matches(mediaType, pattern: $0)
                }
                if !accepted { return .contentType }
            } else if !configuration.acceptsMissingContentType {
                return .contentType
            }
            if let declared = head.verifiableLength, declared > configuration.maxBodySize {
                return .declaredTooLarge(declared: declared)
            }
            return nil
        default:
            return .status
        }
    }

    /// Why the `count`th redirect, to `target`, is not followed, or `nil` to follow it.
    private func refusal(ofRedirectTo target: URL, count: Int, visited: inout Set<String>) -> TransferAbort? {
        let firstVisit = visited.insert(target.absoluteString).inserted
        if let reason = EndpointPolicy.refusal(
            for: target, allowsInsecureHTTP: configuration.allowsInsecureHTTPForNonLoopbackHosts)
        {
            return .refusedRedirect(reason: reason)
        }
        if !firstVisit { return .redirectLoop(target: EndpointPolicy.displayString(for: target)) }
        if count > configuration.maxRedirects { return .tooManyRedirects(limit: configuration.maxRedirects) }
        return nil
    }

    /// `request` without its secret headers, for a redirect to another origin.
    private func withoutSecretHeaders(_ request: URLRequest) -> URLRequest {
        var stripped = request
        for name in (request.allHTTPHeaderFields ?? [:]).keys where configuration.isSecret(headerName: name) {
            stripped.setValue(nil, forHTTPHeaderField: name)
        }
        return stripped
    }
}
