import ConfigDomain
import ConfigPorts
import Foundation
import OFREPAdapter
import Testing

/// The bulk evaluation response as a payload: values, the server's decisions, and per-flag errors
/// rejected alone.
@Suite("OFREPFormat")
struct OFREPFormatTests {
    private func decode(_ json: String) throws -> DecodedPayload { try OFREPFormat().decode(Data(json.utf8)) }

    @Test("values keep their JSON types: true, 1 and 1.0 stay apart")
    func values() throws {
        let payload = try decode(
            #"{"flags":[{"key":"b","value":true,"reason":"STATIC"},{"key":"i","value":1,"reason":"STATIC"},"#
                + #"{"key":"d","value":1.0,"reason":"STATIC"},{"key":"o","value":{"x":[1]},"reason":"STATIC"}]}"#)
        #expect(payload.values == ["b": .bool(true), "i": .int(1), "d": .double(1.0), "o": .object(["x": .array([.int(1)])])])
        #expect(payload.rules.isEmpty)  // plain STATIC values need no rules
        #expect(payload.evaluate("b").reason == .staticValue)
    }

    @Test("a targeting match and a split keep their variant, reason and metadata")
    func decisions() throws {
        let payload = try decode(
            #"{"flags":[{"key":"checkout","value":true,"reason":"TARGETING_MATCH","variant":"on","metadata":{"team":"web","rank":2}},"#
                + #"{"key":"color","value":"green","reason":"SPLIT","variant":"green"}]}"#)
        let checkout = payload.evaluate("checkout")
        #expect(checkout.value == .bool(true))
        #expect(checkout.reason == .targetingMatch)
        #expect(checkout.variant == "on")
        let color = payload.evaluate("color")
        #expect(color.reason == .split)
        #expect(color.variant == "green")
        let rules = try #require(payload.rules["checkout"] as? OFREPEvaluatedRules)
        #expect(rules.flag.metadata == ["team": .string("web"), "rank": .int(2)])
        #expect(rules.flag.evaluationReason == .targetingMatch)
        #expect(rules.evaluate(in: EvaluationContext(targetingKey: "anyone"), explaining: true).value == .bool(true))
    }

    @Test("a flag without a value defers to the app's default; DISABLED and UNKNOWN serve their value")
    func codeDefaultAndOtherReasons() throws {
        let payload = try decode(
            #"{"flags":[{"key":"beta","reason":"DEFAULT","variant":"control"},"#
                + #"{"key":"off","value":false,"reason":"DISABLED"},{"key":"odd","value":"x","reason":"UNKNOWN"}]}"#)
        #expect(payload.values["beta"] == nil)
        #expect(payload.evaluate("beta").value == nil)
        #expect(payload.evaluate("beta").reason == .defaultValue)
        #expect((payload.rules["beta"] as? OFREPEvaluatedRules)?.flag.variant == "control")
        #expect(payload.evaluate("off").value == .bool(false))
        #expect((payload.rules["off"] as? OFREPEvaluatedRules)?.flag.evaluationReason == .disabled)
        #expect(payload.evaluate("odd").value == .string("x"))
        #expect((payload.rules["odd"] as? OFREPEvaluatedRules)?.flag.evaluationReason == .unknown)
        #expect(payload.evaluate("odd").reason == .unknown)
        #expect(payload.evaluate("off").reason == .disabled)
    }

    @Test("FLAG_NOT_FOUND leaves the key out; any other error code rejects that key alone")
    func perFlagErrors() throws {
        let payload = try decode(
            #"{"flags":[{"key":"ok","value":1,"reason":"STATIC"},{"key":"gone","errorCode":"FLAG_NOT_FOUND"},"#
                + #"{"key":"who","errorCode":"TARGETING_KEY_MISSING","errorDetails":"needs a user"},"#
                + #"{"key":"bad","errorCode":"PARSE_ERROR"},{"key":"ctx","errorCode":"INVALID_CONTEXT"},"#
                + #"{"key":"other","errorCode":"GENERAL","errorDetails":"boom"}]}"#)
        #expect(payload.values == ["ok": .int(1)])
        #expect(payload.keys == ["bad", "ctx", "ok", "other", "who"])
        #expect(payload.evaluate("gone").errorCode == .flagNotFound)
        let who = try #require(payload.ruleProblems["who"]?.first)
        #expect(who.kind == .remoteEvaluation(errorCode: "TARGETING_KEY_MISSING", details: "needs a user"))
        #expect(who.path == "flags[2]")
        #expect(who.reason.contains("set a targeting key"))
        #expect(payload.ruleProblems["bad"]?.first?.reason.contains("fix the flag's definition") == true)
        #expect(payload.ruleProblems["ctx"]?.first?.reason.contains("attributes") == true)
        #expect(payload.ruleProblems["other"]?.first?.reason.contains("boom") == true)
        #expect(payload.evaluate("who").reason == .error)
    }

    @Test("a failed flag keeps the metadata its failure carries (OFREP's evaluationFailure; OpenFeature 1.4.14)")
    func failureMetadata() throws {
        let payload = try decode(
            #"{"flags":[{"key":"bad","errorCode":"PARSE_ERROR","errorDetails":"no such variant","metadata":{"team":"web","v":2}},"#
                + #"{"key":"plain","errorCode":"GENERAL"}]}"#)
        #expect(payload.flagMetadata["bad"] == ["team": .string("web"), "v": .int(2)])
        #expect(payload.flagMetadata["plain"] == nil)
        let bad = payload.evaluate("bad")
        #expect(bad.reason == .error)
        #expect(bad.errorCode == .parseError)
        #expect(bad.errorMessage == "no such variant")
        #expect(bad.flagMetadata == ["team": .string("web"), "v": .int(2)])
    }

    @Test("a flag listed twice is rejected alone")
    func duplicates() throws {
        let payload = try decode(
            #"{"flags":[{"key":"a","value":1,"reason":"STATIC"},{"key":"a","value":2,"reason":"STATIC"},"#
                + #"{"key":"b","value":3,"reason":"STATIC"}]}"#)
        #expect(payload.values == ["b": .int(3)])
        #expect(payload.ruleProblems["a"]?.first?.path == "flags[1]")
    }

    @Test("the server's flags come back as sent, in order")
    func flags() throws {
        let flags = try OFREPFormat().flags(
            in: Data(
                #"{"flags":[{"key":"x","value":"v","reason":"SPLIT","variant":"b","metadata":{"m":true}},{"key":"y","errorCode":"GENERAL","errorDetails":"d"}],"metadata":{"version":"v12"}}"#
                    .utf8))
        #expect(
            flags == [
                OFREPFlag(key: "x", value: .string("v"), reason: "SPLIT", variant: "b", metadata: ["m": .bool(true)]),
                OFREPFlag(key: "y", errorCode: "GENERAL", errorDetails: "d"),
            ])
        #expect(flags[1].evaluationErrorCode == .general)
    }

    @Test(
        "a response that is not a bulk evaluation refuses the whole payload, naming the place",
        arguments: [
            ("not json", nil as String?, "at byte 1"),
            ("[]", nil, "top level"),
            (#"{"errorCode":"INVALID_CONTEXT"}"#, "flags", "error answer"),
            (#"{"flags":{}}"#, "flags", "must be an array"),
            (#"{"flags":[1]}"#, "flags[0]", "must be an object"),
            (#"{"flags":[{"value":1}]}"#, "flags[0].key", "no \"key\""),
        ])
    func refusals(json: String, path: String?, words: String) throws {
        do throws(PayloadError) {
            _ = try OFREPFormat().decode(Data(json.utf8))
            Issue.record("\(json) decoded")
        } catch {
            #expect(error.format == "ofrep")
            #expect(error.path == path)
            #expect(error.description.contains(words), "\(error)")
        }
    }

    @Test("decode gives the values alone")
    func decodeValues() throws {
        let values = try OFREPFormat().decode(Data(#"{"flags":[{"key":"a","value":1,"reason":"TARGETING_MATCH"}]}"#.utf8)).values
        #expect(values == ["a": .int(1)])
        #expect(OFREPFormat().name == "ofrep")
    }
}
