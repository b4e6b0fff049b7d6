import ConfigDomain
import Foundation
import Testing

/// A documented way in which the library answers otherwise than a vendor's engine (each vendor's
/// `FORMAT.md` lists them), named as the oracle flags a disagreement with it.
protocol KnownDifference: RawRepresentable where RawValue == String {
    /// Whether `known`, the listed differences the oracle flagged on `disagreement`, explain it. By
    /// default any one of them does.
    static func explain(_ disagreement: Disagreement, by known: [Self]) -> Bool
}

extension KnownDifference {
    static func explain(_ disagreement: Disagreement, by known: [Self]) -> Bool { !known.isEmpty }
}

/// One answer of the library that differs from the vendor engine's answer.
struct Disagreement {
    /// Both answers and the case, for a person.
    var text: String
    /// The oracle's flags for it: the names of the known differences that apply.
    var flags: [String]
    /// The attributes the library's evaluation read, where the comparison records them.
    var read: [String] = []
    /// Which parts of the answer differ (value, variation…), where the comparison names them.
    var fields: Set<String> = []
}

/// What one case of the oracle compared: how many answers, the vendor's reasons (or origins) counted,
/// and the answers that disagree.
struct CaseOutcome {
    var answers: Int
    var reasons: [String: Int] = [:]
    var disagreements: [Disagreement]
}

/// The agreements and disagreements of a differential run so far.
struct DifferentialTally<Known: KnownDifference> {
    var cases = 0
    /// The cases in which every answer agrees.
    var agreeingCases = 0
    var answers = 0
    /// The vendor's reasons (or origins), counted.
    var reasons: [String: Int] = [:]
    /// How many disagreements a known difference explains.
    var tolerated = 0
    /// Those disagreements by the known difference flagged (one flagged with two counts under both).
    var allowed: [String: Int] = [:]
    /// Flags the oracle set that no known difference names.
    var unknownFlags: Set<String> = []
    /// The disagreements no known difference explains.
    var failures: [Disagreement] = []

    /// The answers that agree.
    var agreeingAnswers: Int { answers - tolerated - failures.count }

    mutating func add(_ outcome: CaseOutcome) {
        cases += 1
        answers += outcome.answers
        for (reason, count) in outcome.reasons { reasons[reason, default: 0] += count }
        if outcome.disagreements.isEmpty { agreeingCases += 1 }
        for disagreement in outcome.disagreements {
            let known = disagreement.flags.compactMap(Known.init(rawValue:))
            unknownFlags.formUnion(disagreement.flags.filter { Known(rawValue: $0) == nil })
            if Known.explain(disagreement, by: known) {
                tolerated += 1
                for entry in known { allowed[entry.rawValue, default: 0] += 1 }
            } else {
                failures.append(disagreement)
            }
        }
    }

    /// `DEFAULT 5658, ERROR FLAG_NOT_FOUND 5000, …`.
    var reasonSummary: String { Self.listed(reasons) }

    /// `31 differ where a known difference applies (attribute-text 20, percentage-gap 11)`.
    var allowedSummary: String { "\(tolerated) differ where a known difference applies (\(Self.listed(allowed)))" }

    private static func listed(_ counts: [String: Int]) -> String {
        counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}

extension Oracle {
    /// The most disagreements a failing run prints.
    static let printedLimit = 20

    /// The agreement test of a differential suite: the oracle's random cases for the run's seed and
    /// number (``run(defaultSeed:defaultCases:)``), compared by `compare`. Prints what was compared and
    /// how long the oracle and the comparison took, and expects every case back, no flag that no known
    /// difference names, and no disagreement outside the known differences, with the command that
    /// reproduces the run (`suite` is its filter). Returns the tally, for a suite's own checks.
    @discardableResult
    func agreement<Known>(
        of vendor: String, comparing noun: String, suite: String, defaultSeed: UInt64, defaultCases: Int = 5_000,
        sourceLocation: SourceLocation = #_sourceLocation, compare: ([ConfigValue]) throws -> DifferentialTally<Known>
    ) throws -> DifferentialTally<Known> {
        let (seed, count) = Self.run(defaultSeed: defaultSeed, defaultCases: defaultCases)
        let clock = ContinuousClock()
        let start = clock.now
        let lines = try cases(["--seed", "\(seed)", "--cases", "\(count)"])
        let oracleTime = clock.now - start
        let tally = try compare(lines)
        let reasons = tally.reasons.isEmpty ? "" : " (\(tally.reasonSummary))"
        print(
            "\(vendor) differential: seed \(seed), \(tally.cases) cases, \(tally.answers) \(noun) compared\(reasons): "
                + "\(tally.agreeingAnswers) agree, and \(tally.agreeingCases) cases in every one; "
                + "\(tally.allowedSummary); \(tally.failures.count) other disagreements; \(clock.now - start), "
                + "of which the oracle \(oracleTime)")
        #expect(tally.cases == count, "the oracle printed \(tally.cases) cases of \(count)", sourceLocation: sourceLocation)
        #expect(
            tally.unknownFlags.isEmpty, "the oracle flagged differences no entry names: \(tally.unknownFlags.sorted())",
            sourceLocation: sourceLocation)
        #expect(
            tally.failures.isEmpty,
            """
            seed \(seed): \(tally.failures.count) \(noun) disagree outside the known differences (first \(Self.printedLimit)):
            \(tally.failures.prefix(Self.printedLimit).map(\.text).joined(separator: "\n\n"))
            Reproduce: RC_DIFF_SEED=\(seed) RC_DIFF_CASES=\(count) swift test --skip-build --filter \(suite)
            """, sourceLocation: sourceLocation)
        return tally
    }
}
