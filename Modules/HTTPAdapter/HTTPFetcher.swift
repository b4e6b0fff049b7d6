import ConfigDomain
import ConfigPorts
import Foundation
import HTTPSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches a configuration payload over HTTP(S) with conditional GET, on Foundation's `URLSession`.
///
/// ```swift
/// let fetcher = try HTTPFetcher(
///     url: URL(string: "https://cdn.example.com/app/config.json")!,
///     configuration: .init(headerProvider: { ["Authorization": "Bearer \(await tokens.current())"] }))
/// ```
///
/// What it guarantees:
/// - **Conditional requests** use only the request's validators: `If-None-Match` from
///   `etag`, `If-Modified-Since` from `lastModified`. A `304` is `.notModified` with the
///   validators the `304` carries (each falling back to the request's); a `200` is `.modified`
///   with the response's own `ETag` and `Last-Modified`.
/// - **No cache in between**: requests ignore locally cached data, and the default session has
///   no URL cache, so every fetch asks the server and a `304` is never turned into a `200`.
/// - **Typed errors that say whether and when to retry** (it never retries on its own):
///   connection failures and timeouts retry with backoff; `5xx` retries with backoff (or at its
///   `Retry-After`); `429`, and `503` with `Retry-After`, are `.rateLimited` and retry at that
///   time (seconds or HTTP-date form); other `4xx` are not retried (except `408`, with backoff);
///   redirect loops are not retried; a body over ``Configuration/maxBodySize`` is aborted as soon
///   as it is exceeded; a wrong content type, a body shorter than its `Content-Length`, and an
///   empty `200` retry with backoff (a captive portal or a deploy in progress passes).
/// - **HTTPS only**, except to loopback hosts or with the loudly named opt-in.
/// - **No secrets out**: values of secret headers never appear in an error, a description or
///   a reflection, and are not forwarded when a redirect leads to another origin. The URL's
///   query (which may hold a key) is shown as `?<redacted>`.
/// - **Cancellation** of the calling task cancels the transfer and throws `FetchError.cancelled`.
/// - **Signatures** travel in the `X-Config-Signature` header or in a sidecar file
///   (``Configuration/signatureTransport``). The fetcher only carries the text in
///   ``ConfigPorts/FetchedPayload/signature``; a client built with `verifyPayloads(with:)` checks it.
///
/// Its requests go through HTTPSupport's `URLSessionTransport`, the HTTP layer it shares with `OFREPFetcher`. A
/// fetcher is a value; copies share one session, made on the first fetch. It is safe to call from many tasks at once.
public struct HTTPFetcher: ConfigFetcher {
    /// The URL fetched.
    public let url: URL
    /// The settings.
    public let configuration: Configuration

    /// Sends the requests: HTTPSupport's `URLSessionTransport` on the configured session, or a test's own.
    private let transport: any HTTPTransport
    /// The URL as messages show it: without credentials, query or fragment.
    private let displayURL: String
    /// The values of the secret headers in ``Configuration/headers``.
    private let staticSecretValues: [String]

    /// Creates a fetcher for `url`.
    ///
    /// - Throws: `ConfigurationError` (`.invalidAdapterSetting`) when the URL is not `https`
    ///   (or `http` to a loopback host, or `http` with ``Configuration/allowsInsecureHTTPForNonLoopbackHosts``),
    ///   or when a setting is out of range or a header cannot be sent.
    public init(url: URL, configuration: Configuration = .init()) throws(ConfigurationError) {
        try self.init(
            url: url, configuration: configuration,
            transport: URLSessionTransport(timeout: configuration.timeout, session: configuration.session))
    }

    /// Creates a fetcher for `url` that sends its requests through `transport`.
    init(url: URL, configuration: Configuration, transport: any HTTPTransport) throws(ConfigurationError) {
        if let refusal = EndpointPolicy.refusal(for: url, allowsInsecureHTTP: configuration.allowsInsecureHTTPForNonLoopbackHosts)
        {
            throw ConfigurationError(.invalidAdapterSetting, "HTTPFetcher: \(refusal)")
        }
        try configuration.validate()
        self.url = url
        self.configuration = configuration
        self.transport = transport
        self.displayURL = EndpointPolicy.displayString(for: url)
        self.staticSecretValues = configuration.headers.compactMap { name, value in
            configuration.isSecret(headerName: name) ? value : nil
        }
    }

    /// Fetches the payload, conditionally on `request.validators`. Never retries on its own.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        var secretValues = staticSecretValues
        do throws(FetchError) {
            if Task.isCancelled { throw FetchError.cancelled }
            var provided: [String: String] = [:]
            if let provider = configuration.headerProvider {
                provided = try await providedHeaders(from: provider)
                secretValues += provided.filter { configuration.isSecret(headerName: $0.key) }.map(\.value)
                for (name, value) in provided {
                    if let problem = HeaderRules.problem(name: name, value: value) {
                        throw FetchError(
                            .other, retry: .doNotRetry,
                            message: "the header provider returned a header \"\(HeaderRules.printableName(name))\" "
                                + "that cannot be sent: \(problem)")
                    }
                }
                if Task.isCancelled { throw FetchError.cancelled }
            }
            let response = try await transport.send(
                makeRequest(for: url, providedHeaders: provided, validators: request.validators))
            let result = try ResponseInterpreter(displayURL: displayURL, configuration: configuration, now: configuration.now())
                .result(for: response, request: request)
            guard case .modified(var payload) = result, case .sidecar(let suffix) = configuration.signatureTransport,
                let sidecar = SidecarSignature(payloadURL: url, suffix: suffix)
            else { return result }
            var sidecarRequest = makeRequest(for: sidecar.url, providedHeaders: provided, validators: .none)
            sidecar.limit(&sidecarRequest)
            payload.signature = try await sidecar.fetch(sidecarRequest, with: transport, now: configuration.now())
            return .modified(payload)
        } catch {
            throw SecretRedactor(secretValues: secretValues).redact(error)
        }
    }

    /// The header provider's headers, or the ``FetchError`` its failure becomes.
    private func providedHeaders(
        from provider: @Sendable () async throws -> [String: String]
    ) async throws(FetchError) -> [String: String] {
        do {
            return try await provider()
        } catch let error as FetchError {
            throw error
        } catch is CancellationError {
            throw FetchError.cancelled
        } catch {
            if Task.isCancelled { throw FetchError.cancelled }
            throw FetchError(
                .other, retry: .backoff,
                message: "the header provider failed with \(String(reflecting: type(of: error))); its message is "
                    + "withheld because it may contain a secret; the request to \(displayURL) was not sent")
        }
    }

    /// The GET request for `target` (the payload, or its signature file): configured headers, then
    /// provided ones (which replace them, in any case), a default `Accept`, and the conditional
    /// headers from `validators`; the configuration's limits, content types and redirect policy.
    private func makeRequest(for target: URL, providedHeaders: [String: String], validators: Validators) -> HTTPTransportRequest {
        var request = HTTPTransportRequest(
            url: target, timeout: configuration.timeout, maxBodySize: configuration.maxBodySize,
            wording: Self.wording(for: EndpointPolicy.displayString(for: target)))
        request.acceptedContentTypes = configuration.acceptedContentTypes
        request.acceptsMissingContentType = configuration.acceptsMissingContentType
        request.redirects = RedirectPolicy(
            maxRedirects: configuration.maxRedirects,
            allowsInsecureHTTPForNonLoopbackHosts: configuration.allowsInsecureHTTPForNonLoopbackHosts)
        request.secretHeaderNames = configuration.allSecretHeaderNames
        for (name, value) in configuration.headers where !HeaderRules.isConditional(name) {
            request.setHeader(name, value)
        }
        for (name, value) in providedHeaders where !HeaderRules.isConditional(name) {
            request.setHeader(name, value)
        }
        if request.header("Accept") == nil {
            request.setHeader("Accept", configuration.acceptedContentTypes.joined(separator: ", "))
        }
        if let etag = validators.etag, HeaderRules.problem(name: "If-None-Match", value: etag) == nil {
            request.setHeader("If-None-Match", etag)
        }
        if let lastModified = validators.lastModified,
            HeaderRules.problem(name: "If-Modified-Since", value: lastModified) == nil
        {
            request.setHeader("If-Modified-Since", lastModified)
        }
        return request
    }

    /// How errors name the server at `displayURL` and what they advise, in this fetcher's settings.
    static func wording(for displayURL: String) -> ErrorWording {
        var wording = ErrorWording(url: displayURL)
        wording.credentialsAdvice = "check the credentials in the headers or the header provider"
        wording.contentTypeAdvice = "fix the server's Content-Type or add it to acceptedContentTypes"
        wording.timeoutAdvice = "raise the configuration's timeout if the server is known to be slow"
        return wording
    }
}

extension HTTPFetcher: CustomStringConvertible, CustomReflectable {
    /// `HTTPFetcher(https://host/path)`, with any query redacted.
    public var description: String { "HTTPFetcher(\(displayURL))" }

    /// A mirror showing the redacted URL and the redacted configuration.
    public var customMirror: Mirror {
        Mirror(self, children: ["url": displayURL, "configuration": configuration], displayStyle: .struct)
    }
}
