import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import EnvAdapter

/// The contract's values (text by key name) as what each source reads: variables, flags, lines.
private enum ContractInput {
    /// `MYAPP_CONTRACT_FLAG` for `contract_flag`, and so on, through the standard mapping.
    static func environment(_ values: [String: String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: values.map { ("MYAPP_" + KeyMapping.standard($0.key), $0.value) })
    }

    /// The executable's path, then each value as a flag, alternating the two documented forms
    /// (`-rc.contract_count 42` and `--rc-contract-flag=true`).
    static func arguments(_ values: [String: String]) -> [String] {
        var arguments = ["/usr/bin/contract-app"]
        for (index, (key, text)) in values.sorted(by: { $0.key < $1.key }).enumerated() {
            if index.isMultiple(of: 2) {
                arguments += ["-rc.\(key)", text]
            } else {
                arguments.append("--rc-\(key.replacingOccurrences(of: "_", with: "-"))=\(text)")
            }
        }
        return arguments
    }

    /// One `NAME=VALUE` line per value, with a comment and a blank line, as people write them.
    static func dotEnv(_ values: [String: String]) -> String {
        "# written by the contract\n\n"
            + values.sorted(by: { $0.key < $1.key }).map { "\(KeyMapping.standard($0.key))=\($0.value)" }
            .joined(separator: "\n") + "\n"
    }
}

@Suite("Environment, launch-argument and .env sources: override-source contract")
struct EnvOverrideSourcesContractTests {
    private typealias Check = OverrideSourceContract<EnvironmentOverrideSource>.Check

    /// Every check ran and passed, except the change check, skipped because the source declared `.immutable`.
    private func expectPassedAsImmutable(_ report: ContractReport) {
        report.recordIssues()
        #expect(report.passed)
        #expect(report.checks.count == Check.allCases.count)
        #expect(report.skipped.map(\.name) == [Check.eachChange.rawValue])
    }

    @Test func environmentOverrideSourcePassesTheOverrideContract() async {
        let report = await OverrideSourceContract<EnvironmentOverrideSource>(
            subject: "EnvironmentOverrideSource",
            capabilities: [.immutable],
            makeSource: { EnvironmentOverrideSource(prefix: "MYAPP_", environment: ContractInput.environment($0)) },
            makeSourceWithMalformedEntry: { values in
                var environment = ContractInput.environment(values)
                environment["MYAPP_CONTRACT_FLAGG"] = "true"  // A typo: a prefixed variable no key maps to.
                return EnvironmentOverrideSource(prefix: "MYAPP_", environment: environment)
            }
        ).run()
        expectPassedAsImmutable(report)
    }

    @Test func launchArgumentsOverrideSourcePassesTheOverrideContract() async {
        let report = await OverrideSourceContract<LaunchArgumentsOverrideSource>(
            subject: "LaunchArgumentsOverrideSource",
            capabilities: [.immutable],
            makeSource: { LaunchArgumentsOverrideSource(arguments: ContractInput.arguments($0)) },
            makeSourceWithMalformedEntry: { values in
                // A last flag with no value after it.
                LaunchArgumentsOverrideSource(arguments: ContractInput.arguments(values) + ["-rc.contract_label"])
            }
        ).run()
        expectPassedAsImmutable(report)
    }

    @Test func dotEnvOverrideSourceOverTextPassesTheOverrideContract() async {
        let report = await OverrideSourceContract<DotEnvOverrideSource>(
            subject: "DotEnvOverrideSource (text)",
            capabilities: [.immutable],
            makeSource: { DotEnvOverrideSource(contents: ContractInput.dotEnv($0)) },
            makeSourceWithMalformedEntry: { values in
                DotEnvOverrideSource(contents: ContractInput.dotEnv(values) + "this line has no equals sign\n")
            }
        ).run()
        expectPassedAsImmutable(report)
    }

    @Test func dotEnvOverrideSourceOverAFilePassesTheOverrideContract() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("DotEnvContract-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        @Sendable func file(_ text: String) throws -> DotEnvOverrideSource {
            let url = directory.appendingPathComponent("\(UUID().uuidString).env")
            try Data(text.utf8).write(to: url)
            return DotEnvOverrideSource(fileURL: url)
        }

        let report = await OverrideSourceContract<DotEnvOverrideSource>(
            subject: "DotEnvOverrideSource (file)",
            capabilities: [.immutable],
            makeSource: { try file(ContractInput.dotEnv($0)) },
            makeSourceWithMalformedEntry: { try file(ContractInput.dotEnv($0) + "export = no name\n") }
        ).run()
        expectPassedAsImmutable(report)
    }

    @Test func theMalformedEntriesAreReportedAsProblems() {
        let keys = OverrideSourceContract<EnvironmentOverrideSource>.keys
        let values = ["contract_flag": "true"]
        var environment = ContractInput.environment(values)
        environment["MYAPP_CONTRACT_FLAGG"] = "true"
        let env = EnvironmentOverrideSource(prefix: "MYAPP_", environment: environment).overrides(for: keys)
        #expect(env.problems.contains { $0.contains("MYAPP_CONTRACT_FLAGG") })
        let arguments = LaunchArgumentsOverrideSource(
            arguments: ContractInput.arguments(values) + ["-rc.contract_label"]
        ).overrides(for: keys)
        #expect(arguments.problems.contains { $0.contains("-rc.contract_label has no value") })
        let dotEnv = DotEnvOverrideSource(contents: ContractInput.dotEnv(values) + "this line has no equals sign\n")
            .overrides(for: keys)
        #expect(dotEnv.problems.contains { $0.hasPrefix(".env:4") })
    }
}
