import ConfigDomain
import Foundation

/// The evaluation contexts `compare` evaluates both payloads for: read from a JSON Lines file, or
/// made at random from a seed that is printed, so that a run can be repeated.
struct ComparisonContexts {
    /// Where the contexts came from, for the report: `1000 random contexts (seed 7)`.
    let origin: String
    /// The seed of random contexts, if they are random.
    let seed: UInt64?
    /// The contexts, in order.
    let contexts: [EvaluationContext]

    /// Reads `path`: one JSON object per line, as `eval --context` takes it; blank lines are skipped.
    ///
    /// - Throws: an input failure (exit 2) naming the file and line of the first unusable line.
    static func read(_ path: String) throws(CLIFailure) -> ComparisonContexts {
        let bytes = try ConfigFile.readBytes(path, for: "compare --contexts")
        guard let text = String(data: bytes, encoding: .utf8) else {
            throw CLIFailure.input("\(path) is not UTF-8 text; write one JSON object per line")
        }
        var contexts: [EvaluationContext] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.isEmpty { continue }
            guard case .object(let attributes)? = try? JSONParser().parse(Data(trimmed.utf8)) else {
                throw CLIFailure.input(
                    "\(path) line \(index + 1) is not a JSON object; write one context per line, such as "
                        + #"{"targetingKey":"u1","country":"DE"}"#)
            }
            contexts.append(ContextArgument.context(of: attributes))
        }
        if contexts.isEmpty { throw CLIFailure.input("\(path) holds no context; write one JSON object per line") }
        return ComparisonContexts(origin: "\(contexts.count) contexts from \(path)", seed: nil, contexts: contexts)
    }

    /// `count` contexts made from `seed`: targeting keys of several scripts (some non-ASCII, some
    /// empty) and the attributes rules most often read (`country`, `email`, `plan`, `version`).
    static func random(count: Int, seed: UInt64) -> ComparisonContexts {
        var generator = SeededGenerator(seed: seed)
        let contexts = (0..<count).map { index in randomContext(index, using: &generator) }
        return ComparisonContexts(
            origin: "\(count) random contexts (seed \(seed); repeat with --seed \(seed))", seed: seed, contexts: contexts)
    }

    /// The prefixes of random targeting keys: ASCII, accented Latin, Japanese, Cyrillic and an emoji.
    private static let keyPrefixes = ["user-", "usér-", "ユーザー", "пользователь-", "🦊-"]
    private static let countries = ["DE", "FR", "US", "GB", "JP", "BR", "IN"]
    private static let plans = ["free", "pro", "enterprise"]
    private static let domains = ["example.com", "example.org", "mail.example"]

    private static func randomContext(_ index: Int, using generator: inout SeededGenerator) -> EvaluationContext {
        let number = Int.random(in: 0..<1_000_000, using: &generator)
        // Every 25th key is empty: formats differ on whether an empty key is a key.
        let key = index % 25 == 24 ? "" : (keyPrefixes.randomElement(using: &generator) ?? "user-") + String(number)
        var attributes: [String: ConfigValue] = [
            "country": .string(countries.randomElement(using: &generator) ?? "DE"),
            "plan": .string(plans.randomElement(using: &generator) ?? "free"),
            "email": .string("u\(number)@" + (domains.randomElement(using: &generator) ?? "example.com")),
            "version": .string("\(Int.random(in: 1...3, using: &generator)).\(Int.random(in: 0...9, using: &generator)).0"),
        ]
        attributes[EvaluationContext.targetingKeyAttribute] = .string(key)
        return EvaluationContext(targetingKey: key, attributes: attributes)
    }
}

/// SplitMix64: a small seeded generator, so that the same seed makes the same contexts again.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// Starts the sequence at `seed`.
    init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
