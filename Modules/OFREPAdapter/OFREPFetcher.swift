import ConfigDomain
import ConfigPorts
import Foundation
import HTTPSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches flags that an OFREP server (OpenFeature Remote Evaluation Protocol) evaluated for the
/// client's context: one bulk evaluation, `POST <endpoint>/ofrep/v1/evaluate/flags`.
///
/// ```swift
/// let fetcher = try OFREPFetcher(configuration: .fromEnvironment())   // OFREP_ENDPOINT, OFREP_HEADERS, OFREP_TIMEOUT_MS
/// let client = try RemoteConfigClient.builder(fetcher: fetcher)
///     .payloadFormat(OFREPFormat())
///     .cache(try FileSnapshotCache(directory: caches))
///     .context(EvaluationContext(targetingKey: user.id, attributes: ["plan": "pro"]))
///     .push(fetcher.eventSource())          // when the server announces event streams
///     .register(Flags.all)
///     .build()
/// try await client.refresh()
/// ```
///
/// What it does:
/// - **Remote evaluation** (``evaluatesContext`` is `true`): the request's body is
///   `{"context": {"targetingKey": …, <attributes>}}` from ``ConfigPorts/FetchRequest/context``. The client
///   fetches again when its context changes and keeps each targeting key's payload in a cache slot
///   of its own, so a user switch or an offline launch serves that user's last values at once.
/// - **Conditional requests**: `If-None-Match` from the held ETag; `304` is `.notModified`; `200` is
///   `.modified` with the response body exactly as received (decode it with ``OFREPFormat``).
/// - **Typed errors** that say whether and when to retry (it never retries itself): `400`
///   (`TARGETING_KEY_MISSING`, `INVALID_CONTEXT`) and `401`/`403` are not retried and say what to fix;
///   `429` (and `503` with `Retry-After`) retry at the server's `Retry-After` (seconds, HTTP date or
///   ISO 8601); `5xx`, timeouts and connection failures retry with the client's backoff.
/// - **Push**: a `200` that names `eventStreams` of type `sse` lets ``eventSource()`` connect to them;
///   each `refetchEvaluation` event makes the client fetch, sending the event's `etag` and
///   `lastModified` as `flagConfigEtag` and `flagConfigLastModified`.
/// - **No secrets out**: secret header values never appear in an error or a description; the
///   endpoint's query, and event-stream URLs (which may carry tokens), are never shown.
///
/// Its requests go through HTTPSupport's `URLSessionTransport`, the HTTP layer it shares with `HTTPFetcher`: a
/// body over ``Configuration/maxBodySize`` is aborted as soon as it passes it, and redirects follow HTTPSupport's
/// `RedirectPolicy` (secret headers stay on their origin). A fetcher is a value; copies share one session and one set
/// of event-stream URLs.
public struct OFREPFetcher: ConfigFetcher {
    /// The settings.
    public let configuration: Configuration
    /// Sends the requests: HTTPSupport's `URLSessionTransport`, or a test's own.
    private let transport: any HTTPTransport
    private let links: StreamLinks
    /// The endpoint as messages show it.
    private let display: String
    private let redactor: SecretRedactor

    /// Creates a fetcher.
    ///
    /// - Throws: ``OFREPConfigurationError`` when the endpoint is not `https` (or `http` to a
    ///   loopback host, or with the opt-in), or a setting is out of range, or a header cannot be sent.
    public init(configuration: Configuration) throws(OFREPConfigurationError) {
        try self.init(configuration: configuration, transport: URLSessionTransport(timeout: configuration.timeout))
    }

    /// Creates a fetcher that sends its requests through `transport`.
    init(configuration: Configuration, transport: any HTTPTransport) throws(OFREPConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        self.transport = transport
        self.links = StreamLinks()
        self.display = EndpointPolicy.displayString(for: configuration.endpoint)
        self.redactor = SecretRedactor(
            secretValues: configuration.headers.compactMap { configuration.isSecret(headerName: $0.key) ? $0.value : nil })
    }

    /// Creates a fetcher for the server at `endpoint`, sending `headers` with every request.
    public init(endpoint: URL, headers: [String: String] = [:]) throws(OFREPConfigurationError) {
        try self.init(configuration: Configuration(endpoint: endpoint, headers: headers))
    }

    /// The server evaluates the flags for the request's context: `true`.
    public var evaluatesContext: Bool { true }

    /// Asks the server to evaluate every flag for `request.context`, conditionally on `request.validators`.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        if Task.isCancelled { throw FetchError.cancelled }
        let hint = links.takeHint()
        var query: [URLQueryItem] = []
        if let etag = hint?.etag { query.append(URLQueryItem(name: "flagConfigEtag", value: etag)) }
        if let lastModified = hint?.lastModified {
            query.append(URLQueryItem(name: "flagConfigLastModified", value: lastModified))
        }
        guard let url = Endpoint.bulkEvaluation(at: configuration.endpoint, query: query) else {
            throw FetchError(.other, retry: .doNotRetry, message: "the OFREP endpoint \(display) cannot be extended with a path")
        }
        let interpreter = Interpreter(display: display, now: configuration.now())
        var http = HTTPTransportRequest(
            method: "POST", url: url, timeout: configuration.timeout, maxBodySize: configuration.maxBodySize,
            wording: interpreter.wording)
        http.acceptedContentTypes = ["application/json", "application/*+json"]
        http.redirects = RedirectPolicy(
            allowsInsecureHTTPForNonLoopbackHosts: configuration.allowsInsecureHTTPForNonLoopbackHosts)
        http.secretHeaderNames = configuration.allSecretHeaderNames
        for (name, value) in configuration.headers where !["if-none-match", "content-type"].contains(name.lowercased()) {
            http.setHeader(name, value)
        }
        http.setHeader("Content-Type", "application/json")
        if http.header("Accept") == nil { http.setHeader("Accept", "application/json") }
        if let etag = request.validators.etag, OFREPHeaders.problem(value: etag) == nil {
            http.setHeader("If-None-Match", etag)
        }
        http.body = Self.body(for: request.context)
        do throws(FetchError) {
            let result = try interpreter.result(for: try await transport.send(http), request: request)
            if case .modified(let payload) = result { links.record(eventStreams(in: payload.bytes)) }
            return result
        } catch {
            throw redactor.redact(error)
        }
    }

    /// A push source for the event streams the server names in its bulk evaluations (`eventStreams`
    /// entries of type `sse`): give it to the builder's `push(_:)`. It connects once a fetch has
    /// named a stream, follows the set the latest `200` names (a context change may change it), and
    /// signals a change on each (re)connection and each `refetchEvaluation` event.
    public func eventSource(configuration: OFREPEventSource.Configuration = .init()) -> OFREPEventSource {
        OFREPEventSource(links: links, endpoint: display, headers: self.configuration.headers, configuration: configuration)
    }

    /// `{"context": {...}}`: the context's attributes with its targeting key under `targetingKey`.
    static func body(for context: EvaluationContext) -> Data {
        ConfigValue.object(["context": context.attributeObject]).jsonData()
    }

    /// The `sse` event-stream URLs a bulk evaluation names, in order; unknown types are ignored, and
    /// an `endpoint` without `origin` takes the configured endpoint's origin.
    func eventStreams(in body: Data) -> [URL] {
        guard let streams = (try? JSONParser().parse(body))?["eventStreams"]?.arrayValue else { return [] }
        var urls: [URL] = []
        for stream in streams where stream["type"]?.stringValue == "sse" {
            if let text = stream["url"]?.stringValue, let url = URL(string: text), url.host != nil {
                urls.append(url)
            } else if let requestURI = stream["endpoint"]?["requestUri"]?.stringValue, requestURI.hasPrefix("/"),
                let origin = stream["endpoint"]?["origin"]?.stringValue ?? Endpoint.origin(of: configuration.endpoint),
                let url = URL(string: origin + requestURI), url.host != nil
            {
                urls.append(url)
            }
        }
        return urls
    }
}

extension OFREPFetcher: CustomStringConvertible {
    /// `OFREPFetcher(https://flags.example.com)`, with any query redacted.
    public var description: String { "OFREPFetcher(\(display))" }
}
