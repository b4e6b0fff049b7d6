import ConfigDomain
import Foundation

/// One consistent state of a client: every read through it sees the same activation.
public struct ConfigView: Sendable {
    let client: RemoteConfigClient
    let state: ResolvedState
    /// The context reads evaluate for, when not the state's own.
    let context: EvaluationContext?

    init(client: RemoteConfigClient, state: ResolvedState, context: EvaluationContext? = nil) {
        self.client = client
        self.state = state
        self.context = context
    }

    /// The key's value in this state.
    public subscript<Value>(key: ConfigKey<Value>) -> Value {
        guard let context else { return client.value(key, in: state) }
        return client.value(key, for: context, in: state)
    }

    /// The generation of this state.
    public var generation: UInt64 { state.generation }

    /// The metadata of the builder's own fetcher's active snapshot, if any.
    public var snapshotMetadata: SnapshotMetadata? { client.engine.activeMetadata }

    /// Explains a key in this state.
    public func explain<Value>(_ key: ConfigKey<Value>) -> Explanation {
        guard let context else { return client.explain(key, in: state) }
        return client.explain(key, for: context, in: state)
    }
}
