import ArgumentParser
import ConfigDomain
import ConfigPorts
import Foundation

/// `remote-config eval <config.json> --context '{"id":"u1","country":"DE"}'`: what one user gets, and why.
struct EvalCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Evaluate a config's targeting rules for one context: each key's value and the rule that decided it.",
        discussion: """
            The config may be in any format the library reads: its own targeting dialect (values, targeting, \
            groups), a GrowthBook SDK payload (features), an Unleash client features payload (a features \
            array), flagd flag definitions (a flags object), LaunchDarkly flag data (flags with variations, \
            segments), ConfigCat config JSON (f), a Firebase Remote Config template (parameters), an OFREP \
            bulk evaluation (a flags array), or plain JSON (every key is a plain value). The shape of the file \
            decides, or --format names the format.

            The context is a JSON object of attributes; its "targetingKey" (or else "id") member is also the \
            targeting key that rollouts bucket on.

            Exit status: 0 when every key evaluates; 1 when the config is not valid JSON, its format cannot \
            read it, or a key's rules have problems (the key is shown as rejected; the app keeps its last good \
            value); 2 when the file or the context cannot be used; 64 for wrong usage.

            Example:
              remote-config eval config.json --context '{"id":"u1","country":"DE"}'
              remote-config eval flags.json --format flagd --context '{"targetingKey":"u1"}'
            """)

    @Argument(help: "The config file, in any format the library reads (see --format).")
    var config: String

    @Option(
        help: ArgumentHelp("The config's format, instead of the one its shape shows: \(ConfigDialect.names).", valueName: "name"))
    var format: ConfigDialect?

    @Option(help: "The evaluation context: a JSON object of attributes, for example '{\"id\":\"u1\",\"country\":\"DE\"}'.")
    var context: String?

    @Flag(help: "Print the result as JSON.")
    var json = false

    func run() async throws {
        try await reportingFailures {
            let context = try ContextArgument.parse(self.context)
            let file = try ConfigFile.load(config, as: format, for: "eval")
            let rows = file.payload.keys.map {
                KeyEvaluation(key: $0, payload: file.payload, context: context)
            }
            if json {
                Console.shared.line(
                    JSONWriter.pretty(
                        .object([
                            "config": .string(config), "format": .string(file.dialect.displayName),
                            "keys": .array(rows.map(\.json)),
                        ])))
            } else {
                let who = context.targetingKey.map { "targeting key \"\($0)\"" } ?? "no targeting key"
                Console.shared.line(
                    "\(config) (\(file.dialect.displayName)) for \(who), attributes \(context.attributeObject.jsonText()):")
                var table = TextTable(headers: ["key", "value", "reason", "decided by"])
                for row in rows { table.append([row.key, row.valueText, row.evaluation.reason.rawValue, row.reason]) }
                for line in table.lines(styleHeader: { Console.shared.styled($0, .bold) }) { Console.shared.line(line) }
            }
            let rejected = rows.filter { !$0.problems.isEmpty }.count
            if rejected > 0 {
                throw CLIFailure.problem("\(rejected) key(s) rejected by rule problems; run `remote-config validate \(config)`")
            }
        }
    }
}

/// One key's value for a context, and why: `DecodedPayload.evaluate(_:in:)`, as the tool prints it.
struct KeyEvaluation {
    let evaluation: EvaluationDetails<ConfigValue?>

    init(key: String, payload: DecodedPayload, context: EvaluationContext) {
        evaluation = payload.evaluate(key, in: context)
    }

    var key: String { evaluation.key }
    var problems: [RuleProblem] { evaluation.errorCode == .parseError ? evaluation.rejected.compactMap(\.targeting) : [] }

    var valueText: String {
        if !problems.isEmpty { return "rejected" }
        return evaluation.value?.jsonText() ?? "(none)"
    }

    /// The rule that decided, or why there was none.
    var reason: String {
        if let problem = problems.first { return problem.description }
        guard let decision = evaluation.decision else { return "plain value" }
        var text: String
        if let error = decision.errorMessage {
            text = "error: \(error)"
        } else if evaluation.reason == .disabled {
            text = "flag disabled: the app's default"
        } else {
            text =
                decision.match.map { "\($0)" }
                ?? decision.defaultVariant.map { "default variant \($0)" }
                ?? (evaluation.value == nil ? "no rule matched, no default: the app's default" : "default")
        }
        if !decision.attributesRead.isEmpty { text += "; read \(decision.attributesRead.joined(separator: ", "))" }
        if !decision.unmatched.isEmpty {
            text += "; not matched: " + decision.unmatched.map(\.description).joined(separator: ", ")
        }
        for problem in decision.problems { text += "; problem: \(problem.reason)" }
        return text
    }

    var json: ConfigValue {
        var members: [String: ConfigValue] = [
            "key": .string(key), "value": problems.isEmpty ? evaluation.value ?? .null : .null, "decidedBy": .string(reason),
            "reason": .string(evaluation.reason.rawValue),
        ]
        if let errorCode = evaluation.errorCode { members["errorCode"] = .string(errorCode.rawValue) }
        if let variant = evaluation.variant { members["variant"] = .string(variant) }
        if let match = evaluation.decision?.match {
            members["rule"] = .string(match.ruleID)
            members["kind"] = .string(match.kind.rawValue)
            if let bucket = match.bucket {
                members["bucket"] = .object([
                    "attribute": .string(bucket.attribute), "value": .double(bucket.value),
                    "range": [.double(bucket.lower), .double(bucket.upper)],
                ])
            }
        }
        if !problems.isEmpty { members["problems"] = .array(problems.map { .string($0.description) }) }
        return .object(members)
    }
}
