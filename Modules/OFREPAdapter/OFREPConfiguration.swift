import ConfigDomain
import Foundation
import HTTPSupport

extension OFREPFetcher {
    /// Where an ``OFREPFetcher`` finds its server and how it talks to it.
    ///
    /// Made in code, or from the environment variables OpenFeature defines for OFREP
    /// (``fromEnvironment(_:)``): `OFREP_ENDPOINT`, `OFREP_HEADERS` and `OFREP_TIMEOUT_MS`. Descriptions
    /// and reflections (`print`, `dump`) show secret header values as `<redacted>`.
    public struct Configuration: Sendable {
        /// The server's base URL, for example `https://flags.example.com`; requests go to
        /// `<endpoint>/ofrep/v1/evaluate/flags`.
        public var endpoint: URL
        /// Headers sent with every request (a bearer token, an API key, a tenant). Values of secret
        /// headers (``isSecret(headerName:)``) never appear in an error or a description.
        public var headers: [String: String]
        /// The most time one request may take, from connecting to the last byte, in seconds. Default 10.
        public var timeout: TimeInterval
        /// The largest response body accepted, in bytes. Default 2 MiB.
        public var maxBodySize: Int
        /// Header names (any case) whose values are secret, besides `Authorization`,
        /// `Proxy-Authorization`, `Cookie` and `X-API-Key`, which always are.
        public var secretHeaderNames: Set<String>
        /// Allows plain `http://` to hosts other than loopback. Default `false`; leave it so: headers
        /// (tokens included) and every user's context would travel unencrypted.
        public var allowsInsecureHTTPForNonLoopbackHosts: Bool
        /// The current time, which `Retry-After: <seconds>` counts from. Default `Date()`.
        public var now: @Sendable () -> Date

        /// Creates a configuration; every argument but the endpoint has the documented default.
        public init(
            endpoint: URL, headers: [String: String] = [:], timeout: TimeInterval = 10, maxBodySize: Int = 2 * 1024 * 1024,
            secretHeaderNames: Set<String> = [], allowsInsecureHTTPForNonLoopbackHosts: Bool = false,
            now: @escaping @Sendable () -> Date = { Date() }
        ) {
            self.endpoint = endpoint
            self.headers = headers
            self.timeout = timeout
            self.maxBodySize = maxBodySize
            self.secretHeaderNames = secretHeaderNames
            self.allowsInsecureHTTPForNonLoopbackHosts = allowsInsecureHTTPForNonLoopbackHosts
            self.now = now
        }

        /// The environment variable that names the server's base URL.
        public static let endpointVariable = "OFREP_ENDPOINT"
        /// The environment variable that lists headers: `name=value` entries separated by commas.
        public static let headersVariable = "OFREP_HEADERS"
        /// The environment variable that sets the request timeout, in milliseconds.
        public static let timeoutVariable = "OFREP_TIMEOUT_MS"

        /// A configuration from OpenFeature's OFREP environment variables:
        ///
        /// - `OFREP_ENDPOINT` (required): the base URL, `https://flags.example.com`.
        /// - `OFREP_HEADERS`: `Authorization=Bearer%20abc,X-Tenant=acme` — comma-separated `name=value`,
        ///   values percent-decoded (OpenTelemetry's convention; a literal space is accepted too).
        /// - `OFREP_TIMEOUT_MS`: a whole number of milliseconds greater than zero (default 10000).
        ///
        /// Settings made in code win: change the returned value before making the fetcher.
        ///
        /// - Throws: ``OFREPConfigurationError`` naming the variable and what is wrong with it; a
        ///   header's value is never quoted.
        public static func fromEnvironment(
            _ environment: [String: String] = ProcessInfo.processInfo.environment
        ) throws(OFREPConfigurationError) -> Configuration {
            guard let text = environment[endpointVariable]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
                throw OFREPConfigurationError(
                    .missingEndpoint,
                    message: "\(endpointVariable) is not set; set it to the OFREP server's base URL, for example "
                        + "https://flags.example.com (requests go to <base>/ofrep/v1/evaluate/flags)")
            }
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                url.host?.isEmpty == false
            else {
                throw OFREPConfigurationError(
                    .invalidEndpoint,
                    message: "\(endpointVariable) is not an http or https URL with a host; set it to the OFREP server's "
                        + "base URL, for example https://flags.example.com")
            }
            var configuration = Configuration(endpoint: url)
            if let headers = environment[headersVariable] {
                configuration.headers = try OFREPHeaders.parse(headers)
            }
            if let timeout = environment[timeoutVariable]?.trimmingCharacters(in: .whitespaces), !timeout.isEmpty {
                guard timeout.allSatisfy({ $0.isASCII && $0.isNumber }), let milliseconds = Int(timeout), milliseconds > 0
                else {
                    throw OFREPConfigurationError(
                        .invalidTimeout,
                        message: "\(timeoutVariable) is \"\(OFREPHeaders.printable(String(timeout.prefix(32))))\", not a whole "
                            + "number of milliseconds greater than zero; set it to, for example, 5000")
                }
                configuration.timeout = TimeInterval(milliseconds) / 1000
            }
            return configuration
        }

        /// The lowercased names of every secret header: the four fixed ones and ``secretHeaderNames``.
        public var allSecretHeaderNames: Set<String> {
            SecretRedactor.alwaysSecretHeaderNames.union(secretHeaderNames.map { $0.lowercased() })
        }

        /// Whether the header `name` (any case) is secret.
        public func isSecret(headerName name: String) -> Bool { allSecretHeaderNames.contains(name.lowercased()) }

        /// ``headers`` with secret values replaced by `<redacted>`.
        public var redactedHeaders: [String: String] {
            headers.reduce(into: [:]) { out, header in
                out[header.key] = isSecret(headerName: header.key) ? SecretRedactor.placeholder : header.value
            }
        }

        /// Checks the settings; the message says which one is wrong and how to fix it.
        func validate() throws(OFREPConfigurationError) {
            guard let scheme = endpoint.scheme?.lowercased(), ["http", "https"].contains(scheme),
                let host = EndpointPolicy.hostName(of: endpoint), !host.isEmpty
            else {
                throw OFREPConfigurationError(
                    .invalidEndpoint,
                    message:
                        "the OFREP endpoint \(EndpointPolicy.displayString(for: endpoint)) is not an http or https URL with a host"
                )
            }
            if scheme == "http", !allowsInsecureHTTPForNonLoopbackHosts, !EndpointPolicy.isLoopback(host: host) {
                throw OFREPConfigurationError(
                    .insecureEndpoint,
                    message: "plain http to the non-loopback host \(host) is refused: every user's evaluation context and "
                        + "the headers would travel unencrypted; use https, or set allowsInsecureHTTPForNonLoopbackHosts")
            }
            guard timeout.isFinite, timeout > 0 else {
                throw OFREPConfigurationError(
                    .invalidTimeout, message: "the OFREP timeout must be a positive number of seconds, got \(timeout)")
            }
            guard maxBodySize > 0 else {
                throw OFREPConfigurationError(
                    .invalidLimit, message: "the OFREP maxBodySize must be at least 1 byte, got \(maxBodySize)")
            }
            for (position, name) in headers.keys.sorted().enumerated() {
                if let problem = OFREPHeaders.problem(name: name) ?? headers[name].flatMap(OFREPHeaders.problem(value:)) {
                    throw OFREPConfigurationError(
                        .invalidHeader(entry: position + 1),
                        message: "the OFREP header \(OFREPHeaders.printable(name)): \(problem)")
                }
            }
        }
    }
}

extension OFREPFetcher.Configuration: CustomStringConvertible, CustomReflectable {
    /// A summary with secret header values redacted.
    public var description: String {
        let list = redactedHeaders.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        return
            "OFREPFetcher.Configuration(endpoint: \(EndpointPolicy.displayString(for: endpoint)), headers: [\(list)], timeout: \(timeout), "
            + "maxBodySize: \(maxBodySize), allowsInsecureHTTPForNonLoopbackHosts: \(allowsInsecureHTTPForNonLoopbackHosts))"
    }

    /// A mirror with secret header values redacted, so `dump` shows no secrets.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "endpoint": EndpointPolicy.displayString(for: endpoint), "headers": redactedHeaders, "timeout": timeout,
                "maxBodySize": maxBodySize, "secretHeaderNames": allSecretHeaderNames.sorted(),
                "allowsInsecureHTTPForNonLoopbackHosts": allowsInsecureHTTPForNonLoopbackHosts,
            ],
            displayStyle: .struct)
    }
}
