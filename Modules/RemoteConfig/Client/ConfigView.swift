import ConfigDomain
import Foundation

/// One consistent state of a client: every read through it sees the same activation.
public struct ConfigView: Sendable {
    let client: RemoteConfigClient
    let state: ResolvedState

    init(client: RemoteConfigClient, state: ResolvedState) {
        self.client = client
        self.state = state
    }

    /// The key's value in this state.
    public subscript<Value>(key: ConfigKey<Value>) -> Value { client.value(key, in: state) }

    /// The generation of this state.
    public var generation: UInt64 { state.generation }

    /// The metadata of the builder's own fetcher's active snapshot, if any.
    public var snapshotMetadata: SnapshotMetadata? { client.engine.activeMetadata }

    /// Explains a key in this state.
    public func explain<Value>(_ key: ConfigKey<Value>) -> Explanation { client.explain(key, in: state) }
}
