import ConfigDomain
import ConfigPorts
import FlagdFormat
import Foundation
import TestDoubles
import Testing

/// Decodes `json` with the flagd format (a test clock at 2026-01-01 unless given).
func decodeFlagd(
    _ json: String, format: FlagdFormat = FlagdFormat(clock: ManualClock(now: Date(timeIntervalSince1970: 1_767_225_600)))
)
    throws -> DecodedPayload
{
    try format.decode(Data(json.utf8))
}

@Suite("flagd format: flags, reasons and variants")
struct FlagdFormatTests {
    /// A flag set in the shape of flagd's documentation: a Boolean flag, a string flag with
    /// targeting through a shared evaluator, a fractional rollout and a disabled flag.
    static let example = """
        {
          "$schema": "https://flagd.dev/schema/v0/flags.json",
          "metadata": { "flagSetId": "shop", "version": "3" },
          "$evaluators": { "staff": { "ends_with": [{ "var": "email" }, "@example.com"] } },
          "flags": {
            "show-banner": { "state": "ENABLED", "variants": { "on": true, "off": false }, "defaultVariant": "on" },
            "header-color": {
              "state": "ENABLED",
              "variants": { "red": "#FF0000", "blue": "#0000FF", "yellow": "#FFFF00" },
              "defaultVariant": "red",
              "targeting": { "if": [{ "$ref": "staff" }, "yellow", { "in": [{ "var": "country" }, ["DE", "AT"]] }, "blue", null] },
              "metadata": { "owner": "design", "version": "7" }
            },
            "checkout": {
              "state": "ENABLED",
              "variants": { "new": "v2", "old": "v1" },
              "defaultVariant": "old",
              "targeting": { "fractional": [["new", 25], ["old", 75]] }
            },
            "legacy-search": { "state": "DISABLED", "variants": { "on": true, "off": false }, "defaultVariant": "on" }
          }
        }
        """

    @Test("a flag without targeting serves its default variant, STATIC")
    func staticFlag() throws {
        let payload = try decodeFlagd(Self.example)
        let result = payload.evaluate("show-banner")
        #expect(result.value == true)
        #expect(result.variant == "on")
        #expect(result.reason == .staticValue)
        #expect(result.errorCode == nil)
    }

    @Test("targeting that names a variant serves it, TARGETING_MATCH; null serves the default variant, DEFAULT")
    func targeting() throws {
        let payload = try decodeFlagd(Self.example)
        let staff = payload.evaluate("header-color", in: EvaluationContext(attributes: ["email": "ann@example.com"]))
        #expect(staff.value == "#FFFF00")
        #expect(staff.variant == "yellow")
        #expect(staff.reason == .targetingMatch)
        #expect(staff.decision?.attributesRead == ["email"])
        let german = payload.evaluate("header-color", in: EvaluationContext(attributes: ["country": "DE"]))
        #expect(german.variant == "blue")
        #expect(german.decision?.attributesRead == ["email", "country"])
        let other = payload.evaluate("header-color", in: EvaluationContext(attributes: ["country": "FR"]))
        #expect(other.value == "#FF0000")
        #expect(other.variant == "red")
        #expect(other.reason == .defaultValue)
        #expect(other.errorCode == nil)
    }

    @Test("fractional decides TARGETING_MATCH as flagd does, and the decision says where the context landed")
    func fractionalReason() throws {
        let payload = try decodeFlagd(Self.example)
        let result = payload.evaluate("checkout", in: EvaluationContext(targetingKey: "user-42"))
        #expect(result.reason == .targetingMatch)
        #expect(result.variant == "new" || result.variant == "old")
        let match = try #require(result.decision?.match)
        #expect(match.kind == .rollout)
        #expect(match.ruleID == "targeting")
        let bucket = try #require(match.bucket)
        #expect(bucket.attribute == "targetingKey")
        #expect(bucket.value >= bucket.lower && bucket.value < bucket.upper)
        #expect(bucket.upper - bucket.lower == (result.variant == "new" ? 25 : 75))
        // Without a targeting key, the shorthand cannot hash: null, so the default variant.
        let anonymous = payload.evaluate("checkout")
        #expect(anonymous.reason == .defaultValue)
        #expect(anonymous.variant == "old")
    }

    @Test("a disabled flag serves nothing, DISABLED")
    func disabled() throws {
        let payload = try decodeFlagd(Self.example)
        let result = payload.evaluate("legacy-search", in: EvaluationContext(targetingKey: "u1"))
        #expect(result.value == nil)
        #expect(result.variant == nil)
        #expect(result.reason == .disabled)
        #expect(result.errorCode == nil)
        #expect(payload.values["legacy-search"] == nil)
        #expect(payload.keys.contains("legacy-search"))
        #expect(result.decision?.description == "flag disabled")
    }

    @Test("decode gives each enabled flag's default variant value")
    func values() throws {
        let values = try FlagdFormat().decode(Data(Self.example.utf8)).values
        #expect(values == ["show-banner": true, "header-color": "#FF0000", "checkout": "v1"])
    }

    @Test("metadata: a flag's own over the flag set's")
    func metadata() throws {
        let payload = try decodeFlagd(Self.example)
        #expect(payload.flagMetadata["header-color"] == ["flagSetId": "shop", "version": "7", "owner": "design"])
        #expect(payload.flagMetadata["show-banner"] == ["flagSetId": "shop", "version": "3"])
        #expect(payload.flagMetadata["legacy-search"] == ["flagSetId": "shop", "version": "3"])
    }

    @Test("a missing flag answers FLAG_NOT_FOUND")
    func missingFlag() throws {
        let result = try decodeFlagd(Self.example).evaluate("no-such-flag")
        #expect(result.reason == .error)
        #expect(result.errorCode == .flagNotFound)
        #expect(result.value == nil)
    }

    @Test("defaultVariant null, absent or \"\": no value, DEFAULT (the app's default), with and without targeting")
    func noDefaultVariant() throws {
        let payload = try decodeFlagd(
            """
            { "flags": {
              "null": { "state": "ENABLED", "variants": { "a": 1 }, "defaultVariant": null },
              "absent": { "state": "ENABLED", "variants": { "a": 1 } },
              "empty": { "state": "ENABLED", "variants": { "a": 1 }, "defaultVariant": "" },
              "targeted": { "state": "ENABLED", "variants": { "a": 1 }, "defaultVariant": null,
                            "targeting": { "if": [{ "var": "vip" }, "a", null] } }
            } }
            """)
        for key in ["null", "absent", "empty", "targeted"] {
            let result = payload.evaluate(key)
            #expect(result.value == nil, "\(key)")
            #expect(result.variant == nil, "\(key)")
            #expect(result.reason == .defaultValue, "\(key)")
            #expect(result.errorCode == nil, "\(key)")
        }
        #expect(payload.values.isEmpty)
        let vip = payload.evaluate("targeted", in: EvaluationContext(attributes: ["vip": true]))
        #expect(vip.value == 1)
        #expect(vip.reason == .targetingMatch)
    }

    @Test("targeting that names no variant answers ERROR GENERAL and serves nothing")
    func unknownVariant() throws {
        let payload = try decodeFlagd(
            """
            { "flags": { "f": { "state": "ENABLED", "variants": { "on": true, "off": false, "": "empty", "nil": null },
              "defaultVariant": "off", "targeting": { "var": "pick" } } } }
            """)
        func result(_ pick: ConfigValue) -> EvaluationDetails<ConfigValue?> {
            payload.evaluate("f", in: EvaluationContext(attributes: ["pick": pick]))
        }
        for pick: ConfigValue in ["gold", "", "nil", ["on"], ["a": 1], 2] {
            let answer = result(pick)
            #expect(answer.reason == .error, "\(pick)")
            #expect(answer.errorCode == .general, "\(pick)")
            #expect(answer.value == nil, "\(pick)")
            #expect(answer.variant == nil, "\(pick)")
        }
        #expect(result("gold").decision?.errorMessage?.contains("\"gold\", which is not one of the variants") == true)
        #expect(result(["on"]).decision?.errorMessage?.contains("not a variant's name") == true)
        #expect(result("on").value == true)
        #expect(result(.null).reason == .defaultValue)
        #expect("\(result("gold"))".contains("ERROR GENERAL"))
    }

    @Test("Boolean and number results name variants as flagd does: true/false, 2, 2.5, 2.0")
    func resultNames() throws {
        let payload = try decodeFlagd(
            """
            { "flags": { "f": { "state": "ENABLED",
              "variants": { "true": "T", "false": "F", "2": "two", "2.5": "two and a half", "2.0": "two point oh" },
              "defaultVariant": "false", "targeting": { "var": "pick" } } } }
            """)
        let expected: [(ConfigValue, String)] = [(true, "true"), (false, "false"), (2, "2"), (2.5, "2.5"), (.double(2), "2.0")]
        for (pick, variant) in expected {
            let result = payload.evaluate("f", in: EvaluationContext(attributes: ["pick": pick]))
            #expect(result.variant == variant, "\(pick)")
            #expect(result.reason == .targetingMatch)
        }
    }

    @Test("a Boolean defaultVariant names the variant true or false")
    func booleanDefaultVariant() throws {
        let payload = try decodeFlagd(
            #"{ "flags": { "f": { "state": "ENABLED", "variants": { "true": 1, "false": 0 }, "defaultVariant": true } } }"#)
        #expect(payload.evaluate("f").variant == "true")
        #expect(payload.evaluate("f").value == 1)
    }

    @Test("a default variant that is not one of the variants answers ERROR GENERAL when it is needed, and lints")
    func badDefaultVariant() throws {
        let payload = try decodeFlagd(
            """
            { "flags": {
              "static": { "state": "ENABLED", "variants": { "a": 1 }, "defaultVariant": "b" },
              "targeted": { "state": "ENABLED", "variants": { "a": 1 }, "defaultVariant": "b",
                            "targeting": { "if": [{ "var": "vip" }, "a", null] } }
            } }
            """)
        #expect(payload.evaluate("static").errorCode == .general)
        #expect(payload.evaluate("targeted").errorCode == .general)
        #expect(payload.evaluate("targeted", in: EvaluationContext(attributes: ["vip": true])).value == 1)
        let lint = try #require(payload.rules["static"]).lint()
        #expect(lint.count == 1)
        #expect(lint.first?.reason.contains("the default variant \"b\" is not one of the variants") == true)
        #expect(try #require(payload.rules["static"]).lint().first?.path == "flags.static.defaultVariant")
    }

    @Test("a variant whose value is null: served as the default, an error when targeting picks it")
    func nullVariant() throws {
        let payload = try decodeFlagd(
            #"{ "flags": { "f": { "state": "ENABLED", "variants": { "n": null, "a": 1 }, "defaultVariant": "n", "targeting": { "var": "pick" } } } }"#
        )
        let fallback = payload.evaluate("f")
        #expect(fallback.value == .null)
        #expect(fallback.variant == "n")
        #expect(fallback.reason == .defaultValue)
        let picked = payload.evaluate("f", in: EvaluationContext(attributes: ["pick": "n"]))
        #expect(picked.errorCode == .general)
        #expect(payload.values["f"] == nil)
    }

    @Test("a rule that fails (division by zero) answers ERROR GENERAL")
    func failingRule() throws {
        let payload = try decodeFlagd(
            #"{ "flags": { "f": { "state": "ENABLED", "variants": { "a": 1 }, "defaultVariant": "a", "targeting": { "if": [{ ">": [{ "/": [1, { "var": "n" }] }, 0] }, "a", null] } } } }"#
        )
        let result = payload.evaluate("f", in: EvaluationContext(attributes: ["n": 0]))
        #expect(result.reason == .error)
        #expect(result.errorCode == .general)
        #expect(result.decision?.errorMessage == "the targeting failed: division by zero")
        #expect(payload.evaluate("f", in: EvaluationContext(attributes: ["n": 2])).variant == "a")
    }

    @Test("$flagd.flagKey, $flagd.timestamp (from the clock) and targetingKey, over attributes of those names")
    func flagdProperties() throws {
        let clock = ManualClock(now: Date(timeIntervalSince1970: 1_767_225_600.75))
        let payload = try decodeFlagd(
            """
            { "flags": {
              "key": { "state": "ENABLED", "variants": { "key": "key", "other": "other" }, "defaultVariant": "other",
                       "targeting": { "var": "$flagd.flagKey" } },
              "time": { "state": "ENABLED", "variants": { "1767225600": "now" }, "defaultVariant": null,
                        "targeting": { "var": "$flagd.timestamp" } },
              "who": { "state": "ENABLED", "variants": { "u1": "one", "none": "none" }, "defaultVariant": "none",
                       "targeting": { "var": "targetingKey" } }
            } }
            """, format: FlagdFormat(clock: clock))
        let spoofed = EvaluationContext(
            targetingKey: "u1", attributes: ["$flagd": ["flagKey": "other", "timestamp": 1], "targetingKey": "u2"])
        #expect(payload.evaluate("key", in: spoofed).variant == "key")
        #expect(payload.evaluate("time", in: spoofed).value == "now")
        #expect(payload.evaluate("who", in: spoofed).variant == "u1")
        // Without a targeting key, targetingKey is null (an attribute of that name is not read).
        #expect(payload.evaluate("who", in: EvaluationContext(attributes: ["targetingKey": "u1"])).variant == "none")
        clock.advance(by: 10)
        #expect(payload.evaluate("time").errorCode == .general)
    }

    @Test("$evaluators: a rule shared through $ref, also inside another evaluator and in written-as-is values")
    func evaluators() throws {
        let payload = try decodeFlagd(
            """
            { "$evaluators": {
                "isDE": { "==": [{ "var": "country" }, "DE"] },
                "germanStaff": { "and": [{ "$ref": "isDE" }, { "ends_with": [{ "var": "email" }, "@example.de"] }] }
              },
              "flags": { "f": { "state": "ENABLED", "variants": { "yes": 1, "no": 0 }, "defaultVariant": "no",
                "targeting": { "if": [{ "$ref": "germanStaff" }, "yes", "no"] } } } }
            """)
        #expect(payload.ruleProblems.isEmpty)
        #expect(
            payload.evaluate("f", in: EvaluationContext(attributes: ["country": "DE", "email": "a@example.de"])).variant == "yes")
        #expect(
            payload.evaluate("f", in: EvaluationContext(attributes: ["country": "AT", "email": "a@example.de"])).variant == "no")
    }

    @Test("a flag with bad targeting is rejected alone: PARSE_ERROR with its problems, the rest works")
    func rejectedAlone() throws {
        let payload = try decodeFlagd(
            """
            { "flags": {
              "good": { "state": "ENABLED", "variants": { "a": 1 }, "defaultVariant": "a" },
              "typo": { "state": "ENABLED", "variants": { "a": 1 }, "defaultVariant": "a",
                        "targeting": { "if": [{ "start_with": [{ "var": "email" }, "a"] }, "a", null] } }
            } }
            """)
        #expect(payload.evaluate("good").value == 1)
        let typo = payload.evaluate("typo")
        #expect(typo.reason == .error)
        #expect(typo.errorCode == .parseError)
        #expect(typo.value == nil)
        let problem = try #require(typo.rejected.first?.targeting)
        #expect(problem.path == "flags.typo.targeting.if[0]")
        #expect(problem.reason == "unknown operator \"start_with\"; did you mean \"starts_with\"?")
        #expect(payload.values["typo"] == nil)
        #expect(payload.keys == ["good", "typo"])
    }

    @Test("an unknown operator far from any known one lists them all")
    func unknownOperatorListing() throws {
        let payload = try decodeFlagd(
            #"{ "flags": { "f": { "state": "ENABLED", "variants": { "a": 1 }, "targeting": { "regex_match": ["a", "b"] } } } }"#)
        let problem = try #require(payload.ruleProblems["f"]?.first)
        #expect(problem.reason.hasPrefix("unknown operator \"regex_match\"; use one of "))
        #expect(problem.reason.contains("fractional"))
        #expect(problem.reason.contains("sem_ver"))
    }
}
