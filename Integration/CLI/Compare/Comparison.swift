import ConfigDomain
import ConfigPorts
import Foundation

/// Two payloads evaluated for the same contexts, flag by flag: how many contexts get the same value,
/// how many flip, the first contexts that flip, and whether the two formats bucket alike.
struct Comparison {
    /// One context for which a flag's value differs, with both answers and why.
    struct Flip {
        /// The context.
        let context: EvaluationContext
        /// The old payload's answer.
        let old: KeyEvaluation
        /// The new payload's answer.
        let new: KeyEvaluation
    }

    /// One flag's result over every context.
    struct Flag {
        /// The flag's key.
        let key: String
        /// Whether the old payload has the flag.
        var inOld = false
        /// Whether the new payload has the flag.
        var inNew = false
        /// Contexts that get the same value from both.
        var same = 0
        /// Contexts that get different values.
        var flips = 0
        /// The first flips, at most the comparison's example limit.
        var examples: [Flip] = []
        /// Whether a rollout of the old payload placed some context by its bucket.
        var oldBuckets = false
        /// Whether a rollout of the new payload placed some context by its bucket.
        var newBuckets = false
    }

    /// The old payload.
    let old: ConfigFile
    /// The new payload.
    let new: ConfigFile
    /// The contexts both were evaluated for.
    let contexts: ComparisonContexts
    /// Every flag of either payload, by key.
    let flags: [Flag]

    /// How many (flag, context) evaluations differ.
    var flipCount: Int { flags.reduce(0) { $0 + $1.flips } }
    /// The flags whose value differs for some context.
    var flippingFlags: [Flag] { flags.filter { $0.flips > 0 } }

    /// Evaluates every flag of `old` and `new` for each of `contexts`, keeping `examples` flips per flag.
    init(old: ConfigFile, new: ConfigFile, contexts: ComparisonContexts, examples: Int) {
        self.old = old
        self.new = new
        self.contexts = contexts
        let oldKeys = Set(old.payload.keys)
        let newKeys = Set(new.payload.keys)
        var flags: [Flag] = []
        for key in oldKeys.union(newKeys).sorted() {
            var flag = Flag(key: key, inOld: oldKeys.contains(key), inNew: newKeys.contains(key))
            for context in contexts.contexts {
                let before = KeyEvaluation(key: key, payload: old.payload, context: context)
                let after = KeyEvaluation(key: key, payload: new.payload, context: context)
                flag.oldBuckets = flag.oldBuckets || Self.bucketed(before.evaluation)
                flag.newBuckets = flag.newBuckets || Self.bucketed(after.evaluation)
                if Self.answer(before) == Self.answer(after) {
                    flag.same += 1
                } else {
                    flag.flips += 1
                    if flag.examples.count < examples { flag.examples.append(Flip(context: context, old: before, new: after)) }
                }
            }
            flags.append(flag)
        }
        self.flags = flags
    }

    /// Whether the two formats may bucket `flag`'s contexts differently: a rollout decided in either,
    /// and the formats hash differently.
    func bucketingDiffers(_ flag: Flag) -> Bool {
        (flag.oldBuckets || flag.newBuckets) && !BucketingHash.agrees(old.dialect, new.dialect)
    }

    /// What an app reads: the value, or none (its own default) when the key is missing, rejected or fails.
    private static func answer(_ evaluation: KeyEvaluation) -> ConfigValue? {
        evaluation.problems.isEmpty ? evaluation.evaluation.value : nil
    }

    /// Whether a rollout placed the context by its bucket: in a range it served, or outside every range.
    private static func bucketed(_ evaluation: EvaluationDetails<ConfigValue?>) -> Bool {
        guard let decision = evaluation.decision else { return false }
        if decision.match?.kind == .rollout { return true }
        return decision.unmatched.contains { rule in
            if case .outsideRollout = rule.reason { return true }
            return false
        }
    }
}
