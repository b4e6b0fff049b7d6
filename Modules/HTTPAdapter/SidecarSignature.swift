import ConfigDomain
import ConfigPorts
import Foundation
import HTTPSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The signature file next to a payload (``HTTPFetcher/SignatureTransport/sidecar(suffix:)``),
/// fetched after each `200` of the payload.
struct SidecarSignature {
    /// The `Accept` header of the signature file's request: text, or anything.
    static let accept = "text/plain, */*"
    /// The signature file's URL.
    let url: URL
    /// The URL as messages show it.
    let displayURL: String
    /// The fetcher's settings with the sidecar's limits: any content type, a small body, no payload check.
    let configuration: HTTPFetcher.Configuration

    /// The sidecar of `payloadURL`: its path plus `suffix`, the query kept; nil when the URL cannot be rebuilt.
    init?(payloadURL: URL, suffix: String, configuration fetcherConfiguration: HTTPFetcher.Configuration) {
        guard var components = URLComponents(url: payloadURL, resolvingAgainstBaseURL: false) else { return nil }
        components.percentEncodedPath += suffix
        components.fragment = nil
        guard let url = components.url else { return nil }
        self.url = url
        displayURL = EndpointPolicy.displayString(for: url)
        var limits = fetcherConfiguration
        limits.acceptedContentTypes = ["*/*"]
        limits.acceptsMissingContentType = true
        limits.maxBodySize = HTTPFetcher.SignatureTransport.sidecarByteLimit
        limits.validatePayload = nil
        limits.honorsCacheControlMaxAge = false
        configuration = limits
    }

    /// The signature text (surrounding whitespace and line ends removed), or nil when the server has
    /// none: a `404`, a `410` or an empty file.
    func fetch(_ request: URLRequest, with driver: SessionDriver, now: Date) async throws(FetchError) -> String? {
        let outcome = await driver.perform(request, checkedAgainst: configuration)
        let result: FetchResult
        do throws(FetchError) {
            result = try ResponseInterpreter(displayURL: displayURL, configuration: configuration, now: now)
                .result(for: outcome, request: FetchRequest())
        } catch {
            switch error.kind {
            case .httpStatus(404), .httpStatus(410), .emptyBody: return nil
            default:
                var shown = error
                shown.message = error.message.replacingOccurrences(of: url.absoluteString, with: displayURL)
                throw shown
            }
        }
        guard case .modified(let file) = result else {
            throw FetchError(
                .other, retry: .backoff,
                message: "the server at \(displayURL) answered \"not modified\" to an unconditional request for the "
                    + "signature file; check the server or a cache in front of it")
        }
        let text = String(decoding: file.bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }
}
