import ConfigDomain
import ConfigPorts
import Foundation

/// Every layer one resolution reads, other than each key's own default: what a ``ResolvedState`` was made from.
///
/// In precedence order: the overrides, the remote
/// providers' snapshots, and the bundled defaults. Activations change the first three; the
/// providers' order and the bundled defaults are fixed when the client is built. The one
/// evaluation context is what every snapshot's targeting rules are evaluated for; a context change
/// replaces it.
struct ValueSources: Sendable {
    /// Override sources, in the order added (the first wins).
    var overrides: [OverrideLayer]
    /// Each remote provider's active snapshot, by provider (provider 0 is the builder's own fetcher).
    var snapshots: [ConfigSnapshot?]
    /// Each provider's name (its cache name), by provider.
    let providerNames: [String]
    /// The providers in precedence order: the first snapshot with a valid value wins.
    let precedence: [Int]
    /// Bundled defaults, in the order added (the first wins), under every snapshot.
    let bundled: [BundledDefaults]
    /// The evaluation context the snapshots' targeting rules are evaluated for.
    var context: EvaluationContext

    /// Whether any snapshot has targeting rules.
    var hasRules: Bool { snapshots.contains { $0?.rules.isEmpty == false } }

    /// The raw value of `name` in the first snapshot, in precedence order, that offers one in this
    /// context (what its rules decide, else its plain value), and that snapshot's provider.
    func rawValue(_ name: String) -> (value: ConfigValue, provider: Int)? {
        for remote in RemoteSnapshot.all(in: self) {
            if let value = TargetedCandidate(name: name, remote: remote, context: context).raw {
                return (value, remote.provider)
            }
        }
        return nil
    }

    /// What the targeting rules for `name` decide in this context: those of `provider`'s snapshot
    /// (the one that supplied the value), else of the first snapshot, in precedence order, with rules
    /// for it; nil without rules. Rules are evaluated at activation for values only; this evaluates
    /// them again, with their provenance, when `explain` asks.
    func decision(for name: String, from provider: Int?) -> TargetingDecision? {
        if let provider { return snapshots[provider]?.rules[name]?.evaluate(in: context) }
        for provider in precedence {
            if let rules = snapshots[provider]?.rules[name] { return rules.evaluate(in: context) }
        }
        return nil
    }

    /// How many keys the snapshots hold, counting a key once per snapshot that has it.
    var snapshotKeyCount: Int { snapshots.reduce(0) { $0 + ($1?.values.count ?? 0) } }

    /// These sources without the snapshots of `providers`: what a cache-only read serves when their data has expired.
    func withoutSnapshots(of providers: [Int]) -> ValueSources {
        var copy = self
        for provider in providers { copy.snapshots[provider] = nil }
        return copy
    }
}
