import ConfigDomain
import Foundation
import Targeting
import Testing

/// `remote-config eval` and `remote-config validate` on payloads with targeting rules, as real child processes.
@Suite("remote-config eval and validate with targeting rules")
struct CLITargetingTests {
    private var example: String { CLIProcess.examples.appendingPathComponent("targeting.json").path }

    @Test("eval prints each key's value with the rule that decided it")
    func evalExample() async throws {
        let outcome = try await CLIProcess.run(["eval", example, "--context", #"{"id":"u1","country":"DE"}"#])
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        #expect(lines.contains("checkout_button \"black\" TARGETING_MATCH rule \"germany\"; read country"), "\(lines)")
        #expect(
            lines.contains(
                #"new_checkout true TARGETING_MATCH rule "beta-testers"; read email, targetingKey; not matched: "staff" (condition failed)"#
            ))
        #expect(lines.contains("max_retries 3 STATIC plain value"))
    }

    @Test("eval --json names the rollout, its bucket and range for another user")
    func evalJSON() async throws {
        let (outcome, json) = try await CLIProcess.runJSON([
            "eval", example, "--context", #"{"id":"u9","app":{"version":"2.5.0"}}"#, "--json",
        ])
        #expect(outcome.status == 0)
        let button = try #require(json["keys"]?.arrayValue?.first { $0["key"] == "checkout_button" })
        #expect(button["rule"] == "button-test")
        #expect(button["kind"] == "rollout")
        #expect(button["reason"] == "SPLIT")
        #expect(button["bucket"]?["attribute"] == "targetingKey")
        let bucket = try #require(button["bucket"]?["value"]?.doubleValue)
        #expect(bucket == Bucketing.hash(seed: "button-test", value: "u9", version: 2))
        #expect(button["value"] == (bucket < 0.3 ? "blue" : "green"))
    }

    @Test("validate passes a clean payload without a manifest, and reports unknown operators, bad weights and unreachable rules")
    func validateRules() async throws {
        let clean = try await CLIProcess.run(["validate", example])
        #expect(clean.status == 0, "stderr: \(clean.standardError)")
        #expect(clean.standardOutput.contains("OK: every rule parses and every rollout's weights sum to 1."))

        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let bad = try scratch.write(
            "bad.json",
            #"""
            {"targeting": {
              "a": {"rules": [{"id": "x", "when": {"n": {"$regx": "^a"}}, "value": 1}]},
              "b": {"rollouts": [{"id": "r", "variants": [{"value": 1, "weight": 0.5}, {"value": 2, "weight": 0.4}]}]},
              "c": {"rules": [{"id": "all", "value": 1}, {"id": "never", "when": {"p": 1}, "value": 2}]}
            }}
            """#)
        let outcome = try await CLIProcess.run(["validate", bad.path])
        #expect(outcome.status == 1)
        let output = outcome.standardOutput
        #expect(
            output.contains(
                #"key "a" rule "x" at targeting.a.rules[0].when.n.$regx: unknown operator "$regx"; did you mean "$regex"?"#))
        #expect(output.contains(#"key "b" rule "r" at targeting.b.rollouts[0].variants: the rollout's weights sum to 0.9"#))
        #expect(
            output.contains(
                #"key "c" rule "never" at targeting.c.rules[1]: the rule can never decide: rule "all" before it always matches"#))

        let (jsonOutcome, json) = try await CLIProcess.runJSON(["validate", bad.path, "--json"])
        #expect(jsonOutcome.status == 1)
        #expect(json["problems"]?.arrayValue?.count == 2)
        #expect(json["warnings"]?.arrayValue?.first?["rule"] == "never")
    }

    @Test("a GrowthBook payload evaluates and validates too")
    func growthBook() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let file = try scratch.write(
            "gb.json",
            #"{"features": {"f": {"defaultValue": 1, "rules": [{"id": "de", "condition": {"country": "DE"}, "force": 2}]}}}"#)
        let outcome = try await CLIProcess.run(["eval", file.path, "--context", #"{"country":"DE"}"#])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("(growthbook)"))
        #expect(outcome.standardOutput.split(separator: "\n").contains { $0.hasPrefix("f ") && $0.contains("rule \"de\"") })
        #expect(try await CLIProcess.run(["validate", file.path]).status == 0)
    }

    @Test("flagd flag definitions evaluate (value, variant, reason) and validate, a typo in an operator included")
    func flagd() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let file = try scratch.write(
            "flags.json",
            #"""
            {"flags": {
              "color": {"state": "ENABLED", "variants": {"red": "#f00", "blue": "#00f"}, "defaultVariant": "red",
                        "targeting": {"if": [{"in": [{"var": "country"}, ["DE", "AT"]]}, "blue", null]}},
              "off": {"state": "DISABLED", "variants": {"on": true}, "defaultVariant": "on"}
            }}
            """#)
        let (outcome, json) = try await CLIProcess.runJSON(["eval", file.path, "--context", #"{"country":"DE"}"#, "--json"])
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        let color = try #require(json["keys"]?.arrayValue?.first { $0["key"] == "color" })
        #expect(color["value"] == "#00f")
        #expect(color["variant"] == "blue")
        #expect(color["reason"] == "TARGETING_MATCH")
        let off = try #require(json["keys"]?.arrayValue?.first { $0["key"] == "off" })
        #expect(off["reason"] == "DISABLED")
        #expect(off["decidedBy"] == "flag disabled: the app's default")
        let text = try await CLIProcess.run(["eval", file.path])
        #expect(text.standardOutput.contains("(flagd)"))
        #expect(
            text.standardOutput.split(separator: "\n").contains { $0.hasPrefix("color ") && $0.contains("default variant red") })
        #expect(try await CLIProcess.run(["validate", file.path]).status == 0)

        let typo = try scratch.write(
            "typo.json", #"{"flags": {"f": {"state": "ENABLED", "variants": {"a": 1}, "targeting": {"start_with": ["a", "b"]}}}}"#
        )
        let validate = try await CLIProcess.run(["validate", typo.path])
        #expect(validate.status == 1)
        #expect(validate.standardOutput.contains(#"unknown operator "start_with"; did you mean "starts_with"?"#))
    }

    @Test("a context that is not a JSON object, and a plain config without a manifest, are input errors (exit 2)")
    func inputErrors() async throws {
        let badContext = try await CLIProcess.run(["eval", example, "--context", "[1]"])
        #expect(badContext.status == 2)
        #expect(badContext.standardError.contains("--context must be a JSON object"))
        let notJSON = try await CLIProcess.run(["eval", example, "--context", "{"])
        #expect(notJSON.status == 2)
        let plain = CLIProcess.examples.appendingPathComponent("config.json").path
        let noManifest = try await CLIProcess.run(["validate", plain])
        #expect(noManifest.status == 2)
        #expect(noManifest.standardError.contains("--keys <manifest.json> is needed"))
        let missing = try await CLIProcess.run(["eval", "/nonexistent/config.json"])
        #expect(missing.status == 2)
    }

    @Test("a payload whose dialect shows but that does not decode: eval and validate exit 1, each saying why")
    func undecodable() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        // `features` neither an object (GrowthBook) nor an array (Unleash, whose features are rejected one by one).
        let growthBook = try scratch.write("gb.json", #"{"features": 7}"#)
        let eval = try await CLIProcess.run(["eval", growthBook.path])
        #expect(eval.status == 1)
        #expect(eval.standardError.contains("cannot be read as growthbook (its shape shows growthbook)"))
        #expect(eval.standardError.contains("expected a \"features\" object"))
        let targeting = try scratch.write("t.json", #"{"targeting": [], "values": {}}"#)
        let validate = try await CLIProcess.run(["validate", targeting.path])
        #expect(validate.status == 1)
        #expect(validate.standardError.contains("cannot be read as targeting-json"), "\(validate.standardError)")
        #expect(validate.standardError.contains("invalid targeting-json payload at targeting"))
    }

    @Test("the demo's targeting step: two users see different values, and every user in at 10% keeps their variant at 50%")
    func demoStep() async throws {
        let outcome = try await CLIProcess.run(["demo"])
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        let text = outcome.standardOutput
        for sentence in [
            "11. Target users: a rule per country, and a rollout widened from 10% to 50%",
            #"alice (country DE): checkout_button = "black"  (rule "germany")"#,
            #"bob   (country FR): checkout_button = "blue"  (default: no rule matched)"#,
            "at 10%: 971 users in the test (485 compact, 486 wide)",
            "at 50%: 5028 users in the test (2454 compact, 2574 wide)",
            "All 971 users who were in at 10% are still in, with the same variant",
        ] {
            #expect(text.contains(sentence), "missing: \(sentence)")
        }
    }
}

/// `remote-config eval` and `validate` on an Unleash client features payload, as real child processes.
@Suite("remote-config eval and validate with an Unleash payload")
struct CLIUnleashTests {
    private var example: String { CLIProcess.examples.appendingPathComponent("unleash-features.json").path }

    @Test("eval recognises the payload and prints each feature's keys with the strategy that decided")
    func evalUnleash() async throws {
        let outcome = try await CLIProcess.run(["eval", example, "--context", #"{"id":"qa-1","email":"qa@example.com"}"#])
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        #expect(outcome.standardOutput.contains("(unleash) for targeting key \"qa-1\""), "\(outcome.standardOutput)")
        let lines = outcome.standardOutput.split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        #expect(lines.contains(#"new-checkout true TARGETING_MATCH rule "staff"; read email"#), "\(lines)")
        #expect(
            lines.contains(
                #"new-checkout.variant "green" TARGETING_MATCH rule "variants[1].overrides" variant green; read email, targetingKey"#
            ), "\(lines)")
        #expect(
            lines.contains {
                $0.hasPrefix(#"dark-mode false DEFAULT default; read targetingKey; not matched: "strategies[0]:userWithId""#)
            })
    }

    @Test("validate reports an unknown constraint operator in an Unleash payload")
    func validateUnleash() async throws {
        let clean = try await CLIProcess.run(["validate", example])
        #expect(clean.status == 0, "stderr: \(clean.standardError)")
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let bad = try scratch.write(
            "bad.json",
            #"{"version": 2, "features": [{"name": "f", "enabled": true, "strategies": [{"name": "default", "constraints": [{"contextName": "a", "operator": "LIKE", "values": ["x"]}]}]}]}"#
        )
        let outcome = try await CLIProcess.run(["validate", bad.path])
        #expect(outcome.status == 1)
        #expect(
            outcome.standardOutput.contains(
                #"key "f" at features[0].strategies[0].constraints[0].operator: unknown operator "LIKE""#),
            "\(outcome.standardOutput)")
    }
}
