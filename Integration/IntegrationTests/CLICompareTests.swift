import ConfigDomain
import Foundation
import Testing

/// `remote-config compare`, the migration check, as a real child process.
@Suite("remote-config compare, two payloads evaluated for the same contexts")
struct CLICompareTests {
    /// The same three flags in the library's dialect: a plain value, a rule, and a rollout to everybody.
    static let targeting = """
        {"values": {"banner": "Hi"},
         "targeting": {
           "new_checkout": {"default": false, "rules": [{"id": "de", "when": {"country": "DE"}, "value": true}]},
           "dark_mode": {"default": false, "rollouts": [{"id": "all", "coverage": 1, "variants": [{"value": true}]}]}
         }}
        """
    /// …and in GrowthBook's: a force rule with a condition, and a force rule at 100% coverage.
    static let growthBook = """
        {"features": {
          "banner": {"defaultValue": "Hi"},
          "new_checkout": {"defaultValue": false, "rules": [{"condition": {"country": "DE"}, "force": true}]},
          "dark_mode": {"defaultValue": false, "rules": [{"force": true, "coverage": 1}]}
        }}
        """
    /// A 20% rollout in GrowthBook…
    static let growthBookTwentyPercent = """
        {"features": {"beta": {"defaultValue": false, "rules": [{"id": "beta-20", "force": true, "coverage": 0.2}]}}}
        """
    /// …and in flagd.
    static let flagdTwentyPercent = """
        {"flags": {"beta": {"state": "ENABLED", "variants": {"on": true, "off": false}, "defaultVariant": "off",
          "targeting": {"fractional": [["on", 20], ["off", 80]]}}}}
        """

    /// The migration article, whose run must be what the tool prints.
    static let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Modules/RemoteConfig/RemoteConfig.docc/MigratingBetweenVendors.md")

    @Test("the migration article's run is real: its two files, its command, and exactly the output it shows")
    func articleRun() async throws {
        let text = try String(contentsOf: Self.article, encoding: .utf8)
        let json = text.matches(of: /```json\n((?:.|\n)*?)```/).map { String($0.1) }
        let shown = try #require(text.firstMatch(of: /```text\n((?:.|\n)*?)```/)?.1, "the article's run").split(
            separator: "\n", omittingEmptySubsequences: false
        ).map(String.init)
        try #require(json.count >= 2, "the article's growthbook.json and flags.json")
        let command = try #require(shown.first?.firstMatch(of: /^\$ remote-config (.*)$/)?.1, "the command line")
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        try scratch.write("growthbook.json", json[0])
        try scratch.write("flags.json", json[1])
        let outcome = try await CLIProcess.run(command.split(separator: " ").map(String.init), in: scratch.url)
        #expect(text.contains("A real run (exit status \(outcome.status)):"))
        let printed = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            + outcome.standardError.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        #expect(
            printed.filter { !$0.isEmpty } == shown.dropFirst().filter { !$0.isEmpty },
            "the article shows another run than the tool prints:\n\(outcome.standardOutput)\(outcome.standardError)")
    }

    @Test("the same flags in the library's dialect and in GrowthBook, rules and 100% rollouts, agree: exit 0")
    func agreeingPayloads() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let old = try scratch.write("targeting.json", Self.targeting)
        let new = try scratch.write("growthbook.json", Self.growthBook)
        let outcome = try await CLIProcess.run(["compare", old.path, new.path, "--random", "500", "--seed", "11"])
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)\n\(outcome.standardOutput)")
        let text = outcome.standardOutput
        #expect(text.contains("(targeting-json) with \(new.path) (growthbook) for 500 random contexts (seed 11"))
        for flag in ["banner", "dark_mode", "new_checkout"] {
            #expect(Self.row(flag, in: text) == [flag, "500", "0"], "\(text)")
        }
        #expect(text.contains("Every flag has the same value for every context: 3 flags agree."))
        #expect(outcome.standardError.isEmpty)
    }

    @Test("a 20% rollout in GrowthBook and in flagd flips users: exit 1, the first flips with both reasons, both hashes named")
    func flippingRollout() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let old = try scratch.write("growthbook.json", Self.growthBookTwentyPercent)
        let new = try scratch.write("flags.json", Self.flagdTwentyPercent)
        let outcome = try await CLIProcess.run(["compare", old.path, new.path, "--random", "1000", "--seed", "7"])
        #expect(outcome.status == 1, "\(outcome.standardOutput)")
        let text = outcome.standardOutput
        let row = try #require(Self.row("beta", in: text), "\(text)")
        let (same, flips) = (Int(row[1]) ?? -1, Int(row[2]) ?? -1)
        #expect(same + flips == 1000)
        // Two independent 20% samples differ for about 2 × 0.2 × 0.8 = 32% of users.
        #expect((200...450).contains(flips), "\(flips) flips")
        #expect(text.contains("beta: \(flips) of 1000 contexts flip; the first 3:"))
        #expect(text.contains(#"rollout "beta-20""#), "GrowthBook's reason names its rule: \(text)")
        #expect(text.contains("SPLIT"))
        #expect(text.contains("growthbook hashes with FNV-1a 32-bit"))
        #expect(text.contains("flagd hashes with MurmurHash3 (32-bit) of the CBOR encoding of [flag key, targeting key]"))
        #expect(text.contains("Rollout buckets move between these formats' hashes: pin the users who must keep their value"))
        #expect(outcome.standardError.hasPrefix("error: 1 of 1 flags flip for some contexts: beta"))
    }

    @Test("flagd's two hashings of the same file put users in different buckets: --new-format flagd-string")
    func flagdHashings() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let flags = try scratch.write("flags.json", Self.flagdTwentyPercent)
        let outcome = try await CLIProcess.run(
            ["compare", flags.path, flags.path, "--new-format", "flagd-string", "--random", "300", "--seed", "5"])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("(flagd) with \(flags.path) (flagd, string hashing)"))
        #expect(outcome.standardOutput.contains("the text flag key + targeting key, the rule of flagd's daemon"))
        let same = try await CLIProcess.run(["compare", flags.path, flags.path, "--random", "300", "--seed", "5"])
        #expect(same.status == 0, "a file agrees with itself: \(same.standardOutput)")
    }

    @Test("random contexts come from a printed seed, repeat with it, and include non-ASCII and empty targeting keys")
    func randomContexts() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let old = try scratch.write("old.json", #"{"greeting": "Hi"}"#)
        let new = try scratch.write("new.json", #"{"greeting": "Hello"}"#)
        let arguments = ["compare", old.path, new.path, "--random", "100", "--seed", "3", "--show", "100"]
        let (first, json) = try await CLIProcess.runJSON(arguments)
        #expect(first.status == 1)
        #expect(json["contexts"]?["seed"] == 3)
        let keys = try #require(json["flags"]?.element(0)?["examples"]?.arrayValue).compactMap {
            $0["context"]?["targetingKey"]?.stringValue
        }
        #expect(keys.count == 100)
        #expect(keys.contains(""), "an empty targeting key")
        #expect(keys.contains { !$0.unicodeScalars.allSatisfy(\.isASCII) }, "a non-ASCII targeting key: \(keys)")
        let (_, again) = try await CLIProcess.runJSON(arguments)
        #expect(again == json, "the same seed makes the same contexts")

        let unseeded = try await CLIProcess.run(["compare", old.path, new.path, "--random", "10"])
        let seed = try #require(
            unseeded.standardOutput.firstMatch(of: /10 random contexts \(seed (\d+); repeat with --seed (\d+)\)/))
        #expect(seed.1 == seed.2)
    }

    @Test("--contexts reads one JSON object per line; an unusable line is an input error naming it (exit 2)")
    func contextsFile() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let old = try scratch.write("targeting.json", Self.targeting)
        let new = try scratch.write("growthbook.json", Self.growthBook)
        let users = try scratch.write(
            "users.jsonl", "{\"targetingKey\": \"u1\", \"country\": \"DE\"}\n\n{\"targetingKey\": \"u2\"}\n")
        let outcome = try await CLIProcess.run(["compare", old.path, new.path, "--contexts", users.path])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("for 2 contexts from \(users.path):"))
        #expect(Self.row("new_checkout", in: outcome.standardOutput) == ["new_checkout", "2", "0"])

        let broken = try scratch.write("broken.jsonl", "{\"targetingKey\": \"u1\"}\n[1, 2]\n")
        let refused = try await CLIProcess.run(["compare", old.path, new.path, "--contexts", broken.path])
        #expect(refused.status == 2)
        #expect(refused.standardError.hasPrefix("error: \(broken.path) line 2 is not a JSON object"))
        let missing = try await CLIProcess.run(["compare", old.path, new.path, "--contexts", scratch.path("none.jsonl")])
        #expect(missing.status == 2)
        #expect(missing.standardError.hasPrefix("error: no such file: \(scratch.path("none.jsonl"))"))
    }

    @Test("a payload that is not JSON exits 1 with its line and column; mixing --contexts and --random is wrong usage (64)")
    func badInput() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let good = try scratch.write("good.json", Self.growthBook)
        let broken = try scratch.write("broken.json", "{\"features\": {\n}")
        let notJSON = try await CLIProcess.run(["compare", good.path, broken.path])
        #expect(notJSON.status == 1)
        #expect(notJSON.standardError.hasPrefix("error: \(broken.path) is not valid JSON at byte 16 (line 2, column 2)"))
        let usage = try await CLIProcess.run(["compare", good.path, good.path, "--contexts", good.path, "--random", "5"])
        #expect(usage.status == 64)
        #expect(usage.standardError.hasPrefix("error: use either --contexts or --random/--seed, not both"))
    }

    /// The table row of `flag` in `text`, split on spaces.
    private static func row(_ flag: String, in text: String) -> [String]? {
        text.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }.first { $0.first == flag }
    }
}
