import ConfigDomain
import ConfigPorts
import Foundation

/// The etcd keys of one configuration as of one store revision, and the payload they make.
///
/// The fetcher builds one from a range read; the watcher keeps one up to date with watch events,
/// so both hand the client the same bytes and the same version for the same keys.
struct ConfigurationState: Sendable {
    /// One etcd key's value and the revision of its last write.
    struct Entry: Sendable, Hashable {
        var value: Data
        var modRevision: Int64
    }

    /// Where the configuration lives.
    let layout: EtcdLayout
    /// The values by etcd key.
    private(set) var entries: [String: Entry]
    /// The store revision this state is current at: a watch carries on from the next one.
    private(set) var revision: Int64

    /// The state a range read answered.
    init(layout: EtcdLayout, range: RangeResponse) throws(EtcdError) {
        self.layout = layout
        self.revision = range.header?.revision?.value ?? 0
        self.entries = [:]
        for kv in range.kvs ?? [] {
            let (key, entry) = try Self.decode(kv)
            entries[key] = entry
        }
    }

    /// Reads the configuration's keys with one linearizable range read (from the endpoint that
    /// answered last, failing over to the others) and returns them with the endpoint that answered.
    static func read(_ layout: EtcdLayout, via gateway: Gateway) async throws(EtcdError) -> (Self, endpoint: String) {
        let range = KeyRange(layout)
        let (answer, index) = try await gateway.call(
            "v3/kv/range", RangeRequest(key: range.key, rangeEnd: range.rangeEnd), as: RangeResponse.self)
        return (try ConfigurationState(layout: layout, range: answer), gateway.display(index))
    }

    /// Applies the events of one revision, in order; the state is then current at `revision`.
    mutating func apply(_ events: [WatchEvent], revision: Int64) throws(EtcdError) {
        for event in events {
            guard let kv = event.kv else { continue }
            let (key, entry) = try Self.decode(kv)
            entries[key] = event.isDelete ? nil : entry
        }
        self.revision = max(self.revision, revision)
    }

    /// Carries the state forward to `revision` when nothing in it changed (a watch was created there).
    mutating func advance(to revision: Int64) { self.revision = max(self.revision, revision) }

    /// The configuration's version: the document's `mod_revision`, or under a prefix the highest
    /// `mod_revision` and the number of keys (`42/3`); `nil` when there are no keys.
    var version: String? {
        guard let newest = entries.values.map(\.modRevision).max() else { return nil }
        switch layout {
        case .document: return String(newest)
        case .prefix: return "\(newest)/\(entries.count)"
        }
    }

    /// The payload for the client, or why there is none: the key is missing, or its value is not
    /// a JSON object (a document), or a value is not UTF-8 text (under a prefix).
    func payload(from endpoint: String) throws(EtcdError) -> FetchedPayload {
        guard let version else {
            let remedy =
                switch layout {
                case .document(let key): "publish it (remote-config publish config.json --etcd \(endpoint) --key \(key))"
                case .prefix(let prefix): "put at least one config key under it (etcdctl put \(prefix)<name> <value>)"
                }
            throw EtcdError(
                .keyMissing,
                "etcd at \(endpoint) has no \(layout) (revision \(revision)): \(remedy), or check the \(layout.kindName); "
                    + "the client keeps its last good configuration")
        }
        let bytes: Data
        switch layout {
        case .document(let key): bytes = try document(key)
        case .prefix(let prefix): bytes = try object(under: prefix)
        }
        return FetchedPayload(
            bytes: bytes, validators: Validators(etag: version), contentType: "application/json",
            source: "etcd \(endpoint) \(layout) at revision \(version)")
    }

    /// The document's bytes, checked to be a JSON object.
    private func document(_ key: String) throws(EtcdError) -> Data {
        guard let entry = entries[key] else { return Data() }
        guard let problem = DocumentCheck.problem(in: entry.value) else { return entry.value }
        throw EtcdError(
            .invalidJSON,
            "the value of \(key) at revision \(entry.modRevision) is not a configuration: \(problem); publish a JSON "
                + "object (remote-config publish validates it first); the client keeps its last good configuration")
    }

    /// The JSON object of every key under the prefix, each value decoded on its own.
    private func object(under prefix: String) throws(EtcdError) -> Data {
        var members: [String: ConfigValue] = [:]
        for (key, entry) in entries {
            let name = String(key.dropFirst(prefix.count))
            guard !name.isEmpty else { continue }
            guard let text = String(data: entry.value, encoding: .utf8) else {
                throw EtcdError(
                    .invalidJSON,
                    "the value of \(key) at revision \(entry.modRevision) is not UTF-8 text; write it as JSON or text")
            }
            members[name] = (try? JSONParser().parse(entry.value)) ?? .string(text)
        }
        return ConfigValue.object(members).jsonData()
    }

    /// A key-value pair's key as text and its entry.
    private static func decode(_ kv: GatewayKeyValue) throws(EtcdError) -> (String, Entry) {
        guard let key = Data(base64Encoded: kv.key), let value = Data(base64Encoded: kv.value ?? "") else {
            throw EtcdError(.rejected, "etcd answered a key or value that is not base64; is this an etcd gateway?")
        }
        return (String(decoding: key, as: UTF8.self), Entry(value: value, modRevision: kv.modRevision?.value ?? 0))
    }
}

extension EtcdLayout {
    /// `key` or `prefix`, for messages.
    var kindName: String {
        switch self {
        case .document: "key"
        case .prefix: "prefix"
        }
    }
}
