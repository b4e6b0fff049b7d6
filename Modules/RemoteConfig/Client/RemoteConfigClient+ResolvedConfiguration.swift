import ConfigDomain
import ConfigPorts
import Foundation

/// A client is a ``ResolvedConfiguration``: the values its reads see, raw, for bridges to other
/// configuration APIs (swift-configuration's `ConfigReader`, through `ConfigurationAdapter`).
///
/// - A registered key answers with the value its reads return (an override, the snapshot or the
///   last good value), rendered back as a ``ConfigValue``, and is secret when the key is. A key at
///   its default answers nil: the reader's own default, or a later provider, applies.
/// - Any other name answers with the active snapshot's raw value, not secret.
/// - These lookups report no unregistered-key events: a reader asks every provider for every key.
extension RemoteConfigClient: ResolvedConfiguration {
    /// The values reads see now, from one state.
    public func resolvedValues() -> ResolvedValues { resolvedValues(of: cell.load()) }

    /// The current values, then the values after each activation; finishes when the client stops.
    public func resolvedValueUpdates() -> AsyncStream<ResolvedValues> {
        let activations = updateBroadcaster.stream(bufferingPolicy: .bufferingNewest(1))
        let (stream, continuation) = AsyncStream<ResolvedValues>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let first = resolvedValues()
        continuation.yield(first)
        let follower = Task { [weak self] in
            var lastGeneration = first.generation
            for await _ in activations {
                guard let values = self?.resolvedValues() else { break }
                guard values.generation > lastGeneration else { continue }
                lastGeneration = values.generation
                continuation.yield(values)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in follower.cancel() }
        return stream
    }

    /// Refreshes first when the snapshot is not fresh (as the `.refreshBeforeReturning` read policy),
    /// then returns the values; a failed refresh keeps the last good values.
    public func freshResolvedValues() async -> ResolvedValues {
        if currentFreshness() != .fresh { _ = await engine.refresh(force: false) }
        return resolvedValues()
    }

    /// The values reads see for `context`: each registered key resolved for it (see ``value(_:for:)``),
    /// and any other name's raw value as the snapshots' rules serve it for `context`.
    public func resolvedValues(for context: EvaluationContext) -> ResolvedValues {
        resolvedValues(of: cell.load(), for: context)
    }

    /// Lookups into `state`, which they keep: every lookup through them sees that one state; with a
    /// `context`, the targeting rules are evaluated for it instead of the state's own.
    func resolvedValues(of state: ResolvedState, for context: EvaluationContext? = nil) -> ResolvedValues {
        let registry = self.registry
        return ResolvedValues(generation: state.generation) { name in
            guard let slot = registry.slot(named: name) else {
                let raw = context.map { state.sources.rawValue(name, in: $0)?.value } ?? state.sources.payloads[0]?.values[name]
                return raw.map { ResolvedValues.Entry(value: $0, isSecret: false) }
            }
            return Self.entry(of: registry.keys[slot], slot: slot, name: name, in: state, for: context)
        }
    }

    /// The registered key's value in `state` (for `context` when given), unless it is the key's default.
    private static func entry<Key: ConfigKeyRepresentable>(
        of key: Key, slot: Int, name: String, in state: ResolvedState, for context: EvaluationContext?
    ) -> ResolvedValues.Entry? {
        let key = key.configKey
        let box: AnyObject
        let candidate: OverrideValue.Content?
        if let context, state.dependsOnContext(slot) {
            let resolution = Resolver.resolve(key, slot: slot, in: state, for: context)
            if case .defaultValue = resolution.layer { return nil }
            (box, candidate) = (resolution.box, resolution.candidate)
        } else {
            if case .defaultValue = state.layers[slot] { return nil }
            (box, candidate) = (state.values[slot], state.winningCandidate(at: slot, name: name))
        }
        if let rendered = key.converter.configValue(of: box) {
            return ResolvedValues.Entry(value: rendered, isSecret: key.isSecret)
        }
        // A type that cannot render (Decodable only) answers with its candidate as it arrived.
        switch candidate {
        case .value(let raw): return ResolvedValues.Entry(value: raw, isSecret: key.isSecret)
        case .text(let text): return ResolvedValues.Entry(value: .string(text), isSecret: key.isSecret)
        case nil: return nil
        }
    }
}
