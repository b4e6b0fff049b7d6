import ConfigDomain
import ConfigPorts
import Foundation
import HTTPSupport

/// The signature file next to a payload (``HTTPFetcher/SignatureTransport/sidecar(suffix:)``),
/// fetched after each `200` of the payload.
struct SidecarSignature {
    /// The `Accept` header of the signature file's request: text, or anything.
    static let accept = "text/plain, */*"
    /// The signature file's URL.
    let url: URL
    /// The URL as messages show it.
    let displayURL: String

    /// The sidecar of `payloadURL`: its path plus `suffix`, the query kept; nil when the URL cannot be rebuilt.
    init?(payloadURL: URL, suffix: String) {
        guard var components = URLComponents(url: payloadURL, resolvingAgainstBaseURL: false) else { return nil }
        components.percentEncodedPath += suffix
        components.fragment = nil
        guard let url = components.url else { return nil }
        self.url = url
        displayURL = EndpointPolicy.displayString(for: url)
    }

    /// Gives the payload's request for this file the sidecar's limits: any content type, a small body, and
    /// `Accept` for text (the payload's JSON types would let a strict server answer 406).
    func limit(_ request: inout HTTPTransportRequest) {
        request.acceptedContentTypes = ["*/*"]
        request.acceptsMissingContentType = true
        request.maxBodySize = HTTPFetcher.SignatureTransport.sidecarByteLimit
        request.setHeader("Accept", Self.accept)
    }

    /// The signature text (surrounding whitespace and line ends removed), or nil when the server has
    /// none: a `404`, a `410` or an empty file.
    func fetch(_ request: HTTPTransportRequest, with transport: any HTTPTransport, now: Date) async throws(FetchError) -> String?
    {
        let response = try await transport.send(request)
        switch response.status {
        case 404, 410:
            return nil
        case 304:
            throw FetchError(
                .other, retry: .backoff,
                message: "the server at \(displayURL) answered \"not modified\" to an unconditional request for the "
                    + "signature file; check the server or a cache in front of it")
        case _ where response.isPayload:
            let text = String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? nil : text
        default:
            throw FetchError.forStatus(of: response, wording: HTTPFetcher.wording(for: displayURL), now: now)
        }
    }
}
