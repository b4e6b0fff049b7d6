import ArgumentParser
import ConfigDomain
import Foundation

/// `remote-config compare <old> <new>`: before moving flags between formats or vendors, which users would see another value.
struct CompareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract:
            "Evaluate two payloads, in any formats the library reads, for the same contexts: which flags flip, for whom, and why.",
        discussion: """
            Use it before moving flags from one vendor's format to another (GrowthBook to flagd, LaunchDarkly \\
            to ConfigCat, the library's own dialect to any of them): both files are evaluated for the same \\
            contexts, and for each flag the report counts the contexts that get the same value and those whose \\
            value flips, shows the first contexts that flip with both answers and both reasons, and, where a \\
            rollout decided, which hash each format buckets with. Formats hash users differently, so a \\
            percentage rollout moves users between vendors even when its percentages are equal.

            The contexts come from --contexts (a JSON Lines file: one object per line, as eval --context takes \\
            it) or are made at random (--random, 1000 by default) from a seed printed in the report (--seed \\
            repeats a run); random targeting keys include non-ASCII and empty ones.

            Each file's format is detected from its shape, or named with --old-format and --new-format \\
            (\\(ConfigDialect.names); flagd-string is flagd with its daemon's string hashing).

            Exit status: 0 when every flag has the same value for every context; 1 when a value flips, or a \\
            payload is not valid JSON or not readable by its format; 2 when a file cannot be read or the \\
            contexts file is unusable; 64 for wrong usage.

            Examples:
              remote-config compare growthbook.json flags.json
              remote-config compare old.json new.json --random 5000 --seed 42
              remote-config compare old.json new.json --contexts users.jsonl --new-format flagd-string
            """)

    @Argument(help: "The payload the app reads today.")
    var old: String

    @Argument(help: "The payload it would read instead.")
    var new: String

    @Option(help: ArgumentHelp("The old payload's format, instead of the one its shape shows.", valueName: "name"))
    var oldFormat: ConfigDialect?

    @Option(help: ArgumentHelp("The new payload's format, instead of the one its shape shows.", valueName: "name"))
    var newFormat: ConfigDialect?

    @Option(help: ArgumentHelp("A JSON Lines file of contexts, one JSON object per line.", valueName: "contexts.jsonl"))
    var contexts: String?

    @Option(help: ArgumentHelp("How many random contexts to evaluate (default 1000).", valueName: "count"))
    var random: Int?

    @Option(help: ArgumentHelp("The seed of the random contexts (default: a new one, printed).", valueName: "number"))
    var seed: UInt64?

    @Option(help: ArgumentHelp("How many flipping contexts to show per flag.", valueName: "count"))
    var show = 3

    @Flag(help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        if contexts != nil && (random != nil || seed != nil) {
            throw ValidationError("use either --contexts or --random/--seed, not both")
        }
        if let random, !(1...1_000_000).contains(random) {
            throw ValidationError("--random must be from 1 to 1000000 contexts, got \(random)")
        }
        guard show >= 0 else { throw ValidationError("--show must be zero or more, got \(show)") }
    }

    func run() async throws {
        try await reportingFailures {
            let oldFile = try ConfigFile.load(old, as: oldFormat, for: "compare")
            let newFile = try ConfigFile.load(new, as: newFormat, for: "compare")
            let sample =
                try contexts.map { path throws(CLIFailure) in try ComparisonContexts.read(path) }
                ?? ComparisonContexts.random(count: random ?? 1000, seed: seed ?? UInt64.random(in: 1...999_999))
            let comparison = Comparison(old: oldFile, new: newFile, contexts: sample, examples: show)
            let report = ComparisonReport(comparison: comparison)
            if json {
                Console.shared.line(JSONWriter.pretty(report.json))
            } else {
                report.print(console: .shared)
            }
            let flipping = comparison.flippingFlags
            if !flipping.isEmpty {
                throw CLIFailure.problem(
                    "\(flipping.count) of \(comparison.flags.count) flags flip for some contexts: "
                        + flipping.map(\.key).joined(separator: ", "))
            }
        }
    }
}
