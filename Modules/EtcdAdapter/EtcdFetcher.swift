import ConfigDomain
import ConfigPorts
import Foundation

/// Reads a configuration from etcd, through its v3 JSON gateway over `URLSession` (no gRPC).
///
/// ```swift
/// let connection = EtcdConnection(endpoints: [URL(string: "http://127.0.0.1:2379")!])
/// let fetcher = try EtcdFetcher(connection: connection, layout: .document(key: "/app/config"))
/// let client = try RemoteConfigClient.builder(fetcher: fetcher).register(Flags.all).build()
/// ```
///
/// Each fetch is one linearizable range read (`/v3/kv/range`) of the ``EtcdLayout``'s key or
/// prefix. The validators' `etag` is the configuration's etcd version (see ``EtcdLayout``): when
/// it equals the request's, the answer is `notModified`. The payload's source names the endpoint,
/// the key and the revision, for provenance.
///
/// It never retries on its own; it tries each endpoint at most once per fetch, starting with the
/// one that answered last, and moves on when one cannot be reached or has no leader. Errors are
/// ``FetchError``s carrying an ``EtcdError``'s message: an unreachable cluster retries with
/// backoff; refused credentials, a missing key and a document that is not a JSON object do not.
public struct EtcdFetcher: ConfigFetcher {
    /// Where the configuration lives.
    public let layout: EtcdLayout
    /// Reaches the cluster (an ``EtcdWatcher`` opens its watches through its fetcher's gateway).
    let gateway: Gateway

    /// Creates a fetcher; no request is made until the first fetch.
    ///
    /// - Throws: `ConfigurationError` (`.invalidAdapterSetting`) for an unusable connection
    ///   setting or an empty key or prefix.
    public init(connection: EtcdConnection, layout: EtcdLayout) throws(ConfigurationError) {
        try connection.validate()
        try layout.validate()
        self.layout = layout
        self.gateway = Gateway(connection: connection)
    }

    /// The connection settings.
    public var connection: EtcdConnection { gateway.connection }

    /// Reads the configuration; `notModified` when its version equals `request.validators.etag`.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        do throws(EtcdError) {
            if Task.isCancelled { throw EtcdError.cancelled }
            let (state, endpoint) = try await ConfigurationState.read(layout, via: gateway)
            let payload = try state.payload(from: endpoint)
            if let held = request.validators.etag, held == payload.validators.etag {
                return .notModified(payload.validators)
            }
            return .modified(payload)
        } catch {
            throw error.fetchError
        }
    }
}

extension EtcdLayout {
    /// Refuses an empty key or prefix (an empty prefix would read the whole cluster).
    func validate() throws(ConfigurationError) {
        guard path.isEmpty else { return }
        throw ConfigurationError(
            .invalidAdapterSetting,
            "etcd: the \(kindName) is empty; name the configuration's key (/app/config) or prefix (/app/flags/)")
    }
}

extension EtcdFetcher: CustomStringConvertible {
    /// `EtcdFetcher(key /app/config at http://127.0.0.1:2379)`.
    public var description: String { "EtcdFetcher(\(layout) at \(gateway.displayEndpoints))" }
}
