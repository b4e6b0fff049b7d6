import ConfigDomain
import FileCacheAdapter
import Foundation
import Testing

/// What `remote-config` says when something is wrong: the real problem first, one `error:` line, a
/// close name for a mistyped command, and the exit status the README's table gives, in every command.
@Suite("remote-config says what is wrong")
struct CLIErrorsTests {
    /// The tool's README.
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("CLI/README.md")

    /// What kind of outcome a run is, in the words of the README's exit-status table.
    enum Outcome: String, CaseIterable {
        case success = "success"
        case problem = "the command ran and found a problem"
        case input = "its input is unusable"
        case usage = "wrong usage"
    }

    /// The README's table: each outcome's exit status, read from "`0` success; `1` the command ran …".
    static func readmeTable() throws -> [Outcome: Int32] {
        let text = try String(contentsOf: readme, encoding: .utf8)
        var table: [Outcome: Int32] = [:]
        for outcome in Outcome.allCases {
            let pattern = try Regex("`(\\d+)` \(outcome.rawValue)")
            if let match = text.firstMatch(of: pattern), let code = match.output[1].substring.flatMap({ Int32($0) }) {
                table[outcome] = code
            }
        }
        return table
    }

    /// One run of one command, and the outcome the table names for it.
    struct Case: CustomStringConvertible {
        let arguments: [String]
        let outcome: Outcome
        var description: String { "remote-config \(arguments.joined(separator: " "))" }
    }

    @Test("every command exits as the README's table says: 0 success, 1 a problem found, 2 unusable input, 64 wrong usage")
    func exitStatusTable() async throws {
        let table = try Self.readmeTable()
        #expect(table == [.success: 0, .problem: 1, .input: 2, .usage: 64], "the README's table: \(table)")
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let config = CLIProcess.examples.appendingPathComponent("config.json").path
        let manifest = CLIProcess.examples.appendingPathComponent("manifest.json").path
        let bad = try scratch.write("bad.json", "{\"theme\": }").path
        let missing = scratch.path("missing.json")
        let old = try scratch.write("old.json", CLICompareTests.growthBookTwentyPercent).path
        let new = try scratch.write("new.json", CLICompareTests.flagdTwentyPercent).path
        try FileManager.default.createDirectory(atPath: scratch.path("empty-cache"), withIntermediateDirectories: true)
        let damaged = scratch.url.appendingPathComponent("damaged-cache")
        try scratch.write("damaged-cache/" + CacheFileNames(name: "default").snapshot(.active), "not a cache file")
        let keys = try await CLIProcess.run(["keygen", "--key-id", "k1", "--out", scratch.path("keys")])
        #expect(keys.status == 0)
        let signed = try scratch.write("signed.json", #"{"a": 1}"#).path
        #expect(try await CLIProcess.run(["sign", signed, "--key", scratch.path("keys/k1.key")]).status == 0)
        let tampered = try scratch.write("tampered.json", #"{"a": 2}"#).path
        try FileManager.default.copyItem(atPath: signed + ".sig", toPath: tampered + ".sig")
        let publicKey = scratch.path("keys/k1.pub")

        try await CLIServer.with([config, "--port", "0", "--quiet"]) { server in
            let cases: [Case] = [
                // demo: its success is CLIDemoTests' and the README test's.
                Case(arguments: ["demo", "--examples", missing], outcome: .input),
                Case(arguments: ["demo", "--bogus"], outcome: .usage),
                // serve: its success (stopped by a signal) is below.
                Case(arguments: ["serve", bad, "--port", "0"], outcome: .problem),
                Case(arguments: ["serve", missing, "--port", "0"], outcome: .input),
                Case(arguments: ["serve", config, "--port", "70000"], outcome: .usage),
                Case(arguments: ["fetch", server.url()], outcome: .success),
                Case(arguments: ["fetch", "http://127.0.0.1:9/config.json", "--timeout", "5"], outcome: .problem),
                Case(arguments: ["fetch", "not a url"], outcome: .input),
                Case(arguments: ["fetch", server.url(), "--ttl", "0"], outcome: .usage),
                Case(arguments: ["inspect", scratch.path("empty-cache")], outcome: .success),
                Case(arguments: ["inspect", damaged.path], outcome: .problem),
                Case(arguments: ["inspect", scratch.path("no-cache")], outcome: .input),
                Case(arguments: ["inspect", scratch.path("empty-cache"), "--ttl", "0"], outcome: .usage),
                Case(arguments: ["validate", config, "--keys", manifest], outcome: .success),
                Case(arguments: ["validate", bad, "--keys", manifest], outcome: .problem),
                Case(arguments: ["validate", missing, "--keys", manifest], outcome: .input),
                Case(arguments: ["validate"], outcome: .usage),
                Case(arguments: ["keygen", "--key-id", "k2", "--out", scratch.path("more-keys")], outcome: .success),
                Case(arguments: ["keygen", "--key-id", "k3", "--out", config], outcome: .input),
                Case(arguments: ["keygen", "--key-id", "not a key id"], outcome: .usage),
                Case(
                    arguments: [
                        "keyset", "create", "--version", "1", "--threshold", "1", "--key", publicKey, "--out",
                        scratch.path("set.json"),
                    ],
                    outcome: .success),
                Case(arguments: ["keyset", "create", "--version", "1", "--threshold", "1", "--key", missing], outcome: .input),
                Case(arguments: ["keyset", "create", "--version", "1", "--threshold", "1"], outcome: .usage),
                Case(arguments: ["sign", signed, "--key", scratch.path("keys/k1.key"), "--output", "-"], outcome: .success),
                Case(arguments: ["sign", missing, "--key", scratch.path("keys/k1.key")], outcome: .input),
                Case(arguments: ["sign", signed], outcome: .usage),
                Case(arguments: ["verify", signed, "--key", publicKey], outcome: .success),
                Case(arguments: ["verify", tampered, "--key", publicKey], outcome: .problem),
                Case(arguments: ["verify", missing, "--key", publicKey], outcome: .input),
                Case(arguments: ["verify", signed], outcome: .usage),
                // publish: its success needs etcd, and is CLIPublishTests'.
                Case(arguments: ["publish", bad, "--etcd", "http://127.0.0.1:9", "--key", "/app"], outcome: .problem),
                Case(arguments: ["publish", missing, "--etcd", "http://127.0.0.1:9", "--key", "/app"], outcome: .input),
                Case(arguments: ["publish", config, "--key", "/app"], outcome: .usage),
                Case(arguments: ["eval", config], outcome: .success),
                Case(arguments: ["eval", bad], outcome: .problem),
                Case(arguments: ["eval", missing], outcome: .input),
                Case(arguments: ["eval", config, "--format", "yaml"], outcome: .usage),
                Case(arguments: ["compare", new, new, "--random", "50"], outcome: .success),
                Case(arguments: ["compare", old, new, "--random", "200"], outcome: .problem),
                Case(arguments: ["compare", old, missing], outcome: .input),
                Case(arguments: ["compare", old, new, "--contexts", old, "--random", "5"], outcome: .usage),
            ]
            let help = try await CLIProcess.run(["--help"]).standardOutput
            // The commands `--help` lists: a lowercase word indented by exactly two spaces, under SUBCOMMANDS.
            let section = help.components(separatedBy: "SUBCOMMANDS:").last ?? ""
            let listed = section.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("  "), !line.hasPrefix("   "), let word = line.split(separator: " ").first,
                    word.first?.isLowercase == true
                else { return nil }
                return String(word)
            }
            #expect(Set(listed) == Set(cases.compactMap(\.arguments.first)), "every command of the tool has cases: \(listed)")
            try await withThrowingTaskGroup(of: (Case, ChildProcess.Outcome).self) { group in
                for item in cases { group.addTask { (item, try await CLIProcess.run(item.arguments)) } }
                for try await (item, outcome) in group {
                    let expected = try #require(table[item.outcome])
                    #expect(outcome.status == expected, "\(item): \(item.outcome) is \(expected)\n\(outcome.standardError)")
                    if item.outcome != .success {
                        #expect(
                            outcome.standardError.hasPrefix("error: "), "\(item) starts with error:\n\(outcome.standardError)")
                    }
                }
            }
        }
        let serve = try await CLIServer.start([config, "--port", "0"])
        #expect(await serve.stop() == table[.success], "serve stopped by SIGTERM")
    }

    @Test(
        "validate names the real problem before asking for a manifest: no file, a URL, a folder, JSON syntax with line and column"
    )
    func validateNamesTheRealProblem() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let missing = try await CLIProcess.run(["validate", scratch.path("config.json")])
        #expect(missing.status == 2)
        #expect(missing.standardError.hasPrefix("error: no such file: \(scratch.path("config.json"))"))

        let url = try await CLIProcess.run(["validate", "https://cdn.example.com/app/config.json"])
        #expect(url.status == 2)
        #expect(
            url.standardError.hasPrefix(
                "error: `validate` takes a file, not a URL (https://cdn.example.com/app/config.json); download it first"))
        #expect(url.standardError.contains("remote-config fetch https://cdn.example.com/app/config.json --keys manifest.json"))

        let folder = try await CLIProcess.run(["validate", scratch.url.path])
        #expect(folder.status == 2)
        #expect(folder.standardError.contains("is a folder; `validate` takes one config file"))

        let files = [
            ("plain.json", "{\n  \"theme\": \"dark\"\n  \"max_retries\": 3\n}", 22, 3, 3),
            ("flagd.json", "{\"flags\": {\n  \"a\": {\"state\": \"ENABLED\",}\n}}", 38, 2, 27),
            ("growthbook.json", "{\"features\": {\"a\": {\"defaultValue\": tru}}}", 39, 1, 40),
        ]
        for (name, text, offset, line, column) in files {
            let file = try scratch.write(name, text)
            let outcome = try await CLIProcess.run(["validate", file.path])
            #expect(outcome.status == 1, "\(name): \(outcome.standardError)")
            #expect(
                outcome.standardError.hasPrefix(
                    "error: \(file.path) is not valid JSON at byte \(offset) (line \(line), column \(column)): "),
                "\(name): \(outcome.standardError)")
            #expect(!outcome.standardError.contains("--keys"), "the syntax first, not the manifest: \(outcome.standardError)")
        }
    }

    @Test("argument errors start with error:, and a mistyped command gets the command it most likely meant")
    func argumentErrors() async throws {
        let mistyped = try await CLIProcess.run(["serv", "config.json", "--port", "0"])
        #expect(mistyped.status == 64)
        #expect(
            mistyped.standardError.hasPrefix("error: unknown command 'serv'; did you mean 'serve'?\n"),
            "\(mistyped.standardError)")
        let unknown = try await CLIProcess.run(["xyzzy"])
        #expect(unknown.status == 64)
        #expect(unknown.standardError.hasPrefix("error: unknown command 'xyzzy'; the commands are demo, serve, fetch"))

        let missingArgument = try await CLIProcess.run(["eval"])
        #expect(missingArgument.status == 64)
        #expect(
            missingArgument.standardError.hasPrefix("error: Missing expected argument '<config>'"),
            "\(missingArgument.standardError)")
        #expect(missingArgument.standardError.contains("Usage: remote-config eval"))
        let unknownOption = try await CLIProcess.run(["validate", "config.json", "--bogus"])
        #expect(unknownOption.standardError.hasPrefix("error: Unknown option '--bogus'"))
        #expect(!(missingArgument.standardError + unknownOption.standardError).contains("Error:"))

        let help = try await CLIProcess.run(["help", "compare"])
        #expect(help.status == 0)
        #expect(help.standardOutput.contains("USAGE: remote-config compare"))
    }

    @Test("the README's build and run commands work with no trait to know about (the manifest's choice, then the built tool)")
    func readmeCommands() async throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let block = try #require(text.firstMatch(of: /```sh\n((?:.|\n)*?)```/)?.1, "the README's first sh block")
        let commands = block.split(separator: "\n").map {
            $0.split(separator: "#").first?.trimmingCharacters(in: .whitespaces) ?? ""
        }
        #expect(commands == ["swift build --product remote-config", "swift run remote-config demo"], "\(commands)")

        // The build: a SwiftPM started in the package's folder without RC_DEVELOPMENT turns the Development
        // trait on (the tool's packages); one started in a consumer's folder does not. Reading the manifest
        // shows it without building the package again (a second scratch folder, so no lock is shared).
        let root = Self.readme.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let scratchPath = FileManager.default.temporaryDirectory.appendingPathComponent("rc-manifest-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: scratchPath)
            SwiftPMLockFiles.remove(under: scratchPath)
        }
        func defaultTraits(shellFolder: URL) async throws -> [String] {
            var environment = ProcessInfo.processInfo.environment
            environment["RC_DEVELOPMENT"] = nil
            environment["PWD"] = shellFolder.path
            let outcome = try await ChildProcess.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                arguments: ["swift", "package", "--package-path", root.path, "--scratch-path", scratchPath.path, "dump-package"],
                environment: environment, currentDirectory: shellFolder, deadline: 300)
            #expect(outcome.status == 0, "\(outcome.standardError)")
            let manifest = try JSONParser().parse(Data(outcome.standardOutput.utf8))
            let traits = try #require(manifest["traits"]?.arrayValue)
            let defaults = traits.first { $0["name"] == "default" }?["enabledTraits"]?.arrayValue ?? []
            return defaults.compactMap(\.stringValue)
        }
        #expect(try await defaultTraits(shellFolder: root) == ["Development"])
        #expect(try await defaultTraits(shellFolder: FileManager.default.temporaryDirectory) == [])

        // The run: the tool that build makes, as `swift run` starts it, without RC_DEVELOPMENT.
        var environment = CLIProcess.environment
        environment["RC_DEVELOPMENT"] = nil
        let demo = try await ChildProcess.run(
            try CLIProcess.executable(), arguments: ["demo"], environment: environment, currentDirectory: root)
        #expect(demo.status == 0, "\(demo.standardError)")
        #expect(demo.standardOutput.contains("Done in "))
    }
}
