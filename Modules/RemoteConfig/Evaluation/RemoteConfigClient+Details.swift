import ConfigDomain
import ConfigPorts
import Foundation

/// The one result type for "why", built from one evaluation.
extension RemoteConfigClient {
    /// The key's details in `state`, for `context` (nil: the state's own, or the context source's):
    /// evaluated once, explaining, with hooks run and an exposure reported when installed. Not specialized:
    /// one copy serves every value type (a raw read by name among them), which keeps an app's binary small.
    @_semantics("optimize.sil.specialize.generic.never")
    func details<Value>(_ key: ConfigKey<Value>, in state: ResolvedState, for context: EvaluationContext?) -> EvaluationDetails<
        Value
    > {
        let slot = registry.slot(for: key.fingerprint, type: key.valueType)
        if slot == nil { noteUnregistered(key) }
        let context = context ?? interception?.contextSource?.currentContext ?? state.context
        var details =
            interception?.evaluated(key, slot: slot, in: state, for: context, explaining: true, client: self)
            ?? Self.details(of: key, slot: slot, in: state, for: context, explaining: true)
        describeSnapshot(into: &details, of: details.provider.flatMap { state.sources.providerNames.firstIndex(of: $0) })
        return details
    }

    /// The key's details for `context` in `state`, from one evaluation: what a read, a hook and details
    /// share (no snapshot metadata or freshness: ``describeSnapshot(into:of:)`` adds them).
    static func details<Value>(
        of key: ConfigKey<Value>, slot: Int?, in state: ResolvedState, for context: EvaluationContext, explaining: Bool
    ) -> EvaluationDetails<Value> {
        let resolution = Resolver.resolve(key, slot: slot, in: state, for: context, explaining: explaining)
        var details = EvaluationDetails(
            key: key.name, value: key.converter.value(in: resolution.box, or: key.defaultValue), reason: .defaultValue,
            layer: state.valueLayer(resolution.layer, name: key.name, lastGood: resolution.hiddenRemote),
            rejected: Self.rejections(of: resolution, slot: slot, in: state, for: context), isRegistered: slot != nil,
            isSecret: key.isSecret,
            provider: resolution.provider.map { state.sources.providerNames[$0] }, generation: state.generation,
            context: context)
        switch resolution.layer {
        case .override: details.reason = .staticValue
        case .snapshot: details.take(resolution.answer, from: state.sources)
        case .lastGood: details.reason = .cached
        case .bundled: details.reason = .defaultValue
        case .defaultValue: details.explainDefault(resolution.answer, in: state.sources)
        }
        return details
    }

    /// What was refused on the way: for the state's own context, what the state recorded when it was
    /// resolved (which includes a last good value kept from an earlier launch and refused then); for any
    /// other context, what this evaluation refused.
    private static func rejections(
        of resolution: Resolver.KeyResolution, slot: Int?, in state: ResolvedState, for context: EvaluationContext
    ) -> [Rejection] {
        guard let slot, context == state.context else { return resolution.rejected }
        return state.rejections[slot] ?? []
    }

    /// Adds the metadata, age and freshness of `provider`'s snapshot (else the builder's own fetcher's).
    func describeSnapshot<Value>(into details: inout EvaluationDetails<Value>, of provider: Int?) {
        let engine = engines[provider ?? 0]
        guard let metadata = engine.activeMetadata else { return }
        details.snapshot = metadata
        details.snapshotAge = engine.settings.clock.now().timeIntervalSince(metadata.fetchedAt)
        details.freshness = engine.settings.freshness(of: metadata)
    }
}

extension EvaluationDetails {
    /// Takes the variant, reason, decision and error of a payload's answer, and the flag's metadata: in that payload,
    /// under what the evaluation stated.
    mutating func take(_ answer: Resolver.ProviderAnswer?, from sources: ValueSources) {
        guard let answer else { return }
        variant = answer.answer.variant
        reason = answer.answer.reason
        // Without the provenance, the decision still names the rule or rollout that decided.
        decision =
            answer.answer.decision
            ?? answer.answer.ruleID.map { ruleID in
                TargetingDecision(
                    value: answer.answer.value,
                    match: TargetingMatch(ruleID: ruleID, kind: reason == .split ? .rollout : .rule, variant: variant))
            }
        errorCode = answer.answer.errorCode
        errorMessage = answer.answer.errorMessage
        flagMetadata = answer.answer.metadata(over: sources.payloads[answer.provider]?.flagMetadata[key])
    }

    /// Why the key's own default was served: no payload held yet, a refused value, what the first
    /// payload that knows the key said of it, or no payload with the key.
    mutating func explainDefault(_ answer: Resolver.ProviderAnswer?, in sources: ValueSources) {
        guard sources.payloads.contains(where: { $0 != nil }) else {
            reason = .error
            errorCode = .providerNotReady
            errorMessage = "no payload is held yet: none was fetched or cached"
            return
        }
        if let refused = rejected.first(where: { $0.targeting == nil }) {
            reason = .error
            errorCode =
                refused.rule == Resolver.remoteContextRule
                ? .invalidContext : refused.rule.hasPrefix("type(") ? .typeMismatch : .general
            errorMessage = refused.rule == Resolver.remoteContextRule ? refused.reason : refused.description
            return
        }
        guard let answer else {
            reason = .error
            errorCode = .flagNotFound
            errorMessage = "no payload has the key \"\(key)\""
            return
        }
        take(answer, from: sources)
        // A server that evaluated the flag said why it served no value (OFREP's code default): its word stands.
        if !sources.evaluatesRemotely[answer.provider], reason != .error, reason != .disabled { reason = .defaultValue }
    }
}
