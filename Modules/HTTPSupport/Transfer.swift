import ConfigDomain
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What happens to a data task, in the order it happens.
enum TransferEvent: Sendable {
    /// The response head arrived (`nil` when the response is not HTTP); `decide` is told whether to read the body.
    case response(HTTPTransportResponse?, decide: @Sendable (URLSession.ResponseDisposition) -> Void)
    /// Body bytes arrived.
    case data(Data)
    /// The server redirects to `request`; `decide` is given the request to follow, or `nil` to stop.
    case redirect(URLRequest, decide: @Sendable (URLRequest?) -> Void)
    /// The task ended, with its transport error if any.
    case completed(TransferFailure?)
    /// The request's timeout passed.
    case deadlinePassed
}

/// One request in flight: reads its task's events, checks the response head, the redirects and the body size against
/// the request, and says how the transfer ended.
struct Transfer {
    /// The request, whose limits, redirect policy and wording apply.
    let request: HTTPTransportRequest

    /// Reads `events` until the task completes or the transfer has to stop; the stream ends early only when the
    /// calling task is cancelled.
    func run(_ events: AsyncStream<TransferEvent>) async throws(TransferFailure) -> HTTPTransportResponse {
        var head: HTTPTransportResponse?
        var body = Data()
        var visited: Set<String> = [request.url.absoluteString]
        var redirects = 0
        for await event in events {
            switch event {
            case .response(let received, let decide):
                head = received
                if let received, let refusal = refusal(of: received) {
                    decide(.cancel)
                    throw refusal
                }
                decide(.allow)
            case .data(let chunk):
                guard var response = head else { continue }
                if response.isPayload {
                    if body.count + chunk.count > request.maxBodySize { throw .bodyTooLarge(received: body.count + chunk.count) }
                    body.append(chunk)
                } else {
                    body.append(chunk.prefix(HTTPTransportResponse.detailLimit - body.count))
                    if body.count >= HTTPTransportResponse.detailLimit {
                        response.body = body
                        return response  // Enough for the details of an error: the rest is not read.
                    }
                }
            case .redirect(let next, let decide):
                redirects += 1
                // Without a target the redirect is not followed, and the 3xx is the answer.
                guard let target = next.url else {
                    decide(nil)
                    continue
                }
                if let refusal = refusal(ofRedirectTo: next, count: redirects, visited: &visited) {
                    decide(nil)
                    throw refusal
                }
                decide(EndpointPolicy.sameOrigin(request.url, target) ? next : withoutSecretHeaders(next))
            case .completed(let failure):
                return try completed(head: head, body: body, failure: failure)
            case .deadlinePassed:
                throw .deadline
            }
        }
        throw .cancelled
    }

    /// The response of a task that ended: the details of a status that is not a payload, whatever else happened;
    /// a payload only when it arrived whole.
    private func completed(
        head: HTTPTransportResponse?, body: Data, failure: TransferFailure?
    ) throws(TransferFailure) -> HTTPTransportResponse {
        guard var response = head else {
            throw failure ?? .transport(domain: NSURLErrorDomain, code: 0, description: "no HTTP response arrived")
        }
        response.body = body
        guard response.isPayload else { return response }
        if let expected = response.verifiableLength, body.count < expected {
            throw .truncated(expected: expected, received: body.count)
        }
        if let failure { throw failure }
        return response
    }

    /// Why the body of a response with this head is not read, or `nil` to read it.
    private func refusal(of head: HTTPTransportResponse) -> TransferFailure? {
        guard head.isPayload else { return nil }
        if let mediaType = MediaType.of(head.contentType) {
            if !request.acceptedContentTypes.contains(where: { MediaType.matches(mediaType, pattern: $0) }) {
                return .contentType(head.contentType, status: head.status)
            }
        } else if !request.acceptsMissingContentType {
            return .contentType(nil, status: head.status)
        }
        if let declared = head.verifiableLength, declared > request.maxBodySize {
            return .declaredTooLarge(declared: declared)
        }
        return nil
    }

    /// Why the `count`th redirect, `next`, is not followed, or `nil` to follow it.
    private func refusal(ofRedirectTo next: URLRequest, count: Int, visited: inout Set<String>) -> TransferFailure? {
        guard let target = next.url else { return nil }
        let firstVisit = visited.insert(target.absoluteString).inserted
        let policy = request.redirects
        if let reason = EndpointPolicy.refusal(for: target, allowsInsecureHTTP: policy.allowsInsecureHTTPForNonLoopbackHosts) {
            return .refusedRedirect(reason: reason)
        }
        if !firstVisit { return .redirectLoop(target: EndpointPolicy.displayString(for: target)) }
        if count > policy.maxRedirects { return .tooManyRedirects(limit: policy.maxRedirects) }
        #if canImport(FoundationNetworking)
            // swift-corelibs-foundation resends a 307 or 308 with the method but without the body (Content-Length: 0):
            // a request evaluated on an empty body would answer for another request.
            if request.body?.isEmpty == false, next.httpMethod == request.method {
                return .redirectDropsBody(target: EndpointPolicy.displayString(for: target))
            }
        #endif
        return nil
    }

    /// `next` without the request's secret headers, for a redirect to another origin.
    private func withoutSecretHeaders(_ next: URLRequest) -> URLRequest {
        var stripped = next
        for name in (next.allHTTPHeaderFields ?? [:]).keys where request.isSecret(headerName: name) {
            stripped.setValue(nil, forHTTPHeaderField: name)
        }
        return stripped
    }
}
