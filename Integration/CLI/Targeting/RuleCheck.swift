import ConfigDomain
import ConfigPorts
import Foundation

/// `validate` for a payload with targeting rules: each key's rule problems (errors) and lint (warnings).
struct RuleCheck {
    let dialect: TargetingDocument.Dialect
    let keyCount: Int
    let ruleKeyCount: Int
    /// Problems that reject a key: unparsable rules, unknown operators, weights that do not sum.
    let errors: [RuleProblem]
    /// Problems that leave the rules working: unreachable rules.
    let warnings: [RuleProblem]

    /// Checks `payload`, decoded as `dialect`.
    init(dialect: TargetingDocument.Dialect, payload: DecodedPayload) {
        self.dialect = dialect
        keyCount = payload.keys.count
        ruleKeyCount = payload.rules.count + payload.ruleProblems.count
        errors = payload.ruleProblems.keys.sorted().flatMap { payload.ruleProblems[$0] ?? [] }
        warnings = payload.rules.keys.sorted().flatMap { payload.rules[$0]?.lint() ?? [] }
    }

    /// Prints the report for the file `source`.
    func print(source: String) {
        let console = Console.shared
        console.line("Checked the rules of \(source) (\(dialect.rawValue)): \(keyCount) keys, \(ruleKeyCount) with rules.")
        for problem in errors { console.line("\(console.styled("error  ", .red, .bold)) \(problem)") }
        for problem in warnings { console.line("\(console.styled("warning", .yellow, .bold)) \(problem)") }
        if errors.isEmpty {
            let suffix = warnings.isEmpty ? "" : " (\(warnings.count) warning\(warnings.count == 1 ? "" : "s"))"
            console.line(
                console.styled("OK", .green, .bold) + ": every rule parses and every rollout's weights sum to 1\(suffix).")
        } else {
            console.line(
                "\(errors.count) problem\(errors.count == 1 ? "" : "s"). The app rejects each key with a problem alone and "
                    + "keeps its last good value; the other keys activate.")
        }
    }

    /// The report as JSON.
    func json(source: String) -> ConfigValue {
        func entry(_ problem: RuleProblem) -> ConfigValue {
            .object([
                "key": .string(problem.key), "rule": .optional(problem.ruleID), "path": .optional(problem.path),
                "reason": .string(problem.reason),
            ])
        }
        return .object([
            "config": .string(source), "dialect": .string(dialect.rawValue), "valid": .bool(errors.isEmpty),
            "problems": .array(errors.map(entry)), "warnings": .array(warnings.map(entry)),
        ])
    }
}

extension RuleCheck {
    /// Validates the rules of the file at `path` if it is a targeting or GrowthBook payload, and
    /// returns whether it was one; fails (exit 1) when a key has problems.
    static func validate(path: String, json: Bool) throws(CLIFailure) -> Bool {
        guard let bytes = FileManager.default.contents(atPath: path), let dialect = TargetingDocument.dialect(of: bytes) else {
            return false
        }
        let payload: DecodedPayload
        do throws(PayloadError) {
            payload = try dialect.format.decode(bytes)
        } catch {
            throw CLIFailure.problem("\(path) cannot be used: \(error)")
        }
        let check = RuleCheck(dialect: dialect, payload: payload)
        if json { Console.shared.line(JSONWriter.pretty(check.json(source: path))) } else { check.print(source: path) }
        if !check.errors.isEmpty {
            throw CLIFailure.problem("\(check.errors.count) rule problem(s); \(path) must not be published as is")
        }
        return true
    }
}
