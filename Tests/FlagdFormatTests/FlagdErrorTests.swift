import ConfigDomain
import ConfigPorts
import FlagdFormat
import Foundation
import Testing

@Suite("flagd format: what it refuses, and why")
struct FlagdErrorTests {
    /// The payload error for `json`, or nil when it decodes.
    func payloadError(_ json: String) -> PayloadError? {
        do {
            _ = try FlagdFormat().decode(Data(json.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test("bytes that are not JSON: the parser's reason and byte offset")
    func notJSON() throws {
        let error = try #require(payloadError(#"{ "flags": { "f": } }"#))
        #expect(error.format == "flagd")
        #expect(error.offset == 18)
        #expect(error.description.hasPrefix("invalid flagd payload at byte 18"))
    }

    @Test("the top level must be an object")
    func topLevel() throws {
        let error = try #require(payloadError("[]"))
        #expect(error.reason == "the top level must be a flagd flag definition object with \"flags\", found a JSON array")
    }

    @Test("a document without flags, or with flags that are not an object, is refused")
    func flags() throws {
        let missing = try #require(payloadError(#"{ "flag": {} }"#))
        #expect(missing.path == "flags")
        #expect(missing.reason.contains("expected a \"flags\" object"))
        let array = try #require(payloadError(#"{ "flags": [] }"#))
        #expect(array.reason == "\"flags\" must be an object of flag definitions by key, found a array")
    }

    @Test("$evaluators must be an object")
    func evaluators() throws {
        let error = try #require(payloadError(#"{ "flags": {}, "$evaluators": [] }"#))
        #expect(error.path == "$evaluators")
        #expect(error.reason.contains("must be an object of JsonLogic rules by name"))
    }

    @Test("flag set metadata must be an object of strings, numbers and Booleans")
    func setMetadata() throws {
        let notObject = try #require(payloadError(#"{ "flags": {}, "metadata": "v1" }"#))
        #expect(notObject.path == "metadata")
        let badValue = try #require(payloadError(#"{ "flags": {}, "metadata": { "owner": ["a"] } }"#))
        #expect(badValue.path == "metadata.owner")
        #expect(badValue.reason == "metadata \"owner\" must be a string, a number or a Boolean, found a array")
        let emptyName = try #require(payloadError(#"{ "flags": {}, "metadata": { "": 1 } }"#))
        #expect(emptyName.reason == "a metadata name must not be empty")
        #expect(payloadError(#"{ "flags": {}, "metadata": null, "$evaluators": null }"#) == nil)
    }

    /// The problems that reject flag `f` of a document whose flags are `flags`.
    func problems(_ flag: String, evaluators: String = "{}") throws -> [RuleProblem] {
        let payload = try FlagdFormat().decode(
            Data(
                #"{ "$evaluators": \#(evaluators), "flags": { "f": \#(flag), "ok": { "state": "ENABLED", "variants": { "a": 1 }, "defaultVariant": "a" } } }"#
                    .utf8))
        #expect(payload.evaluate("ok").value == 1, "the other flag still works")
        #expect(payload.evaluate("f").errorCode == .parseError)
        #expect(payload.rules["f"] == nil)
        return payload.ruleProblems["f"] ?? []
    }

    @Test(
        "each malformed flag is rejected alone, with a path and what to do",
        arguments: [
            (#"[1]"#, "flags.f", "a flag must be an object with \"state\" and \"variants\", found a array"),
            (#"{ "variants": { "a": 1 } }"#, "flags.f.state", "\"state\" is missing; set it to \"ENABLED\" or \"DISABLED\""),
            (
                #"{ "state": "on", "variants": { "a": 1 } }"#, "flags.f.state",
                "\"state\" must be \"ENABLED\" or \"DISABLED\", found \"on\""
            ),
            (
                #"{ "state": "ENABLED" }"#, "flags.f.variants",
                "\"variants\" is missing; give the flag an object of values by variant name"
            ),
            (
                #"{ "state": "ENABLED", "variants": {} }"#, "flags.f.variants",
                "\"variants\" is empty; give the flag at least one variant"
            ),
            (
                #"{ "state": "ENABLED", "variants": [1] }"#, "flags.f.variants",
                "\"variants\" must be an object of values by variant name, found a array"
            ),
            (
                #"{ "state": "ENABLED", "variants": { "a": 1 }, "defaultVariant": 1 }"#, "flags.f.defaultVariant",
                "\"defaultVariant\" must name a variant (a string) or be null, found a int"
            ),
            (
                #"{ "state": "ENABLED", "variants": { "a": 1 }, "metadata": { "n": null } }"#, "flags.f.metadata.n",
                "metadata \"n\" must be a string, a number or a Boolean, found a null"
            ),
            (
                #"{ "state": "ENABLED", "variants": { "a": 1 }, "metadata": [] }"#, "flags.f.metadata",
                "metadata must be an object of strings, numbers and Booleans, found a array"
            ),
            (
                #"{ "state": "ENABLED", "variants": { "a": 1 }, "targeting": "a" }"#, "flags.f.targeting",
                "\"targeting\" must be a JsonLogic object (or {} for none), found a string"
            ),
            (
                #"{ "state": "ENABLED", "variants": { "a": 1 }, "targeting": { "$ref": 1 } }"#, "flags.f.targeting",
                "\"$ref\" must name an evaluator of \"$evaluators\" with a string, found a int"
            ),
            (
                #"{ "state": "ENABLED", "variants": { "a": 1 }, "targeting": { "if": [true, { "$ref": "nope" }] } }"#,
                "flags.f.targeting.if[1]",
                "\"$ref\" names the evaluator \"nope\", which \"$evaluators\" does not define (the payload has no \"$evaluators\")"
            ),
        ])
    func malformedFlag(_ flag: String, _ path: String, _ why: String) throws {
        let found = try problems(flag)
        #expect(found.count == 1)
        #expect(found.first?.path == path)
        #expect(found.first?.reason == "the rule cannot be read: \(why); fix it to the dialect's documented shape")
        #expect(found.first?.key == "f")
    }

    @Test("a $ref to an evaluator the payload lacks names the ones it has")
    func unknownEvaluator() throws {
        let found = try problems(
            #"{ "state": "ENABLED", "variants": { "a": 1 }, "targeting": { "$ref": "isStaf" } }"#,
            evaluators: #"{ "isStaff": true, "isBeta": false }"#)
        #expect(
            found.first?.reason.contains("\"isStaf\", which \"$evaluators\" does not define (it has isBeta, isStaff)") == true)
    }

    @Test("evaluators that refer to each other in a cycle reject the flags that use them")
    func evaluatorCycle() throws {
        let found = try problems(
            #"{ "state": "ENABLED", "variants": { "a": 1 }, "targeting": { "$ref": "a" } }"#,
            evaluators: #"{ "a": { "!": { "$ref": "b" } }, "b": { "or": [{ "$ref": "a" }] } }"#)
        #expect(found.count == 1)
        #expect(found.first?.reason.contains("a cycle: a -> b -> a") == true)
        #expect(found.first?.path == "$evaluators.b.or[0]")
    }

    @Test("several problems in one flag are all reported")
    func severalProblems() throws {
        let found = try problems(#"{ "state": "OFF", "variants": {}, "targeting": { "nope": [] } }"#)
        #expect(found.map(\.path) == ["flags.f.state", "flags.f.variants", "flags.f.targeting"])
        guard case .unknownOperator(let name, _)? = found.last?.kind else {
            Issue.record("expected an unknown operator, found \(found)")
            return
        }
        #expect(name == "nope")
    }

    @Test("a flag that is not an object still gets the flag set's metadata; unknown members are ignored")
    func leniency() throws {
        let payload = try FlagdFormat().decode(
            Data(
                #"{ "metadata": { "v": 1 }, "flags": { "f": 5, "g": { "state": "ENABLED", "variants": { "a": 1 }, "description": "x" } } }"#
                    .utf8))
        #expect(payload.flagMetadata["f"] == ["v": 1])
        #expect(payload.ruleProblems["g"] == nil)
        #expect(payload.evaluate("g").reason == .defaultValue)
    }
}
