import ConfigDomain
import ConfigPorts
import FirebaseFormat
import Foundation

/// `validate` for a payload with targeting rules: each key's rule problems (errors) and lint (warnings).
struct RuleCheck {
    let dialect: ConfigDialect
    let keyCount: Int
    let ruleKeyCount: Int
    /// Problems that reject a key: unparsable rules, unknown operators, weights that do not sum.
    let errors: [RuleProblem]
    /// Problems that leave the rules working: unreachable rules.
    let warnings: [RuleProblem]

    /// Checks `payload`, decoded as `dialect`; `dropped` are problems the format reported apart from its
    /// rules (a Firebase template's parameters left out).
    init(dialect: ConfigDialect, payload: DecodedPayload, dropped: [RuleProblem] = []) {
        self.dialect = dialect
        keyCount = payload.keys.count
        ruleKeyCount = payload.rules.count + payload.ruleProblems.count
        errors = dropped + payload.ruleProblems.keys.sorted().flatMap { payload.ruleProblems[$0] ?? [] }
        warnings = payload.rules.keys.sorted().flatMap { payload.rules[$0]?.lint() ?? [] }
    }

    /// Prints the report for the file `source`.
    func print(source: String) {
        let console = Console.shared
        console.line("Checked the rules of \(source) (\(dialect.displayName)): \(keyCount) keys, \(ruleKeyCount) with rules.")
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
            "config": .string(source), "dialect": .string(dialect.displayName), "valid": .bool(errors.isEmpty),
            "problems": .array(errors.map(entry)), "warnings": .array(warnings.map(entry)),
        ])
    }
}

extension RuleCheck {
    /// Validates the rules of `file` and prints the report; fails (exit 1) when a key has problems.
    static func validate(_ file: ConfigFile, json: Bool) throws(CLIFailure) {
        let check = RuleCheck(dialect: file.dialect, payload: file.payload, dropped: droppedParameters(of: file))
        if json { Console.shared.line(JSONWriter.pretty(check.json(source: file.path))) } else { check.print(source: file.path) }
        if !check.errors.isEmpty {
            throw CLIFailure.problem("\(check.errors.count) rule problem(s); \(file.path) must not be published as is")
        }
    }

    /// The parameters a Firebase template leaves out because their value or shape is invalid, as problems.
    private static func droppedParameters(of file: ConfigFile) -> [RuleProblem] {
        guard file.dialect == .firebase, let template = try? FirebaseTemplateFormat().decodeTemplate(file.bytes) else {
            return []
        }
        return template.droppedParameters.map { dropped in
            // `parameters.<key>.…` or `parameterGroups.<group>.parameters.<key>.…`: the name after the last `parameters`.
            let parts = dropped.path?.components(separatedBy: ".") ?? []
            let key = parts.lastIndex(of: "parameters").flatMap { parts.indices.contains($0 + 1) ? parts[$0 + 1] : nil }
            return RuleProblem(key: key ?? "(template)", path: dropped.path, kind: .unparsable(dropped.reason))
        }
    }
}
