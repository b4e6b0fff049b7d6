import ConfigDomain
import ConfigPorts
import Foundation

/// Reads for a context given with the call: a server's request, with its own user.
///
/// The client's own context (`setContext`) is resolved once per activation for every key, which is
/// what an app with one user at a time wants. A server has a user per request: these reads evaluate
/// the held snapshots' rules for the context given, through the same layers as every read
/// (overrides, snapshots, last good values, bundled defaults, the default), with the key's conversion
/// and rules. They change no state and emit no update, so any number of tasks may call them at once.
extension RemoteConfigClient {
    /// The key's value for `context`, given with the call: synchronous, no I/O, and no state swapped.
    ///
    /// ```swift
    /// let enabled = client.value(Flags.newCheckout, for: EvaluationContext(targetingKey: userID, attributes: ["country": "DE"]))
    /// ```
    ///
    /// A key that no snapshot targets, or whose value is an override, is the plain read. Otherwise the
    /// rules of the snapshots holding the key are evaluated for `context` (about the cost of one
    /// activation of that key: see `Integration/Benchmarks/README.md`).
    public func value<Value>(_ key: ConfigKey<Value>, for context: EvaluationContext) -> Value {
        guard hooks.isEmpty, exposures == nil else { return evaluated(key, for: context, in: cell.load()).value }
        return cell.withCurrent { value(key, for: context, in: $0) }
    }

    /// The key's value with its variant, reason, error code, metadata, layer and deciding rule, for
    /// the client's own context (or, with a context source, the calling task's request).
    public func details<Value>(_ key: ConfigKey<Value>) -> EvaluationDetails<Value> {
        let state = cell.load()
        return evaluated(key, for: contextSource?.currentContext ?? state.context, in: state)
    }

    /// The key's value for `context` with its variant, reason, error code, metadata, layer and deciding rule.
    public func details<Value>(_ key: ConfigKey<Value>, for context: EvaluationContext) -> EvaluationDetails<Value> {
        evaluated(key, for: context, in: cell.load())
    }

    /// Sends `name` (with a number and details) to the client's observers and `events()` as
    /// `ConfigEvent/tracked(_:)`, with the context of the calling task's request, else the client's own:
    /// what an experiment measures against the exposures.
    public func track(_ name: String, value: Double? = nil, attributes: [String: ConfigValue] = [:]) {
        let context = contextSource?.currentContext ?? cell.load().context
        engine.emit(.tracked(TrackedEvent(name: name, value: value, attributes: attributes, context: context)))
    }

    /// The key's details for `context` in `state`, with the hooks run around the evaluation and the
    /// exposure recorded: what every read of a client with hooks or exposures returns.
    func evaluated<Value>(_ key: ConfigKey<Value>, for context: EvaluationContext, in state: ResolvedState) -> EvaluationDetails<
        Value
    > {
        guard !hooks.isEmpty else {
            let result = details(key, for: context, in: state)
            exposures?.record(result, of: key, for: context)
            return result
        }
        var hook = HookContext(key: key.name, valueType: key.converter.typeName, context: context)
        var result: EvaluationDetails<Value>
        do {
            for each in hooks {
                if let added = try each.before(hook) { hook.context.merge(added) }
            }
            result = details(key, for: hook.context, in: state)
            for each in hooks.reversed() { try each.after(hook, details: result) }
            if result.reason == .error {
                let failure = EvaluationFailure(code: result.errorCode ?? .general, message: result.errorMessage ?? "")
                for each in hooks.reversed() { each.error(hook, error: failure) }
            } else {
                exposures?.record(result, of: key, for: hook.context)
            }
        } catch {
            result = EvaluationDetails(
                key: key.name, value: key.defaultValue, reason: .error, errorCode: .general,
                errorMessage: "a hook threw: \(error)",
                layer: .defaultValue)
            for each in hooks.reversed() { each.error(hook, error: error) }
        }
        for each in hooks.reversed() { each.finally(hook, details: result) }
        return result
    }

    /// Where the key's value for `context` came from: as ``explain(_:)``, with the rules evaluated for `context`.
    public func explain<Value>(_ key: ConfigKey<Value>, for context: EvaluationContext) -> Explanation {
        explain(key, for: context, in: cell.load())
    }

    /// The key's value for `context` in `state`.
    func value<Value>(_ key: ConfigKey<Value>, for context: EvaluationContext, in state: ResolvedState) -> Value {
        let slot = registry.slot(for: key.fingerprint, type: ObjectIdentifier(Value.self))
        if let slot, !state.dependsOnContext(slot) { return state.value(at: slot, as: Value.self) }
        if slot == nil { noteUnregistered(key) }
        let resolution = Resolver.resolve(key, slot: slot, in: state, for: context)
        return ValueBox<Value>.value(in: resolution.box) ?? key.defaultValue
    }

    func explain<Value>(_ key: ConfigKey<Value>, for context: EvaluationContext, in state: ResolvedState) -> Explanation {
        let slot = registry.slot(for: key.fingerprint, type: key.valueType)
        let resolution = Resolver.resolve(key, slot: slot, in: state, for: context)
        let provider = resolution.provider
        var explanation = explanation(
            name: key.name, isRegistered: slot != nil, value: key.render(resolution.box),
            layer: state.valueLayer(resolution.layer, name: key.name, lastGood: resolution.hiddenRemote),
            rejected: resolution.rejected, provider: provider,
            targeting: state.sources.decision(for: key.name, from: provider, in: context), in: state)
        explanation.context = context
        return explanation
    }

    func details<Value>(_ key: ConfigKey<Value>, for context: EvaluationContext, in state: ResolvedState) -> EvaluationDetails<
        Value
    > {
        let slot = registry.slot(for: key.fingerprint, type: key.valueType)
        let resolution = Resolver.resolve(key, slot: slot, in: state, for: context)
        var details = EvaluationDetails(
            key: key.name, value: ValueBox<Value>.value(in: resolution.box) ?? key.defaultValue, reason: .defaultValue,
            layer: state.valueLayer(resolution.layer, name: key.name, lastGood: resolution.hiddenRemote),
            rejected: resolution.rejected)
        switch resolution.layer {
        case .override:
            details.reason = .staticValue
        case .snapshot(let provider):
            if let payload = state.sources.payloads[provider] { details.take(payload.evaluate(key.name, in: context)) }
        case .lastGood:
            details.reason = .cached
        case .bundled:
            details.reason = .defaultValue
        case .defaultValue:
            details.explainDefault(in: state.sources, for: context)
        }
        return details
    }
}

extension Resolver.KeyResolution {
    /// The provider whose snapshot supplied the value, now or as its last good value.
    var provider: Int? {
        switch layer {
        case .snapshot(let provider): provider
        case .lastGood: hiddenRemote?.provider
        case .override, .bundled, .defaultValue: nil
        }
    }
}

extension ResolvedState {
    /// Whether `slot`'s value may differ for another context: some snapshot has targeting rules, and
    /// no override decided the value (an override holds for every context).
    func dependsOnContext(_ slot: Int) -> Bool {
        guard !targetedRaws.isEmpty else { return false }
        if case .override = layers[slot] { return false }
        return true
    }
}

extension EvaluationDetails {
    /// Takes the variant, reason, decision and error of the payload's own evaluation.
    mutating func take(_ evaluation: Evaluation) {
        variant = evaluation.variant
        reason = evaluation.reason
        decision = evaluation.decision
        errorCode = evaluation.errorCode
        if evaluation.errorCode != nil { errorMessage = evaluation.problems.first?.description }
    }

    /// Why the key's own default was served: what the first payload that knows the key said of it,
    /// or a refused value, or no payload with the key (or none at all).
    mutating func explainDefault(in sources: ValueSources, for context: EvaluationContext) {
        guard sources.payloads.contains(where: { $0 != nil }) else {
            reason = .error
            errorCode = .providerNotReady
            errorMessage = "no payload is held yet: none was fetched or cached"
            return
        }
        if let refused = rejected.first(where: { $0.targeting == nil }) {
            reason = .error
            errorCode = refused.rule.hasPrefix("type(") ? .typeMismatch : .general
            errorMessage = refused.description
            return
        }
        for provider in sources.precedence {
            guard let payload = sources.payloads[provider] else { continue }
            let evaluation = payload.evaluate(key, in: context)
            if evaluation.errorCode == .flagNotFound { continue }
            take(evaluation)
            if reason != .error && reason != .disabled { reason = .defaultValue }
            return
        }
        reason = .error
        errorCode = .flagNotFound
        errorMessage = "no payload has the key \"\(key)\""
    }
}

extension EvaluationContext {
    /// Takes `other`'s targeting key, when it has one, and its attributes over these.
    mutating func merge(_ other: EvaluationContext) {
        if let key = other.targetingKey { targetingKey = key }
        attributes.merge(other.attributes) { _, new in new }
    }
}
