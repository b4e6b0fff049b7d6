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
    /// By provider, whether its server evaluated its payload for the context (OFREP): the payload then
    /// answers for that context only.
    let evaluatesRemotely: [Bool]
    /// The providers in precedence order: the first payload with a valid value wins.
    let precedence: [Int]
    /// Bundled defaults, in the order added (the first wins), under every payload.
    let bundled: [BundledDefaults]
    /// The evaluation context the payloads' targeting rules are evaluated for.
    var context: EvaluationContext

    /// Whether any payload has targeting rules or rejected rules.
    var hasRules: Bool { payloads.contains { $0.map { !$0.rules.isEmpty || !$0.ruleProblems.isEmpty } ?? false } }

    /// Makes `payload`, from `origin`, `provider`'s active payload.
    mutating func activate(_ payload: DecodedPayload, from origin: String, as provider: Int) {
        payloads[provider] = payload
        origins[provider] = origin
    }

    /// How a rejection names `provider`'s payload: `snapshot https://example.com/config.json`.
    func rejectionOrigin(of provider: Int) -> String { "snapshot \(origins[provider])" }

    /// How many keys the payloads hold, counting a key once per payload that has it.
    var payloadKeyCount: Int { payloads.reduce(0) { $0 + ($1?.values.count ?? 0) } }

    /// These sources without the payloads of `providers`: what a cache-only read serves when their data has expired.
    func withoutPayloads(of providers: [Int]) -> ValueSources {
        var copy = self
        for provider in providers { copy.payloads[provider] = nil }
        return copy
    }
}
