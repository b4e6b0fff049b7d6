import ConfigDomain
import Foundation
import Testing

/// `remote-config validate` as a real child process.
@Suite("remote-config validate, the app's rules run before publishing")
struct CLIValidateTests {
    private var exampleConfig: String { CLIProcess.examples.appendingPathComponent("config.json").path }
    private var manifest: String { CLIProcess.examples.appendingPathComponent("manifest.json").path }

    @Test("the example config passes its manifest with exit status 0")
    func exampleIsValid() async throws {
        let outcome = try await CLIProcess.run(["validate", exampleConfig, "--keys", manifest])
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        #expect(outcome.standardOutput.contains("10 keys declared, 10 in the config."))
        #expect(outcome.standardOutput.contains("OK: every declared value converts to its type and passes its rules."))
        #expect(outcome.standardError.isEmpty)
    }

    @Test("a bad config exits 1 and prints every rejected value with its key, value and reason")
    func badConfig() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let config = try scratch.write(
            "config.json",
            """
            {
              "new_chekout": true,
              "max_retries": 42,
              "request_timeout": "fast",
              "theme": "blue",
              "api_base": "http://api.example.com",
              "beta_regions": ["nl", 7],
              "analytics_key": "NOT A VALID KEY",
              "legacy_banner": false
            }
            """)
        let outcome = try await CLIProcess.run(["validate", config.path, "--keys", manifest])
        #expect(outcome.status == 1)
        let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
        let expected = [
            "error   max_retries: value 42 rejected by range(0...10): 42 is outside 0...10",
            "error   request_timeout: value \"fast\" rejected by type(Double): expected Double, found a JSON string",
            "error   theme: value \"blue\" rejected by oneOf(light, dark, system): blue is not one of light, dark, system",
            "error   api_base: value \"http://api.example.com\" rejected by pattern(https://.+): does not match the pattern https://.+",
            "error   beta_regions: value [\"nl\",7] rejected by type([String]): element [1]: expected String, found a JSON int",
            "error   analytics_key: value <redacted> rejected by pattern([a-z0-9_]*): does not match the pattern [a-z0-9_]*",
            "warning legacy_banner: not declared in the manifest, so the app ignores it",
            "warning new_chekout: not declared in the manifest, so the app ignores it; did you mean \"new_checkout\"?",
            "note    new_checkout: not in the config; the app uses the default false",
        ]
        for line in expected { #expect(lines.contains(line), "missing: \(line)\noutput:\n\(outcome.standardOutput)") }
        #expect(!outcome.standardOutput.contains("NOT A VALID KEY"), "a secret value is never printed")
        #expect(outcome.standardError == "error: 6 values are rejected; \(config.path) must not be published as is\n")
    }

    @Test("a bundled defaults property list is checked like a config: typed as the plist says, against the same rules")
    func defaultsPropertyList() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let defaults = try scratch.write(
            "defaults.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>new_checkout</key><true/>
            <key>max_retries</key><integer>42</integer>
            <key>theme</key><string>dark</string>
            </dict></plist>
            """)
        let outcome = try await CLIProcess.run(["validate", defaults.path, "--keys", manifest])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("error   max_retries: value 42 rejected by range(0...10): 42 is outside 0...10"))
        #expect(
            !outcome.standardOutput.contains("new_checkout:"), "a plist <true/> is a Bool, accepted: \(outcome.standardOutput)")
        #expect(outcome.standardOutput.contains("2 accepted"))

        let broken = try scratch.write("broken.plist", #"<?xml version="1.0"?><plist version="1.0"><array/></plist>"#)
        let refused = try await CLIProcess.run(["validate", broken.path, "--keys", manifest])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("is not a valid config: the top level must be a dictionary"))
    }

    @Test("--json gives every problem and warning as data")
    func jsonOutput() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let config = try scratch.write("config.json", #"{"max_retries": -1, "Theme": "dark"}"#)
        let (outcome, json) = try await CLIProcess.runJSON(["validate", config.path, "--keys", manifest])
        #expect(outcome.status == 1)
        #expect(json["valid"] == false)
        #expect(json["problems"]?.element(0)?["key"] == "max_retries")
        #expect(json["problems"]?.element(0)?["value"] == "-1")
        #expect(json["problems"]?.element(0)?["rule"] == "range(0...10)")
        #expect(json["warnings"]?.element(0)?["key"] == "Theme")
        #expect(json["warnings"]?.element(0)?["suggestion"] == "theme")
    }

    @Test("--strict fails on undeclared keys; without it they are only warnings")
    func strictWarnings() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let config = try scratch.write("config.json", #"{"max_retries": 2, "unknown_flag": true}"#)
        let lenient = try await CLIProcess.run(["validate", config.path, "--keys", manifest])
        #expect(lenient.status == 0)
        #expect(lenient.standardOutput.contains("(1 warning)"))
        let strict = try await CLIProcess.run(["validate", config.path, "--keys", manifest, "--strict"])
        #expect(strict.status == 1)
        #expect(strict.standardError.contains("--strict treats warnings as failures"))
    }

    @Test("a config that is not valid JSON exits 1 with the parser's byte offset, line and column")
    func invalidJSON() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let config = try scratch.write("config.json", "{\n  \"theme\": \"dark\",\n  \"theme\": \"light\"\n}")
        let outcome = try await CLIProcess.run(["validate", config.path, "--keys", manifest])
        #expect(outcome.status == 1)
        #expect(
            outcome.standardError
                == "error: \(config.path) is not valid JSON at byte 23 (line 3, column 3): duplicate key \"theme\" in an object\n"
        )
    }

    @Test(
        "an unusable manifest exits 2 with a message saying where and what to change",
        arguments: [
            (
                #"{"keys": [{"name": "n", "type": "int", "default": 20, "rules": {"range": [0, 10]}}]}"#,
                #"keys[0] "n": the default 20 is rejected by its own rule range(0...10): 20 is outside 0...10"#
            ),
            (#"{"keys": [{"name": "n", "type": "integer", "default": 1}]}"#, #"unknown type "integer""#),
            (
                #"{"keys": [{"name": "n", "type": "int", "default": 1, "rule": {}}]}"#,
                #"unknown field "rule"; did you mean "rules"?"#
            ),
            (
                #"{"keys": [{"name": "n", "type": "bool", "default": true, "rules": {"range": [0, 1]}}]}"#,
                #"the rule "range" does not apply to a bool key"#
            ),
            (
                #"{"keys": [{"name": "n", "type": "string", "default": "", "rules": {"pattern": "(["}}]}"#,
                "is not a valid regular expression"
            ),
            (
                #"{"keys": [{"name": "n", "type": "int", "default": 1}, {"name": "n", "type": "int", "default": 2}]}"#,
                "already declared at keys[0]"
            ),
            (
                #"{"keys": [{"name": "n", "type": "int", "default": 1, "rules": {"range": [5, 1]}}]}"#,
                "lowest bound 5 above its highest 1"
            ),
            (
                #"{"keys": [{"name": "n", "type": "url", "default": "not a url"}]}"#,
                "the default \"not a url\" is not a valid URL"
            ),
            (#"{"keys": [{"name": "n", "type": "int"}]}"#, #""default" is missing"#),
            (#"{"keys": {"n": 1}}"#, #""keys" must be an array"#),
            ("{\"keys\": [", "not valid JSON at byte 10 (line 1, column 11)"),
        ])
    func invalidManifest(_ manifestText: String, _ message: String) async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let badManifest = try scratch.write("manifest.json", manifestText)
        let outcome = try await CLIProcess.run(["validate", exampleConfig, "--keys", badManifest.path])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.hasPrefix("error: invalid key manifest: \(badManifest.path): "))
        #expect(outcome.standardError.contains(message), "stderr: \(outcome.standardError)")
    }

    @Test("a missing config file exits 2 with one line")
    func missingConfig() async throws {
        let outcome = try await CLIProcess.run(["validate", "/nonexistent/config.json", "--keys", manifest])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.hasPrefix("error: no such file: /nonexistent/config.json; check the path"))
        #expect(outcome.standardError.filter { $0 == "\n" }.count == 1, "one line: \(outcome.standardError)")
    }

    @Test("a config over the 2 MiB an app accepts is refused with exit 1, unless --max-size raises the limit")
    func tooLarge() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let padding = String(repeating: "x", count: 2 * 1024 * 1024)
        let config = try scratch.write("config.json", #"{"max_retries": 5, "padding": "\#(padding)"}"#)
        let refused = try await CLIProcess.run(["validate", config.path, "--keys", manifest])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("over the 2.0 MB an app's HTTPFetcher accepts"), "\(refused.standardError)")

        let raised = try await CLIProcess.run(["validate", config.path, "--keys", manifest, "--max-size", "3000000"])
        #expect(raised.status == 0, "stderr: \(raised.standardError)")
    }

}
