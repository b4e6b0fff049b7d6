import ConfigDomain
import Foundation

/// A ``Comparison`` for a person (a table, the first flips, the hashes) or as JSON.
struct ComparisonReport {
    /// What was compared.
    let comparison: Comparison

    private var old: ConfigFile { comparison.old }
    private var new: ConfigFile { comparison.new }

    /// Prints the report.
    func print(console: Console) {
        console.line(
            "Comparing \(old.path) (\(old.dialect.displayName)) with \(new.path) (\(new.dialect.displayName)) "
                + "for \(comparison.contexts.origin):")
        var table = TextTable(headers: ["flag", "same", "flips", "note"])
        for flag in comparison.flags {
            table.append([flag.key, String(flag.same), String(flag.flips), note(flag)])
        }
        for line in table.lines(styleHeader: { console.styled($0, .bold) }) {
            console.line(String(line.reversed().drop { $0 == " " }.reversed()))  // no padding after an empty note
        }
        for flag in comparison.flippingFlags {
            console.line()
            let total = flag.same + flag.flips
            let shown = flag.examples.count
            console.line(
                console.styled(flag.key, .bold)
                    + ": \(flag.flips) of \(total) contexts flip\(shown > 0 ? "; the first \(shown):" : ".")")
            for flip in flag.examples {
                console.line("  \(who(flip.context))")
                console.line("    old: \(flip.old.valueText)  \(flip.old.evaluation.reason.rawValue)  \(flip.old.reason)")
                console.line("    new: \(flip.new.valueText)  \(flip.new.evaluation.reason.rawValue)  \(flip.new.reason)")
            }
            if comparison.bucketingDiffers(flag) {
                console.line("  bucketing: \(old.dialect.displayName) hashes with \(BucketingHash.description(of: old.dialect));")
                console.line("             \(new.dialect.displayName) hashes with \(BucketingHash.description(of: new.dialect)).")
            }
        }
        console.line()
        console.line(summary)
    }

    /// The last line: all agree, or how many flags flip and what to do about rollouts.
    var summary: String {
        let flipping = comparison.flippingFlags
        guard !flipping.isEmpty else {
            return "Every flag has the same value for every context: \(comparison.flags.count) flags agree."
        }
        var text = "\(flipping.count) of \(comparison.flags.count) flags flip for some contexts."
        if flipping.contains(where: comparison.bucketingDiffers) {
            text +=
                " Rollout buckets move between these formats' hashes: pin the users who must keep their value with "
                + "targets before switching (see the article \"Migrating flags between vendors\")."
        }
        return text
    }

    /// The table's last column: a flag only one payload has, or, for a flag that flips, that its rollout's buckets differ.
    private func note(_ flag: Comparison.Flag) -> String {
        if !flag.inOld { return "only in the new payload" }
        if !flag.inNew { return "only in the old payload" }
        if flag.flips > 0 && comparison.bucketingDiffers(flag) { return "rollout: buckets differ between the two hashes" }
        return ""
    }

    /// `targeting key "usér-12", attributes {"country":"DE",…}`.
    private func who(_ context: EvaluationContext) -> String {
        let key = context.targetingKey.map { "targeting key \(ConfigValue.string($0).jsonText())" } ?? "no targeting key"
        return "\(key), attributes \(context.attributeObject.jsonText())"
    }

    /// The report as JSON.
    var json: ConfigValue {
        func side(_ file: ConfigFile) -> ConfigValue {
            .object([
                "file": .string(file.path), "format": .string(file.dialect.displayName),
                "bucketing": .string(BucketingHash.description(of: file.dialect)),
            ])
        }
        func answer(_ evaluation: KeyEvaluation) -> ConfigValue {
            var members: [String: ConfigValue] = [
                "value": evaluation.problems.isEmpty ? evaluation.evaluation.value ?? .null : .null,
                "reason": .string(evaluation.evaluation.reason.rawValue), "decidedBy": .string(evaluation.reason),
            ]
            if let variant = evaluation.evaluation.variant { members["variant"] = .string(variant) }
            return .object(members)
        }
        let flags: [ConfigValue] = comparison.flags.map { flag in
            .object([
                "key": .string(flag.key), "same": .int(Int64(flag.same)), "flips": .int(Int64(flag.flips)),
                "inOld": .bool(flag.inOld), "inNew": .bool(flag.inNew),
                "bucketingDiffers": .bool(comparison.bucketingDiffers(flag)),
                "examples": .array(
                    flag.examples.map { flip in
                        .object(["context": flip.context.attributeObject, "old": answer(flip.old), "new": answer(flip.new)])
                    }),
            ])
        }
        var contexts: [String: ConfigValue] = [
            "count": .int(Int64(comparison.contexts.contexts.count)), "origin": .string(comparison.contexts.origin),
        ]
        if let seed = comparison.contexts.seed {
            contexts["seed"] = Int64(exactly: seed).map { .int($0) } ?? .string(String(seed))
        }
        return .object([
            "old": side(old), "new": side(new), "contexts": .object(contexts), "flags": .array(flags),
            "agree": .bool(comparison.flippingFlags.isEmpty),
        ])
    }
}
