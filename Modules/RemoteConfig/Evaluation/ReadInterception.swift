import ConfigDomain
import ConfigPorts
import Foundation

/// What a read does beyond the plain read, installed by the builder only when asked: a context source
/// (a server's request), hooks, exposure reporting.
///
/// Only reads of keys whose value can differ by context come here (``ResolvedState/intercepted``),
/// and reads for a context given with the call; every other key is the plain read, whatever is
/// installed. Hooks run around each evaluation a read makes; an exposure is reported the first time a
/// rule-decided value is read for a targeting key, and a repeated one costs a set lookup.
@usableFromInline
final class ReadInterception: Sendable {
    let contextSource: (any EvaluationContextSource)?
    /// Run around every evaluation, in the order added.
    let hooks: [any EvaluationHook]
    let exposures: ExposureRecorder?
    /// Whether a read may only return the value a state holds: no context source, no hooks.
    private let readsStoredAlways: Bool

    init(contextSource: (any EvaluationContextSource)?, hooks: [any EvaluationHook], exposures: ExposureRecorder?) {
        self.contextSource = contextSource
        self.hooks = hooks
        self.exposures = exposures
        readsStoredAlways = contextSource == nil && hooks.isEmpty
    }

    /// What a read of `slot` that gives no context does.
    @usableFromInline
    enum ReadWithoutContext {
        /// Return the value the state holds.
        case stored
        /// Evaluate the key for this context: the request's, read once here (nil: the state's own).
        case evaluate(EvaluationContext?)
    }

    /// Whether a read of `slot` that gives no context returns the value `state` holds (no context source
    /// answers and no hook runs; the read's exposure is then noted, when exposures are reported), or
    /// evaluates the key for the request's context.
    @usableFromInline
    func read(slot: Int, in state: ResolvedState, registry: KeyRegistry) -> ReadWithoutContext {
        if !readsStoredAlways {
            let context = contextSource?.currentContext
            if !hooks.isEmpty || context != nil { return .evaluate(context) }
        }
        exposures?.recordStoredRead(slot: slot, in: state, registry: registry)
        return .stored
    }

    /// The key's value in `state` for `given` (nil: the request's context, else the state's own).
    func read<Value>(
        _ key: ConfigKey<Value>, slot: Int?, in state: ResolvedState, for given: EvaluationContext?, client: RemoteConfigClient
    ) -> Value {
        let context = given ?? contextSource?.currentContext
        if let slot, context == nil || !state.dependsOnContext(slot) {
            // The value resolved at activation, for the state's own context or any other.
            let value = state.value(at: slot, as: Value.self)
            guard !hooks.isEmpty, state.dependsOnContext(slot) else {
                exposures?.recordStoredRead(slot: slot, in: state, registry: client.registry)
                return value
            }
        }
        let evaluatedFor = context ?? state.context
        guard hooks.isEmpty else {
            return evaluated(key, slot: slot, in: state, for: evaluatedFor, explaining: false, client: client).value
        }
        let resolution = Resolver.resolve(key, slot: slot, in: state, for: evaluatedFor, explaining: false)
        let value = key.converter.value(in: resolution.box, or: key.defaultValue)
        if let exposures, let answer = resolution.slotAnswer {
            exposures.record(key, value: value, answer: answer, for: evaluatedFor)
        }
        return value
    }

    /// The key's details for `context` in `state`, with the hooks run around the evaluation and the
    /// exposure recorded.
    func evaluated<Value>(
        _ key: ConfigKey<Value>, slot: Int?, in state: ResolvedState, for context: EvaluationContext, explaining: Bool,
        client: RemoteConfigClient
    ) -> EvaluationDetails<Value> {
        guard !hooks.isEmpty else {
            let details = RemoteConfigClient.details(of: key, slot: slot, in: state, for: context, explaining: explaining)
            exposures?.record(key, details: details)
            return details
        }
        var hook = HookContext(key: key.name, valueType: key.converter.typeName, context: context)
        var details: EvaluationDetails<Value>
        do {
            for each in hooks {
                if let added = try each.before(hook) { hook.context.merge(added) }
            }
            details = RemoteConfigClient.details(of: key, slot: slot, in: state, for: hook.context, explaining: explaining)
            for each in hooks.reversed() { try each.after(hook, details: details) }
            if details.reason == .error {
                let failure = EvaluationFailure(code: details.errorCode ?? .general, message: details.errorMessage ?? "")
                for each in hooks.reversed() { each.error(hook, error: failure) }
            } else {
                exposures?.record(key, details: details)
            }
        } catch {
            details = EvaluationDetails(
                key: key.name, value: key.defaultValue, reason: .error, errorCode: .general,
                errorMessage: "a hook threw: \(error)", layer: .defaultValue, isRegistered: slot != nil,
                isSecret: key.isSecret, generation: state.generation, context: hook.context)
            for each in hooks.reversed() { each.error(hook, error: error) }
        }
        for each in hooks.reversed() { each.finally(hook, details: details) }
        return details
    }
}

extension EvaluationContext {
    /// Takes `other`'s targeting key, when it has one, and its attributes over these.
    mutating func merge(_ other: EvaluationContext) {
        if let key = other.targetingKey { targetingKey = key }
        attributes.merge(other.attributes) { _, new in new }
    }
}
