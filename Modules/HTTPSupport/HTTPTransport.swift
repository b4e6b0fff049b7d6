import ConfigDomain
import Foundation

/// Sends one HTTP request and returns its response: the one port between an adapter that speaks HTTP and the network.
///
/// One method, after swift-openapi-runtime's `ClientTransport`, so a test can put a scripted transport where
/// ``URLSessionTransport`` would be. An implementation keeps the promises the request states (its deadline, its body
/// limit, the content types it accepts, its redirect policy) and answers with the response whatever its status: the
/// adapter decides what a status means, usually with ``ConfigDomain/FetchError/forStatus(of:wording:now:details:)``.
/// It throws only when no usable response came, with the kinds and messages ``URLSessionTransport`` documents.
public protocol HTTPTransport: Sendable {
    /// Sends `request`: the response, whatever its status, or the `FetchError` that says why there is none.
    func send(_ request: HTTPTransportRequest) async throws(FetchError) -> HTTPTransportResponse
}

/// One HTTP request: what to send, what its response must satisfy, and how errors about it are worded.
///
/// The limits on a response apply to a *payload*, a 2xx other than `206 Partial Content`: its content type must be
/// accepted and its body must fit ``maxBodySize``. The body of any other response is read only as far as
/// ``HTTPTransportResponse/detailLimit``, for the details an error message may quote.
public struct HTTPTransportRequest: Sendable {
    /// The method: `GET`, `POST`.
    public var method: String
    /// The URL requested.
    public var url: URL
    /// The header fields, each under the spelling it was last set with (see ``setHeader(_:_:)``).
    public private(set) var headers: [String: String] = [:]
    /// The body to send, if any.
    public var body: Data?
    /// The most time the whole exchange may take, from connecting to the last byte, in seconds.
    public var timeout: TimeInterval
    /// The largest payload body accepted, in bytes.
    ///
    /// The transfer stops as soon as the body grows past it, or at once when `Content-Length` announces more.
    public var maxBodySize: Int
    /// The media types a payload may have, as ``MediaType/matches(_:pattern:)`` reads them.
    ///
    /// `["*/*"]`, the default, accepts any.
    public var acceptedContentTypes: [String] = ["*/*"]
    /// Whether a payload without `Content-Type` is accepted. Default `true`.
    public var acceptsMissingContentType = true
    /// Which redirects are followed.
    public var redirects = RedirectPolicy()
    /// The lowercased names of the headers whose values are secret.
    ///
    /// Their values are redacted from every error and not sent along a redirect to another origin. Default: the four
    /// that always are (``SecretRedactor/alwaysSecretHeaderNames``).
    public var secretHeaderNames: Set<String> = SecretRedactor.alwaysSecretHeaderNames
    /// How errors name the server and what they advise.
    public var wording: ErrorWording

    /// Creates a request without headers or body.
    public init(
        method: String = "GET", url: URL, timeout: TimeInterval, maxBodySize: Int, wording: ErrorWording
    ) {
        self.method = method
        self.url = url
        self.timeout = timeout
        self.maxBodySize = maxBodySize
        self.wording = wording
    }

    /// Sets the header `name` to `value` (`nil` removes it), replacing the field under any other spelling of the name.
    public mutating func setHeader(_ name: String, _ value: String?) {
        for key in headers.keys where key.caseInsensitiveCompare(name) == .orderedSame { headers[key] = nil }
        headers[name] = value
    }

    /// The value of the header `name`, in any case, or `nil`.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Whether the header `name` (any case) is secret.
    public func isSecret(headerName name: String) -> Bool { secretHeaderNames.contains(name.lowercased()) }

    /// A redactor for the values of this request's secret headers.
    public var redactor: SecretRedactor {
        SecretRedactor(secretValues: headers.compactMap { isSecret(headerName: $0.key) ? $0.value : nil })
    }
}

/// Which redirects a transport follows.
///
/// A redirect is refused when its URL is one ``EndpointPolicy`` refuses (an error of kind `.insecureURL`), when it
/// leads back to a URL already visited, or when it is one more than ``maxRedirects`` (both `.redirectLoop`). A
/// redirect to another origin is followed without the secret headers.
public struct RedirectPolicy: Sendable, Hashable {
    /// The most redirects followed for one request. Default 10.
    public var maxRedirects: Int
    /// Whether plain `http://` to a host other than loopback may be followed. Default `false`.
    public var allowsInsecureHTTPForNonLoopbackHosts: Bool

    /// Creates a policy; every argument has the documented default.
    public init(maxRedirects: Int = 10, allowsInsecureHTTPForNonLoopbackHosts: Bool = false) {
        self.maxRedirects = maxRedirects
        self.allowsInsecureHTTPForNonLoopbackHosts = allowsInsecureHTTPForNonLoopbackHosts
    }
}

/// How a transport's errors name the server and what they advise.
///
/// Each adapter words them for its own settings, so a person reading one knows what to change.
public struct ErrorWording: Sendable, Hashable {
    /// What the server is: `the server`, `the OFREP server`.
    public var server: String
    /// The URL as messages show it, from ``EndpointPolicy/displayString(for:)``: no credentials, query or fragment.
    public var url: String
    /// What to check when the server refuses the credentials (401, 403).
    public var credentialsAdvice = "check the credentials in the headers"
    /// What to check when the server has nothing at the URL (404, 410).
    public var notFoundAdvice = "check the URL"
    /// What to do about a payload of a content type that is not accepted.
    public var contentTypeAdvice = "fix the server's Content-Type"
    /// What to do about a payload over the size limit.
    public var bodyLimitAdvice = "shrink the payload or raise maxBodySize"
    /// What to do about a server that does not answer within the timeout.
    public var timeoutAdvice = "raise the timeout if the server is known to be slow"

    /// Creates the wording for `server` at `url` (a display string), with the default advice.
    public init(server: String = "the server", url: String) {
        self.server = server
        self.url = url
    }

    /// The server and its URL: `the server at https://cdn.example.com/config.json`.
    public var subject: String { "\(server) at \(url)" }
}
