import ArgumentParser
import ConfigDomain
import Foundation

/// `remote-config validate <config.json> --keys <manifest.json>`: the app's rules, run before publishing.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a config file against a key manifest, with the same conversions and rules the app uses.",
        discussion: """
            Run it in CI before publishing a config. Every declared key present in the config is converted \
            to its type and checked against its rules, exactly as the client does when it activates a \
            snapshot. Every rejected value is printed with its key, value and reason.

            The config may also be a bundled defaults file shipped with the app: the same JSON, or a \
            property list (XML or binary) whose top level is a dictionary of keys to values.

            Keys in the config that the manifest does not declare are warnings (the app ignores them), with \
            the declared name they probably meant. Declared keys missing from the config are notes: the app \
            uses their defaults.

            A payload with rules needs no manifest: its rules are checked instead (unparsable rules, unknown \
            operators, weights that do not sum, unreachable rules as warnings). That is every format the library \
            reads but plain JSON: the library's targeting dialect, GrowthBook, Unleash, flagd, LaunchDarkly, \
            ConfigCat, a Firebase template and an OFREP bulk evaluation; the shape of the file decides, or --format.

            The real problem is named first: a missing file, a URL (validate takes a file), a config larger than \
            the app accepts (HTTPFetcher's maxBodySize, 2 MiB unless --max-size says otherwise), JSON that does \
            not parse (with its line and column), a payload its format cannot read; only then the manifest.

            Exit status: 0 when every value is accepted; 1 when a value is rejected, the config is too large, \
            not valid JSON or not readable by its format (or, with --strict, when there are warnings); 2 when a \
            file cannot be read, a URL is given, or the manifest is invalid or missing for plain JSON; 64 for \
            wrong usage.

            Example:
              remote-config validate config.json --keys manifest.json
              remote-config validate defaults.plist --keys manifest.json
              remote-config validate targeting.json
            """)

    @Argument(help: "The config file to check: a JSON object, or a property-list dictionary, of keys to values.")
    var config: String

    @Option(
        name: .customLong("keys"),
        help: "The key manifest (JSON) declaring each key's type, default and rules (not needed for a payload with rules).")
    var keys: String?

    @Option(
        help: ArgumentHelp(
            "The config's format, instead of the one its shape shows: \(ConfigDialect.names) (json needs --keys).",
            valueName: "name"))
    var format: ConfigDialect?

    @Flag(help: "Fail (exit 1) on warnings too: keys the manifest does not declare.")
    var strict = false

    @Option(
        help: ArgumentHelp(
            "The largest payload the app accepts, in bytes (default: HTTPFetcher's maxBodySize, 2 MiB).", valueName: "bytes"))
    var maxSize: Int = PayloadSizeLimit.bytes

    @Flag(help: "Print the result as JSON.")
    var json = false

    func run() async throws {
        try await reportingFailures {
            // The real problem first: no file, a URL, too large, not JSON; only then the rules or the manifest.
            let bytes = try ConfigFile.readBytes(config, for: "validate")
            if let problem = PayloadSizeLimit.problem(size: bytes.count, limit: maxSize) {
                throw CLIFailure.problem(
                    "\(config) must not be published as is: \(problem); shrink it, or raise maxBodySize in the app "
                        + "and pass --max-size")
            }
            if !BundledDefaults.isPropertyList(bytes) {
                let document: ConfigValue
                do throws(JSONParseError) {
                    document = try ConfigFile.syntaxParser.parse(bytes)
                } catch {
                    let syntax = SyntaxError(source: config, error: error, bytes: bytes)
                    if json {
                        Console.shared.line(
                            JSONWriter.pretty(
                                invalidFileJSON(
                                    offset: syntax.offset, line: syntax.line, column: syntax.column, reason: syntax.reason)))
                    }
                    throw CLIFailure.problem(syntax.description)
                }
                let file = try ConfigFile.decode(bytes, document: document, path: config, as: format)
                if file.dialect.hasRules {
                    try RuleCheck.validate(file, json: json)
                    return
                }
            }
            guard let keys else {
                throw CLIFailure.input(
                    "\(config) is plain JSON (no format's rules), so --keys <manifest.json> is needed to check its values "
                        + "against the app's types and rules; or pass --format if it is in a vendor's format")
            }
            let manifest = try CommandInputs.manifest(at: keys)
            let result: ConfigValidation
            do throws(ConfigFileError) {
                result = try ConfigValidation.check(bytes, source: config, manifest: manifest)
            } catch {
                if json {
                    Console.shared.line(
                        JSONWriter.pretty(
                            invalidFileJSON(offset: error.offset, line: error.line, column: error.column, reason: error.reason)))
                }
                throw CLIFailure.problem(error.description)
            }
            if json {
                Console.shared.line(JSONWriter.pretty(resultJSON(result, manifest: manifest)))
            } else {
                printReport(result, manifest: manifest)
            }
            if !result.isValid {
                let count = result.problems.count
                throw CLIFailure.problem(
                    "\(count) value\(count == 1 ? " is" : "s are") rejected; \(config) must not be published as is")
            }
            if strict && !result.undeclared.isEmpty {
                throw CLIFailure.problem("\(result.undeclared.count) undeclared key(s), and --strict treats warnings as failures")
            }
        }
    }

    private func printReport(_ result: ConfigValidation, manifest: KeyManifest) {
        let console = Console.shared
        console.line(
            "Checked \(config) against \(keys ?? "the manifest"): "
                + "\(manifest.keys.count) keys declared, \(result.configKeyCount) in the config.")
        for rejection in result.problems {
            let label = console.styled("error  ", .red, .bold)
            console.line("\(label) \(rejection.key): value \(rejection.value) rejected by \(rejection.rule): \(rejection.reason)")
        }
        for entry in result.undeclared {
            let label = console.styled("warning", .yellow, .bold)
            var text = "\(label) \(entry.key): not declared in the manifest, so the app ignores it"
            if let suggestion = entry.suggestion { text += "; did you mean \"\(suggestion)\"?" }
            console.line(text)
        }
        for key in result.missing {
            let label = console.styled("note   ", .dim)
            console.line("\(label) \(key.name): not in the config; the app uses the default \(key.renderedDefault)")
        }
        if result.isValid {
            let warnings = result.undeclared.count
            let suffix = warnings == 0 ? "" : " (\(warnings) warning\(warnings == 1 ? "" : "s"))"
            console.line(
                console.styled("OK", .green, .bold) + ": every declared value converts to its type and passes its rules\(suffix)."
            )
        } else {
            console.line(
                "\(result.problems.count) rejected, \(result.accepted.count) accepted. The app would skip each rejected value "
                    + "and use the next layer: an override, the last good value, or the default.")
        }
    }

    private func resultJSON(_ result: ConfigValidation, manifest: KeyManifest) -> ConfigValue {
        .object([
            "config": .string(config),
            "manifest": .optional(keys),
            "valid": .bool(result.isValid),
            "problems": .array(
                result.problems.map { rejection in
                    .object([
                        "key": .string(rejection.key), "value": .string(rejection.value), "rule": .string(rejection.rule),
                        "reason": .string(rejection.reason),
                    ])
                }),
            "warnings": .array(
                result.undeclared.map { entry in
                    .object([
                        "key": .string(entry.key), "value": .string(entry.value), "suggestion": .optional(entry.suggestion),
                        "reason": .string("not declared in the manifest"),
                    ])
                }),
            "defaults": .array(
                result.missing.map { key in .object(["key": .string(key.name), "default": .string(key.renderedDefault)]) }),
            "accepted": .array(result.accepted.map { .string($0) }),
        ])
    }

    private func invalidFileJSON(offset: Int?, line: Int?, column: Int?, reason: String) -> ConfigValue {
        .object([
            "config": .string(config), "manifest": .optional(keys), "valid": .bool(false),
            "invalidJSON": .object([
                "offset": offset.map { .int(Int64($0)) } ?? .null,
                "line": line.map { .int(Int64($0)) } ?? .null,
                "column": column.map { .int(Int64($0)) } ?? .null,
                "reason": .string(reason),
            ]),
        ])
    }
}
