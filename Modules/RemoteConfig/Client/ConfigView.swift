import ConfigDomain
import Foundation

/// One consistent state of a client: every read through it sees the same activation.
public struct ConfigView: Sendable {
    @usableFromInline let client: RemoteConfigClient
    @usableFromInline let state: ResolvedState

    init(client: RemoteConfigClient, state: ResolvedState) {
        self.client = client
        self.state = state
    }

    /// The key's value in this state.
    @inlinable
    public subscript<Value>(key: ConfigKey<Value>) -> Value {
        if let slot = client.registry.slot(for: key.identity) {
            return state.value(at: slot, as: Value.self)
        }
        return client.unregisteredRead(key, in: state)
    }

    /// The generation of this state.
    public var generation: UInt64 { state.generation }

    /// The snapshot metadata of this state, if any.
    public var snapshotMetadata: SnapshotMetadata? { state.snapshot?.metadata }

    /// Explains a key in this state.
    public func explain<Value>(_ key: ConfigKey<Value>) -> Explanation {
        client.explain(name: key.name, state: state, key: key)
    }

    /// Decodes a key's value in this state (cached per state).
    public func decode<T: Decodable & Sendable>(_ type: T.Type, forKey name: String) throws(ConfigError) -> T {
        try client.decode(type, forKey: name, in: state)
    }
}
