import ConfigDomain
import ConfigPorts
import Foundation

/// Every layer one resolution reads, other than each key's own default: what a ``ResolvedState`` was made from.
///
/// In precedence order: the overrides, the remote providers' payloads, and the bundled defaults.
/// Activations change the first two; the providers' order and the bundled defaults are fixed when
/// the client is built. The one evaluation context is what every payload's targeting rules are
/// evaluated for; a context change replaces it. The payloads are shared, not copied: each raw
/// value is kept once, in the payload that brought it.
struct ValueSources: Sendable {
    /// Override sources, in the order added (the first wins).
    var overrides: [OverrideLayer]
    /// Each remote provider's active payload, by provider (provider 0 is the builder's own fetcher).
    var payloads: [DecodedPayload?]
    /// Where each provider's active payload came from (its URL, file or key), by provider; empty without one.
    var origins: [String]
    /// Each provider's name (its cache name), by provider.
    let providerNames: [String]
    /// The cache slot each provider's payload belongs to, by provider: its name, or, when its server evaluates
    /// the flags, its name and the user's (``ContextSlot``). A last good value never leaves its slot.
    var slots: [String]
    /// The providers in precedence order: the first payload with a valid value wins.
    let precedence: [Int]
    /// Bundled defaults, in the order added (the first wins), under every payload.
    let bundled: [BundledDefaults]
    /// The evaluation context the payloads' targeting rules are evaluated for.
    var context: EvaluationContext

    /// Whether any payload has targeting rules.
    var hasRules: Bool { payloads.contains { $0?.rules.isEmpty == false } }

    /// Makes `payload`, from `origin`, `provider`'s active payload.
    mutating func activate(_ payload: DecodedPayload, from origin: String, as provider: Int) {
        payloads[provider] = payload
        origins[provider] = origin
    }

    /// How a rejection names `provider`'s payload: `snapshot https://example.com/config.json`.
    func rejectionOrigin(of provider: Int) -> String { "snapshot \(origins[provider])" }

    /// The candidate of the key `name` in `provider`'s payload under this context (or `given`), if the provider has a payload.
    func candidate(_ name: String, in provider: Int, for given: EvaluationContext? = nil) -> TargetedCandidate? {
        payloads[provider].map {
            TargetedCandidate(name: name, payload: $0, origin: rejectionOrigin(of: provider), context: given ?? context)
        }
    }

    /// The raw value of `name` in the first payload, in precedence order, that offers one in this
    /// context, or `given` (what its rules decide, else its plain value), and that payload's provider.
    func rawValue(_ name: String, in given: EvaluationContext? = nil) -> (value: ConfigValue, provider: Int)? {
        for provider in precedence {
            if let value = candidate(name, in: provider, for: given)?.raw { return (value, provider) }
        }
        return nil
    }

    /// What the targeting rules for `name` decide in this context: those of `provider`'s payload
    /// (the one that supplied the value), else of the first payload, in precedence order, with rules
    /// for it; nil without rules. Rules are evaluated at activation for values only; this evaluates
    /// them again, with their provenance, when `explain` asks.
    /// `given` replaces this context, for a read that gives its own.
    func decision(for name: String, from provider: Int?, in given: EvaluationContext? = nil) -> TargetingDecision? {
        let context = given ?? context
        if let provider { return payloads[provider]?.rules[name]?.evaluate(in: context) }
        for provider in precedence {
            if let rules = payloads[provider]?.rules[name] { return rules.evaluate(in: context) }
        }
        return nil
    }

    /// How many keys the payloads hold, counting a key once per payload that has it.
    var payloadKeyCount: Int { payloads.reduce(0) { $0 + ($1?.values.count ?? 0) } }

    /// These sources without the payloads of `providers`: what a cache-only read serves when their data has expired.
    func withoutPayloads(of providers: [Int]) -> ValueSources {
        var copy = self
        for provider in providers { copy.payloads[provider] = nil }
        return copy
    }
}
