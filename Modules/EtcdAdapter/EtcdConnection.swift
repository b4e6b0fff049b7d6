import ConfigDomain
import ConfigPorts
import Foundation
import HTTPSupport

/// How to reach an etcd cluster: its members' client URLs, optional credentials, and timing.
///
/// ```swift
/// let connection = EtcdConnection(
///     endpoints: [URL(string: "http://10.0.0.1:2379")!, URL(string: "http://10.0.0.2:2379")!],
///     credentials: EtcdCredentials(username: "app", password: secret),
///     allowsInsecureHTTPForNonLoopbackHosts: true)
/// ```
///
/// Requests go to one endpoint at a time, the last one that answered. When it cannot be reached
/// (refused, reset, timed out), or answers that it has no leader, the next endpoint is tried.
/// The cluster must serve etcd's v3 JSON gateway (etcd 3.4 or later: `/v3/kv/range`, `/v3/watch`).
public struct EtcdConnection: Sendable {
    /// The client URLs of the cluster's members (`http://host:2379`), tried in this order.
    public var endpoints: [URL]
    /// A user name and password, when the cluster has authentication enabled.
    public var credentials: EtcdCredentials?
    /// How long one request (a read, a write, opening a watch) may take, in seconds.
    public var requestTimeout: TimeInterval
    /// How long an open watch may stay silent before it is reopened from the next unseen revision,
    /// in seconds; `nil` never reopens a silent watch. This catches a member that hangs without
    /// closing the connection. etcd sends nothing on a quiet watch, so each reopen costs one request.
    public var watchIdleTimeout: TimeInterval?
    /// The first and the longest wait, in seconds, after every endpoint failed in a row; the
    /// waits between grow exponentially, with full jitter.
    public var reconnectDelay: ClosedRange<TimeInterval>
    /// Allows `http://` to hosts other than loopback. Without TLS, the password and the values
    /// cross the network in clear text: set it only on a network you trust.
    public var allowsInsecureHTTPForNonLoopbackHosts: Bool
    /// The clock the watcher waits on (backoff, idle timeout); inject `ManualClock` in tests.
    public var clock: any ConfigClock
    /// A random number in `0...1` for the jitter of the reconnect delay.
    public var random: @Sendable () -> Double

    /// Creates the settings for a cluster.
    public init(
        endpoints: [URL], credentials: EtcdCredentials? = nil, requestTimeout: TimeInterval = 5,
        watchIdleTimeout: TimeInterval? = 60, reconnectDelay: ClosedRange<TimeInterval> = 0.25...30,
        allowsInsecureHTTPForNonLoopbackHosts: Bool = false, clock: any ConfigClock = SystemClock(),
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.endpoints = endpoints
        self.credentials = credentials
        self.requestTimeout = requestTimeout
        self.watchIdleTimeout = watchIdleTimeout
        self.reconnectDelay = reconnectDelay
        self.allowsInsecureHTTPForNonLoopbackHosts = allowsInsecureHTTPForNonLoopbackHosts
        self.clock = clock
        self.random = random
    }

    /// The waits after every endpoint failed in a row: from `reconnectDelay`'s lower bound, doubling
    /// each round, at most its upper bound, with full jitter.
    var reconnectBackoff: BackoffPolicy {
        BackoffPolicy(initial: reconnectDelay.lowerBound, multiplier: 2, maximum: reconnectDelay.upperBound)
    }

    /// The first problem with these settings, as the error an adapter's initializer throws.
    func validate() throws(ConfigurationError) {
        func refuse(_ message: String) -> ConfigurationError {
            ConfigurationError(.invalidAdapterSetting, "etcd: \(message)")
        }
        guard !endpoints.isEmpty else {
            throw refuse("no endpoints; give the client URL of at least one member, for example http://127.0.0.1:2379")
        }
        for endpoint in endpoints {
            let scheme = endpoint.scheme?.lowercased()
            guard scheme == "http" || scheme == "https", let host = endpoint.host, !host.isEmpty else {
                throw refuse("the endpoint \(endpoint.absoluteString) is not an http:// or https:// URL with a host")
            }
            if scheme == "http" && !allowsInsecureHTTPForNonLoopbackHosts && !EndpointPolicy.isLoopback(host: host) {
                throw refuse(
                    "plain http to \(host) is refused: use https, or set allowsInsecureHTTPForNonLoopbackHosts "
                        + "if the network is trusted (values and the password would travel unencrypted)")
            }
        }
        guard requestTimeout > 0, requestTimeout.isFinite else {
            throw refuse("requestTimeout must be a positive number of seconds, got \(requestTimeout)")
        }
        if let idle = watchIdleTimeout, !(idle > 0 && idle.isFinite) {
            throw refuse("watchIdleTimeout must be a positive number of seconds or nil, got \(idle)")
        }
        guard reconnectDelay.lowerBound > 0, reconnectDelay.upperBound.isFinite else {
            throw refuse("reconnectDelay must be a positive, finite range of seconds, got \(reconnectDelay)")
        }
    }
}
