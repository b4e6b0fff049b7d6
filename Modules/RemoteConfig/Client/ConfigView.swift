import ConfigDomain
import ConfigPorts
import Foundation

/// One consistent state of a client: every read through it sees the same activation, never half of
/// a refresh, for one context.
///
/// ```swift
/// let config = client.view()
/// let retries = config[Flags.maxRetries]
/// let timeout = config[Flags.timeout]          // from the same activation as `retries`
/// ```
///
/// Made by `view(for:)`, `fetch(_:for:)` and `watch()`. It is also the `ResolvedValues` that bridges
/// to other configuration APIs read by name (``entry(forName:)``).
public struct ConfigView: ResolvedValues {
    let client: RemoteConfigClient
    let state: ResolvedState
    /// The context given for reads, when not the state's own.
    let givenContext: EvaluationContext?

    init(client: RemoteConfigClient, state: ResolvedState, context: EvaluationContext? = nil) {
        self.client = client
        self.state = state
        self.givenContext = context
    }

    /// The key's value in this state, for this view's context.
    public subscript<Value>(key: ConfigKey<Value>) -> Value { client.value(key, in: state, for: givenContext) }

    /// Why the key's value is what it is in this state (see `RemoteConfigClient.details(_:for:)`).
    public func details<Value>(_ key: ConfigKey<Value>) -> EvaluationDetails<Value> {
        client.details(key, in: state, for: givenContext)
    }

    /// Why the value of `name` is what it is, registered or not: a registered key's details with its
    /// value rendered back as a `ConfigValue` (nil for a type that cannot render); any other name's
    /// value as the snapshots serve it, in precedence order, with their rules evaluated for this view's context.
    public func details(forKey name: String) -> EvaluationDetails<ConfigValue?> {
        if let slot = client.registry.slot(named: name) { return registeredDetails(client.registry.keys[slot]) }
        return client.details(ConfigKey.raw(name), in: state, for: givenContext)
    }

    /// The details of a registered key, by name, its value rendered back.
    private func registeredDetails<Key: ConfigKeyRepresentable>(_ key: Key) -> EvaluationDetails<ConfigValue?> {
        let key = key.configKey
        let details = client.details(key, in: state, for: givenContext)
        return details.with(value: key.converter.toValue(details.value))
    }

    /// The value reads of `name` see, raw: a registered key's value as its reads return it (an
    /// override, a snapshot's, the last good value), rendered back as a `ConfigValue` and secret when
    /// the key is; nil when the key is at its default. Any other name: the first value the snapshots
    /// serve it, in precedence order, with their rules evaluated for this view's context. Reports no
    /// unregistered-key event: a bridge asks for every name.
    public func entry(forName name: String) -> ResolvedEntry? {
        guard let slot = client.registry.slot(named: name) else {
            let raw = Resolver.evaluate(
                ConfigKey.raw(name), slot: nil, sources: state.sources, entries: nil,
                context: context, previous: nil, stored: nil, explaining: false)
            guard case .snapshot = raw.layer, case .value(let value)? = raw.candidate else { return nil }
            return ResolvedEntry(value: value, isSecret: false)
        }
        return entry(of: client.registry.keys[slot], slot: slot)
    }

    /// The registered key's entry in this state, unless it is at the key's default.
    private func entry<Key: ConfigKeyRepresentable>(of key: Key, slot: Int) -> ResolvedEntry? {
        let key = key.configKey
        let box: AnyObject
        let candidate: OverrideValue.Content?
        if let givenContext, state.dependsOnContext(slot) {
            let resolution = Resolver.resolve(key, slot: slot, in: state, for: givenContext, explaining: false)
            if case .defaultValue = resolution.layer { return nil }
            (box, candidate) = (resolution.box, resolution.candidate)
        } else {
            if case .defaultValue = state.layers[slot] { return nil }
            (box, candidate) = (state.values[slot], state.winningCandidate(at: slot, name: key.name))
        }
        if let rendered = key.converter.configValue(of: box) { return ResolvedEntry(value: rendered, isSecret: key.isSecret) }
        // A type that cannot render (Decodable only) answers with its candidate as it arrived.
        switch candidate {
        case .value(let raw): return ResolvedEntry(value: raw, isSecret: key.isSecret)
        case .text(let text): return ResolvedEntry(value: .string(text), isSecret: key.isSecret)
        case nil: return nil
        }
    }

    /// The generation of this state: it increases with every activation.
    public var generation: UInt64 { state.generation }

    /// The context this view's reads evaluate for: the one given, else the client's own.
    public var context: EvaluationContext { givenContext ?? state.context }

    /// What made this state from the one before (the keys that changed, and why); nil for the state `build()` made.
    public var update: ConfigUpdate? { state.update }

    /// The metadata of the builder's own fetcher's active snapshot, if any.
    public var snapshotMetadata: SnapshotMetadata? { client.engine.activeMetadata }
}

extension ConfigKey where Value == ConfigValue? {
    /// A key that reads `name` raw: any value as it arrived, nil by default (what a read by name resolves).
    static func raw(_ name: String) -> ConfigKey { ConfigKey(name: name, default: nil, converter: rawConverter) }
}

/// The converter of a raw key: every value passes as it is; override text is a string.
private let rawConverter = ValueConverter<ConfigValue?>(
    typeName: "ConfigValue", fromValue: { $0 }, fromText: { .string($0) }, toValue: { $0 }, isEqual: { $0 == $1 })
