import ConfigDomain
import ConfigPorts
import Foundation
import HTTPSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension HTTPFetcher {
    /// How an ``HTTPFetcher`` talks to its server. Every property has a safe default.
    ///
    /// Descriptions and reflections of a configuration (`print`, `dump`, string interpolation)
    /// show secret header values as `<redacted>`.
    public struct Configuration: Sendable {
        /// Headers sent with every request. Values of ``secretHeaderNames`` never appear in errors or descriptions.
        ///
        /// `If-None-Match` and `If-Modified-Since` here are ignored: conditional requests use only
        /// the validators the client passes in ``ConfigPorts/FetchRequest/validators``.
        public var headers: [String: String]

        /// Called before every request for headers that change, such as a bearer token that refreshes.
        ///
        /// Its headers win over ``headers``. If it throws a `FetchError`, that error is the fetch's
        /// error (so you choose the retry advice); any other error becomes a retryable
        /// `.other` error whose message names only the error's type, never its text (it may hold a
        /// secret). A `CancellationError` is ``ConfigDomain/FetchError/cancelled``.
        public var headerProvider: (@Sendable () async throws -> [String: String])?

        /// The most time one fetch may take, from connecting to the last byte, in seconds. Default 15.
        public var timeout: TimeInterval

        /// The largest body accepted, in bytes (after any content decoding). Default 2 MiB.
        ///
        /// The body is streamed and the transfer is aborted as soon as it grows past this, or at
        /// once when `Content-Length` announces more.
        public var maxBodySize: Int

        /// The media types accepted for a `200` body, matched without parameters (`; charset=…`).
        ///
        /// Patterns may be exact (`application/json`), `type/*`, `type/*+suffix`
        /// (`application/*+json`) or `*/*`. Default: `application/json`, `text/json`, `application/*+json`.
        public var acceptedContentTypes: [String]

        /// Whether a `200` without any `Content-Type` is accepted. Default `true`.
        ///
        /// Some static hosts and object stores send none; the payload format still has to decode
        /// the body, so a missing type is not a risk on its own. A type that is present and not
        /// accepted is always refused.
        public var acceptsMissingContentType: Bool

        /// Header names (any case) whose values are secret, in addition to `Authorization`,
        /// `Proxy-Authorization`, `Cookie` and `X-Api-Key`, which always are.
        ///
        /// Secret values never appear in an error message or a description, and are not sent
        /// along when a redirect leads to another origin.
        public var secretHeaderNames: Set<String>

        /// The session to run requests on; `nil` (the default) uses the fetcher's own ephemeral session.
        ///
        /// The default session has no URL cache, no cookie store, no credential store, and ignores
        /// locally cached data, so nothing between the fetcher and the server can turn a `304` into
        /// a `200` or answer without asking. Every request also uses `.reloadIgnoringLocalCacheData`,
        /// whatever session you give.
        ///
        /// On Apple platforms a session you give runs the requests itself, with a per-task delegate
        /// (your session's delegate still handles authentication challenges). On Linux,
        /// swift-corelibs-foundation does not call per-task delegates for data tasks, so the
        /// fetcher runs a session of its own made from your session's `configuration` (protocol
        /// classes, proxies, headers and timeouts carry over; your session's delegate does not).
        public var session: URLSession?

        /// Whether `Cache-Control: max-age` (less `Age`) becomes ``ConfigPorts/FetchedPayload/ttlHint``. Default `false`.
        ///
        /// Off by default because CDNs often set `max-age` for browsers (a few seconds, or a day)
        /// without regard to how fresh an app's configuration should be; the client's own
        /// freshness policy is the better default. Turn it on when you control the server's headers.
        public var honorsCacheControlMaxAge: Bool

        /// Allows plain `http://` to hosts other than loopback. Default `false`; leave it so.
        ///
        /// Without it, the fetcher refuses such URLs at creation, and refuses redirects to them.
        /// With it, configuration and every header (tokens included) travel unencrypted.
        public var allowsInsecureHTTPForNonLoopbackHosts: Bool

        /// A payload format to check a `200` body with before returning it. Default `nil`.
        ///
        /// The client decodes payloads itself; set this to make the fetcher refuse a body that
        /// does not decode as an ``ConfigDomain/FetchError/Kind/invalidPayload`` error carrying the
        /// decoder's reason and byte offset.
        public var validatePayload: (any PayloadFormat)?

        /// The most redirects one fetch follows before failing with `.redirectLoop`. Default 10.
        ///
        /// A redirect back to a URL already visited in the same fetch fails at once.
        public var maxRedirects: Int

        /// The current time, used to turn `Retry-After: <seconds>` into a date. Default `Date()`.
        public var now: @Sendable () -> Date

        /// Where a payload's detached signature is read from: the `X-Config-Signature` header
        /// (the default; no header, no signature) or a sidecar file such as `config.json.sig`.
        public var signatureTransport: SignatureTransport

        /// Creates a configuration; every argument has the documented default.
        public init(
            headers: [String: String] = [:],
            headerProvider: (@Sendable () async throws -> [String: String])? = nil,
            timeout: TimeInterval = 15,
            maxBodySize: Int = 2 * 1024 * 1024,
            acceptedContentTypes: [String] = ["application/json", "text/json", "application/*+json"],
            acceptsMissingContentType: Bool = true,
            secretHeaderNames: Set<String> = [],
            session: URLSession? = nil,
            honorsCacheControlMaxAge: Bool = false,
            allowsInsecureHTTPForNonLoopbackHosts: Bool = false,
            validatePayload: (any PayloadFormat)? = nil,
            maxRedirects: Int = 10,
            now: @escaping @Sendable () -> Date = { Date() },
            signatureTransport: SignatureTransport = .header
        ) {
            self.headers = headers
            self.headerProvider = headerProvider
            self.timeout = timeout
            self.maxBodySize = maxBodySize
            self.acceptedContentTypes = acceptedContentTypes
            self.acceptsMissingContentType = acceptsMissingContentType
            self.secretHeaderNames = secretHeaderNames
            self.session = session
            self.honorsCacheControlMaxAge = honorsCacheControlMaxAge
            self.allowsInsecureHTTPForNonLoopbackHosts = allowsInsecureHTTPForNonLoopbackHosts
            self.validatePayload = validatePayload
            self.maxRedirects = maxRedirects
            self.now = now
            self.signatureTransport = signatureTransport
        }

        /// The lowercased names of every secret header: the four fixed ones and ``secretHeaderNames``.
        public var allSecretHeaderNames: Set<String> {
            SecretRedactor.alwaysSecretHeaderNames.union(secretHeaderNames.map { $0.lowercased() })
        }

        /// Whether the header `name` (any case) is secret.
        public func isSecret(headerName name: String) -> Bool {
            allSecretHeaderNames.contains(name.lowercased())
        }

        /// ``headers`` with secret values replaced by `<redacted>`.
        public var redactedHeaders: [String: String] {
            headers.reduce(into: [:]) { out, header in
                out[header.key] = isSecret(headerName: header.key) ? SecretRedactor.placeholder : header.value
            }
        }

        /// Checks the settings; the message says which one is wrong and how to fix it.
        func validate() throws(ConfigurationError) {
            func fail(_ message: String) -> ConfigurationError { ConfigurationError(.invalidAdapterSetting, message) }
            guard timeout.isFinite, timeout > 0 else {
                throw fail("HTTPFetcher timeout must be a positive number of seconds, got \(timeout)")
            }
            guard maxBodySize > 0 else {
                throw fail("HTTPFetcher maxBodySize must be at least 1 byte, got \(maxBodySize)")
            }
            guard maxRedirects >= 0 else {
                throw fail("HTTPFetcher maxRedirects must be zero or more, got \(maxRedirects)")
            }
            guard !acceptedContentTypes.isEmpty else {
                throw fail("HTTPFetcher acceptedContentTypes is empty; list the media types to accept, or [\"*/*\"] for any")
            }
            for pattern in acceptedContentTypes where !MediaType.isValidPattern(pattern) {
                throw fail(
                    "HTTPFetcher acceptedContentTypes entry \"\(pattern)\" is not a media type such as application/json, application/*+json or */*"
                )
            }
            if let problem = signatureTransport.problem { throw fail(problem) }
            for (name, value) in headers {
                if let problem = HeaderRules.problem(name: name, value: value) {
                    throw fail("HTTPFetcher header \"\(HeaderRules.printableName(name))\": \(problem)")
                }
            }
        }
    }
}

extension HTTPFetcher.Configuration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// A summary with secret header values redacted.
    public var description: String {
        let headerList = redactedHeaders.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        return "HTTPFetcher.Configuration(headers: [\(headerList.joined(separator: ", "))], "
            + "headerProvider: \(headerProvider == nil ? "none" : "set"), timeout: \(timeout), "
            + "maxBodySize: \(maxBodySize), acceptedContentTypes: \(acceptedContentTypes), "
            + "acceptsMissingContentType: \(acceptsMissingContentType), "
            + "secretHeaderNames: \(allSecretHeaderNames.sorted()), session: \(session == nil ? "default" : "custom"), "
            + "honorsCacheControlMaxAge: \(honorsCacheControlMaxAge), "
            + "allowsInsecureHTTPForNonLoopbackHosts: \(allowsInsecureHTTPForNonLoopbackHosts), "
            + "validatePayload: \(validatePayload?.name ?? "none"), maxRedirects: \(maxRedirects), "
            + "signatureTransport: \(signatureTransport))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// A mirror with secret header values redacted, so `dump` shows no secrets.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "headers": redactedHeaders,
                "headerProvider": headerProvider == nil ? "none" : "set",
                "timeout": timeout,
                "maxBodySize": maxBodySize,
                "acceptedContentTypes": acceptedContentTypes,
                "acceptsMissingContentType": acceptsMissingContentType,
                "secretHeaderNames": allSecretHeaderNames.sorted(),
                "session": session == nil ? "default" : "custom",
                "honorsCacheControlMaxAge": honorsCacheControlMaxAge,
                "allowsInsecureHTTPForNonLoopbackHosts": allowsInsecureHTTPForNonLoopbackHosts,
                "validatePayload": validatePayload?.name ?? "none",
                "maxRedirects": maxRedirects,
                "signatureTransport": signatureTransport,
            ],
            displayStyle: .struct)
    }
}

/// What a header name and value may contain.
enum HeaderRules {
    /// The characters of an HTTP token (RFC 9110): ASCII letters and digits, and !#$%&'*+-.^_`|~.
    static let tokenCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~")

    /// Whether `name` is one of the conditional headers the fetcher sets itself from the request's validators.
    static func isConditional(_ name: String) -> Bool {
        ["if-none-match", "if-modified-since"].contains(name.lowercased())
    }

    /// Why the header cannot be sent (never quoting the value), or `nil` when it is fine.
    static func problem(name: String, value: String) -> String? {
        if name.isEmpty || !name.allSatisfy(tokenCharacters.contains) {
            return "the name must be a non-empty token of letters, digits and !#$%&'*+-.^_`|~"
        }
        if value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
            return "the value contains a line break or NUL, which would split the request"
        }
        return nil
    }

    /// The name made safe to print: anything but printable ASCII becomes `?`.
    static func printableName(_ name: String) -> String {
        String(name.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
    }
}
