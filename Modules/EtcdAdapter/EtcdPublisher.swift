import ConfigDomain
import ConfigPorts
import Foundation

/// Writes a configuration document to one etcd key (what `remote-config publish` does).
///
/// ```swift
/// let publisher = try EtcdPublisher(connection: EtcdConnection(endpoints: [URL(string: "http://127.0.0.1:2379")!]))
/// let revision = try await publisher.publish(Data(#"{"max_retries":5}"#.utf8), to: "/app/config")
/// ```
///
/// Every client watching the key receives the document at that revision. The write fails over
/// across the endpoints like a read; if a member applied it but its answer was lost, the next
/// endpoint writes the same document again, at a later revision.
public struct EtcdPublisher: Sendable {
    private let gateway: Gateway

    /// Creates a publisher; no request is made until the first write.
    ///
    /// - Throws: `ConfigurationError` (`.invalidAdapterSetting`) for an unusable connection setting.
    public init(connection: EtcdConnection) throws(ConfigurationError) {
        try connection.validate()
        self.gateway = Gateway(connection: connection)
    }

    /// Writes `document`, which must be a JSON object, as the value of `key`, and returns the
    /// revision of the write.
    ///
    /// - Throws: ``EtcdError`` `.invalidJSON` (nothing written) when the document is not a JSON
    ///   object; `.unreachable`, `.authenticationFailed`, `.permissionDenied` or `.rejected`
    ///   when the write fails.
    public func publish(_ document: Data, to key: String) async throws(EtcdError) -> Int64 {
        guard !key.isEmpty else {
            throw EtcdError(.keyMissing, "the key to publish to is empty; name it, for example /app/config")
        }
        if let problem = DocumentCheck.problem(in: document) {
            throw EtcdError(.invalidJSON, "the document is not a configuration: \(problem); nothing was written")
        }
        let put = PutRequest(key: KeyRange.base64(key), value: document.base64EncodedString())
        let (answer, _) = try await gateway.call("v3/kv/put", put, as: PutResponse.self)
        return answer.header?.revision?.value ?? 0
    }
}
