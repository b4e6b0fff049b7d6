import ConfigDomain
import ConfigPorts
import Foundation
import LaunchDarklyFormat
import Testing

/// Decodes `json` with the format.
func decodeLD(_ json: String) throws -> DecodedPayload {
    try LaunchDarklyFormat().decode(Data(json.utf8))
}

/// A user context with `key` and `attributes`.
func user(_ key: String, _ attributes: [String: ConfigValue] = [:]) -> EvaluationContext {
    EvaluationContext(targetingKey: key, attributes: attributes)
}

/// One flag `f` with `members` (JSON object members, without braces) and the segments `segments`.
func flagData(_ members: String, segments: String = "{}", more: String = "") -> String {
    #"{"flags": {"f": {"key": "f", "version": 1, \#(members)}\#(more)}, "segments": \#(segments)}"#
}

@Suite("LaunchDarkly format: reading the payload")
struct LaunchDarklyDecodingTests {
    @Test("the data of a put or /sdk/latest-all: one key per flag, with rules and no plain value")
    func latestAll() throws {
        let payload = try decodeLD(
            #"{"flags": {"a": {"key": "a", "version": 3, "on": true, "variations": [1, 2], "fallthrough": {"variation": 1}},"#
                + #" "b": {"key": "b", "version": 1, "on": false, "variations": ["x"], "offVariation": 0}}, "segments": {}}"#)
        #expect(payload.keys == ["a", "b"])
        #expect(payload.values.isEmpty)
        #expect(payload.evaluate("a", in: user("u1")).value == 2)
        #expect(payload.evaluate("b", in: user("u1")).value == "x")
    }

    @Test("a whole streaming put event, {\"path\": \"/\", \"data\": {…}}, reads as its data")
    func putEvent() throws {
        let payload = try decodeLD(
            #"{"path": "/", "data": {"flags": {"a": {"key": "a", "on": true, "variations": [true], "fallthrough": {"variation": 0}}}, "segments": {}}}"#
        )
        #expect(payload.evaluate("a", in: user("u1")).value == true)
    }

    @Test("the file data source's flagValues: on, one variation served to everyone (FALLTHROUGH, DEFAULT)")
    func flagValues() throws {
        let payload = try decodeLD(#"{"flagValues": {"greeting": "hello", "limit": 5}}"#)
        let details = payload.evaluate("greeting", in: user("u1"))
        #expect(details.value == "hello")
        #expect(details.variant == "0")
        #expect(details.reason == .defaultValue)
        #expect(details.flagMetadata["reasonKind"] == "FALLTHROUGH")
        #expect(payload.evaluate("limit", in: user("u2")).value == 5)
    }

    @Test("a key in both flags and flagValues is rejected alone")
    func duplicateKey() throws {
        let payload = try decodeLD(
            #"{"flags": {"a": {"key": "a", "on": true, "variations": [1], "fallthrough": {"variation": 0}}}, "flagValues": {"a": 2, "b": 3}}"#
        )
        #expect(payload.evaluate("a", in: user("u1")).errorCode == .parseError)
        #expect(payload.evaluate("b", in: user("u1")).value == 3)
    }

    @Test("a deleted flag (a tombstone) is no key")
    func deletedFlag() throws {
        let payload = try decodeLD(#"{"flags": {"gone": {"key": "gone", "version": 9, "deleted": true}}}"#)
        #expect(payload.evaluate("gone", in: user("u1")).errorCode == .flagNotFound)
    }

    @Test("a flag with a member of the wrong type is rejected alone, with a path; the others activate")
    func malformedFlag() throws {
        let payload = try decodeLD(
            #"{"flags": {"bad": {"key": "bad", "on": true, "variations": [1], "offVariation": "0"},"#
                + #" "worse": {"key": "worse", "rules": [{"variation": 0}]},"#
                + #" "good": {"key": "good", "on": true, "variations": [1], "fallthrough": {"variation": 0}}}}"#)
        let bad = payload.evaluate("bad", in: user("u1"))
        #expect(bad.reason == .error)
        #expect(bad.errorCode == .parseError)
        #expect(payload.ruleProblems["bad"]?.first?.path == "flags.bad.offVariation")
        #expect(payload.ruleProblems["worse"]?.first?.path == "flags.worse.rules[0].clauses")
        #expect(payload.evaluate("good", in: user("u1")).value == 1)
    }

    @Test("a flag whose key member differs from the key it is listed under is rejected")
    func mismatchedKey() throws {
        let payload = try decodeLD(
            #"{"flags": {"a": {"key": "b", "on": true, "variations": [1], "fallthrough": {"variation": 0}}}}"#)
        #expect(payload.evaluate("a", in: user("u1")).errorCode == .parseError)
    }

    @Test("what refuses the whole payload: not JSON, not an object, no flag data, a section that is not an object")
    func refusals() {
        for text in ["not json", "[1]", #"{"items": {}}"#, #"{"flags": [1]}"#, #"{"flags": {}, "segments": 5}"#] {
            #expect(throws: PayloadError.self, "\(text)") { try decodeLD(text) }
        }
        #expect(throws: Never.self) { try decodeLD(#"{"flags": {}}"#) }
    }

    @Test("lint warns about variations out of range, missing prerequisites and segments, unknown operators")
    func lint() throws {
        let payload = try decodeLD(
            flagData(
                #""on": true, "variations": [1, 2], "offVariation": 5, "prerequisites": [{"key": "nope", "variation": 0}],"#
                    + #" "rules": [{"id": "r", "clauses": [{"attribute": "", "op": "segmentMatch", "values": ["none"]},"#
                    + #" {"attribute": "x", "op": "inn", "values": [1]}], "rollout": {"variations": [{"variation": 0, "weight": 500}]}}],"#
                    + #" "fallthrough": {"variation": 0}"#))
        let problems = payload.rules["f"]?.lint() ?? []
        let text = problems.map(\.description).joined(separator: "\n")
        #expect(text.contains("variation 5 is not one of the 2 variations"))
        #expect(text.contains("\"nope\" is not in the payload"))
        #expect(text.contains("saved group \"none\""))
        #expect(text.contains("did you mean \"in\""))
        #expect(text.contains("sum to 0.005"))
    }
}

@Suite("LaunchDarkly format: evaluation")
struct LaunchDarklyEvaluationTests {
    @Test("off: the off variation, DISABLED; without one, no value (the app's default), DISABLED")
    func off() throws {
        let payload = try decodeLD(
            #"{"flags": {"a": {"key": "a", "on": false, "variations": ["x", "y"], "offVariation": 1, "fallthrough": {"variation": 0}},"#
                + #" "b": {"key": "b", "on": false, "variations": ["x"]}}}"#)
        let a = payload.evaluate("a", in: user("u1"))
        #expect(a.value == "y")
        #expect(a.variant == "1")
        #expect(a.reason == .disabled)
        #expect(a.flagMetadata == ["reasonKind": "OFF", "variationIndex": 1])
        let b = payload.evaluate("b", in: user("u1"))
        #expect(b.value == nil)
        #expect(b.variant == nil)
        #expect(b.reason == .disabled)
        #expect(b.flagMetadata == ["reasonKind": "OFF"])
    }

    @Test("a variation out of range: ERROR PARSE_ERROR (LaunchDarkly's MALFORMED_FLAG)")
    func outOfRange() throws {
        let payload = try decodeLD(flagData(#""on": false, "variations": ["x"], "offVariation": 3"#))
        let details = payload.evaluate("f", in: user("u1"))
        #expect(details.value == nil)
        #expect(details.reason == .error)
        #expect(details.errorCode == .parseError)
        #expect(details.flagMetadata == ["reasonKind": "ERROR", "errorKind": "MALFORMED_FLAG"])
    }

    @Test("individual targets: targets for users, contextTargets for other kinds (a user entry defers to targets)")
    func targets() throws {
        let payload = try decodeLD(
            flagData(
                #""on": true, "variations": ["a", "b", "c"], "fallthrough": {"variation": 0},"#
                    + #" "targets": [{"values": ["u1"], "variation": 1}],"#
                    + #" "contextTargets": [{"contextKind": "org", "values": ["o1"], "variation": 2}, {"contextKind": "user", "values": [], "variation": 1}]"#
            ))
        let targeted = payload.evaluate("f", in: user("u1"))
        #expect(targeted.value == "b")
        #expect(targeted.reason == .targetingMatch)
        #expect(targeted.flagMetadata["reasonKind"] == "TARGET_MATCH")
        let org = EvaluationContext(targetingKey: "o1", attributes: ["kind": "org"])
        #expect(payload.evaluate("f", in: org).value == "c")
        #expect(payload.evaluate("f", in: user("u2")).value == "a")
        // Keys compare by code points: "é" is not "e\u{301}".
        let exact = try decodeLD(
            flagData(
                #""on": true, "variations": ["a", "b"], "fallthrough": {"variation": 0}, "targets": [{"values": ["é"], "variation": 1}]"#
            ))
        #expect(exact.evaluate("f", in: user("é")).value == "b")
        #expect(exact.evaluate("f", in: user("e\u{301}")).value == "a")
    }

    @Test("rules: the first whose clauses all match serves its variation, RULE_MATCH with ruleIndex and ruleId")
    func rules() throws {
        let payload = try decodeLD(
            flagData(
                #""on": true, "variations": ["a", "b", "c"], "fallthrough": {"variation": 0}, "rules": ["#
                    + #"{"id": "de", "clauses": [{"attribute": "country", "op": "in", "values": ["DE"]}, {"attribute": "age", "op": "greaterThanOrEqual", "values": [18]}], "variation": 1},"#
                    + #"{"clauses": [{"attribute": "email", "op": "endsWith", "values": ["@example.com"]}], "variation": 2}]"#))
        let de = payload.evaluate("f", in: user("u1", ["country": "DE", "age": 30]))
        #expect(de.value == "b")
        #expect(de.reason == .targetingMatch)
        #expect(de.flagMetadata == ["reasonKind": "RULE_MATCH", "ruleIndex": 0, "ruleId": "de", "variationIndex": 1])
        let minor = payload.evaluate("f", in: user("u1", ["country": "DE", "age": 17, "email": "a@example.com"]))
        #expect(minor.value == "c")
        #expect(minor.flagMetadata["ruleIndex"] == 1)
        #expect(minor.flagMetadata["ruleId"] == nil)
        #expect(minor.decision?.match?.ruleID == "rules[1]")
        let none = payload.evaluate("f", in: user("u1"))
        #expect(none.value == "a")
        #expect(none.reason == .defaultValue)
        #expect(none.variant == "0")
        #expect(none.decision?.unmatched.map(\.ruleID) == ["de", "rules[1]"])
    }

    @Test("every operator, on values spelled as LaunchDarkly reads them", arguments: OperatorCase.all)
    func operators(_ example: OperatorCase) throws {
        let payload = try decodeLD(
            flagData(
                #""on": true, "variations": [false, true], "fallthrough": {"variation": 0}, "rules": [{"clauses": [{"attribute": "a", "op": "\#(example.op)", "values": [\#(example.clause)]}], "variation": 1}]"#
            ))
        let value = try JSONParser().parse(example.context)
        let served = payload.evaluate("f", in: user("u1", ["a": value])).value
        #expect(served == .bool(example.matches), "\(example.context) \(example.op) \(example.clause)")
    }

    @Test("negate inverts a clause that found its attribute, not one that did not")
    func negate() throws {
        let payload = try decodeLD(
            flagData(
                #""on": true, "variations": [false, true], "fallthrough": {"variation": 0}, "rules": [{"clauses": [{"attribute": "country", "op": "in", "values": ["DE"], "negate": true}], "variation": 1}]"#
            ))
        #expect(payload.evaluate("f", in: user("u1", ["country": "AT"])).value == true)
        #expect(payload.evaluate("f", in: user("u1", ["country": "DE"])).value == false)
        #expect(payload.evaluate("f", in: user("u1")).value == false)
    }

    @Test("attribute references: a path with contextKind, a literal name without; the kind attribute")
    func references() throws {
        let payload = try decodeLD(
            flagData(
                #""on": true, "variations": ["none", "path", "literal", "kind"], "fallthrough": {"variation": 0}, "rules": ["#
                    + #"{"clauses": [{"contextKind": "user", "attribute": "/address/city", "op": "in", "values": ["Berlin"]}], "variation": 1},"#
                    + #"{"clauses": [{"attribute": "a/b", "op": "in", "values": ["x"]}], "variation": 2},"#
                    + #"{"clauses": [{"attribute": "kind", "op": "in", "values": ["org"]}], "variation": 3}]"#))
        #expect(payload.evaluate("f", in: user("u1", ["address": ["city": "Berlin"]])).value == "path")
        #expect(payload.evaluate("f", in: user("u1", ["a/b": "x"])).value == "literal")
        let multi = EvaluationContext(attributes: ["kind": "multi", "user": ["key": "u1"], "org": ["key": "o1"]])
        #expect(payload.evaluate("f", in: multi).value == "kind")
    }

    @Test("an invalid attribute reference fails the evaluation where it is reached: MALFORMED_FLAG")
    func invalidReference() throws {
        let payload = try decodeLD(
            flagData(
                #""on": true, "variations": [1, 2], "fallthrough": {"variation": 0}, "rules": [{"clauses": [{"contextKind": "user", "attribute": "//x", "op": "in", "values": [1]}], "variation": 1}]"#
            ))
        let details = payload.evaluate("f", in: user("u1"))
        #expect(details.errorCode == .parseError)
        #expect(details.flagMetadata["errorKind"] == "MALFORMED_FLAG")
        #expect(details.errorMessage?.contains("double slash") == true)
    }

    @Test("rollouts bucket as LaunchDarkly's published vectors: SHA-1 of key.salt.value, or seed.value")
    func bucketing() throws {
        // LaunchDarkly's cross-SDK values: userKeyA 0.42157587, userKeyB 0.6708485, userKeyC 0.10343106 for flag
        // "hashKey", salt "saltyA"; with seed 61: 0.09801207, 0.14483777, 0.9242641.
        func rollout(seed: String) -> String {
            #"{"flags": {"hashKey": {"key": "hashKey", "salt": "saltyA", "on": true, "variations": ["low", "high"], "#
                + #""fallthrough": {"rollout": {\#(seed)"variations": [{"variation": 0, "weight": 42158}, {"variation": 1, "weight": 57842}]}}}}}"#
        }
        let plain = try decodeLD(rollout(seed: ""))
        #expect(plain.evaluate("hashKey", in: user("userKeyA")).value == "low")  // 0.421575874 < 0.42158
        #expect(plain.evaluate("hashKey", in: user("userKeyB")).value == "high")
        #expect(plain.evaluate("hashKey", in: user("userKeyC")).value == "low")
        let details = plain.evaluate("hashKey", in: user("userKeyA"))
        #expect(details.reason == .split)
        let bucket = try #require(details.decision?.match?.bucket)
        #expect(abs(bucket.value - 0.4215758743392494) < 1e-15)
        let seeded = try decodeLD(rollout(seed: #""seed": 61, "#))
        let seededBucket = try #require(seeded.evaluate("hashKey", in: user("userKeyC")).decision?.match?.bucket)
        #expect(abs(seededBucket.value - 0.9242640945125551) < 1e-15)
        #expect(seeded.evaluate("hashKey", in: user("userKeyA")).value == "low")
    }

    @Test("bucketBy an integer attribute hashes its decimal text; a double or a Boolean buckets at 0")
    func bucketBy() throws {
        let payload = try decodeLD(
            #"{"flags": {"hashKey": {"key": "hashKey", "salt": "saltyA", "on": true, "variations": ["a", "b"], "#
                + #""fallthrough": {"rollout": {"bucketBy": "intAttr", "variations": [{"variation": 0, "weight": 54771}, {"variation": 1, "weight": 45229}]}}}}}"#
        )
        #expect(payload.evaluate("hashKey", in: user("u", ["intAttr": 33333])).value == "b")  // 0.54771423 ≥ 0.54771
        #expect(payload.evaluate("hashKey", in: user("u", ["intAttr": 33333.0])).value == "a")  // bucket 0
        #expect(payload.evaluate("hashKey", in: user("u", ["intAttr": true])).value == "a")
    }

    @Test("experiments: inExperiment for a tracked bucket, not for an untracked one or a missing context kind")
    func experiments() throws {
        func experiment(untracked: Bool, kind: String = "user") throws -> DecodedPayload {
            try decodeLD(
                flagData(
                    #""on": true, "variations": ["a", "b"], "fallthrough": {"rollout": {"kind": "experiment", "contextKind": "\#(kind)", "seed": 7, "#
                        + #""variations": [{"variation": 0, "weight": 100000, "untracked": \#(untracked)}, {"variation": 1, "weight": 0}]}}"#
                ))
        }
        let tracked = try experiment(untracked: false).evaluate("f", in: user("u1"))
        #expect(tracked.reason == .split)
        #expect(tracked.flagMetadata == ["reasonKind": "FALLTHROUGH", "inExperiment": true, "variationIndex": 0])
        #expect(try experiment(untracked: true).evaluate("f", in: user("u1")).flagMetadata["inExperiment"] == nil)
        let noOrg = try experiment(untracked: false, kind: "org").evaluate("f", in: user("u1"))
        #expect(noOrg.value == "a")
        #expect(noOrg.flagMetadata["inExperiment"] == nil)
    }

    @Test("prerequisites: each must be on and serve its variation; else the off variation, DEFAULT, prerequisiteKey")
    func prerequisites() throws {
        let data = #"""
            {"flags": {
              "parent": {"key": "parent", "on": true, "variations": [false, true], "fallthrough": {"variation": 1}, "offVariation": 0},
              "child": {"key": "child", "on": true, "variations": ["off", "on"], "offVariation": 0, "fallthrough": {"variation": 1},
                        "prerequisites": [{"key": "parent", "variation": 1}]},
              "strict": {"key": "strict", "on": true, "variations": ["off", "on"], "offVariation": 0, "fallthrough": {"variation": 1},
                        "prerequisites": [{"key": "parent", "variation": 0}]},
              "orphan": {"key": "orphan", "on": true, "variations": ["off", "on"], "fallthrough": {"variation": 1},
                        "prerequisites": [{"key": "missing", "variation": 0}]}
            }}
            """#
        let payload = try decodeLD(data)
        #expect(payload.evaluate("child", in: user("u1")).value == "on")
        let strict = payload.evaluate("strict", in: user("u1"))
        #expect(strict.value == "off")
        #expect(strict.reason == .defaultValue)
        #expect(strict.flagMetadata == ["reasonKind": "PREREQUISITE_FAILED", "prerequisiteKey": "parent", "variationIndex": 0])
        #expect(strict.decision?.unmatched.first?.reason == .prerequisiteFailed("parent"))
        let orphan = payload.evaluate("orphan", in: user("u1"))
        #expect(orphan.value == nil)
        #expect(orphan.reason == .defaultValue)
    }

    @Test("a prerequisite cycle is an error (MALFORMED_FLAG); so is a segment cycle")
    func cycles() throws {
        let data = #"""
            {"flags": {
              "a": {"key": "a", "on": true, "variations": [1], "fallthrough": {"variation": 0}, "prerequisites": [{"key": "b", "variation": 0}]},
              "b": {"key": "b", "on": true, "variations": [1], "fallthrough": {"variation": 0}, "prerequisites": [{"key": "a", "variation": 0}]},
              "s": {"key": "s", "on": true, "variations": [1, 2], "fallthrough": {"variation": 0},
                    "rules": [{"clauses": [{"attribute": "", "op": "segmentMatch", "values": ["one"]}], "variation": 1}]}
            },
            "segments": {
              "one": {"key": "one", "rules": [{"clauses": [{"attribute": "", "op": "segmentMatch", "values": ["two"]}]}]},
              "two": {"key": "two", "rules": [{"clauses": [{"attribute": "", "op": "segmentMatch", "values": ["one"]}]}]}
            }}
            """#
        let payload = try decodeLD(data)
        for key in ["a", "b", "s"] {
            let details = payload.evaluate(key, in: user("u1"))
            #expect(details.errorCode == .parseError, "\(key)")
            #expect(details.errorMessage?.contains("circular reference") == true, "\(key)")
        }
    }

    @Test("segments: included and excluded keys, contexts of other kinds, and weighted rules")
    func segments() throws {
        let data = #"""
            {"flags": {"f": {"key": "f", "on": true, "variations": ["out", "in"], "fallthrough": {"variation": 0},
                             "rules": [{"clauses": [{"attribute": "", "op": "segmentMatch", "values": ["beta"]}], "variation": 1}]}},
             "segments": {"beta": {"key": "beta", "salt": "s", "included": ["u1"], "excluded": ["u2"],
                                   "includedContexts": [{"contextKind": "org", "values": ["o1"]}],
                                   "rules": [{"clauses": [{"attribute": "email", "op": "endsWith", "values": ["@example.com"]}], "weight": 100000},
                                             {"clauses": [{"attribute": "plan", "op": "in", "values": ["pro"]}], "weight": 0}]}}}
            """#
        let payload = try decodeLD(data)
        #expect(payload.evaluate("f", in: user("u1")).value == "in")
        #expect(payload.evaluate("f", in: user("u2", ["email": "x@example.com"])).value == "out")
        #expect(payload.evaluate("f", in: user("u3", ["email": "x@example.com"])).value == "in")
        #expect(payload.evaluate("f", in: user("u3", ["plan": "pro"])).value == "out")
        #expect(payload.evaluate("f", in: EvaluationContext(targetingKey: "o1", attributes: ["kind": "org"])).value == "in")
    }

    @Test("an unbounded (big) segment: without a store only its rules count, and details say NOT_CONFIGURED")
    func bigSegment() throws {
        let data = #"""
            {"flags": {"f": {"key": "f", "on": true, "variations": ["out", "in"], "fallthrough": {"variation": 0},
                             "rules": [{"clauses": [{"attribute": "", "op": "segmentMatch", "values": ["big"]}], "variation": 1}]}},
             "segments": {"big": {"key": "big", "unbounded": true, "generation": 2, "included": ["u1"],
                                  "rules": [{"clauses": [{"attribute": "plan", "op": "in", "values": ["pro"]}]}]}}}
            """#
        let payload = try decodeLD(data)
        let listed = payload.evaluate("f", in: user("u1"))
        #expect(listed.value == "out")
        #expect(listed.flagMetadata["bigSegmentsStatus"] == "NOT_CONFIGURED")
        #expect(payload.evaluate("f", in: user("u1", ["plan": "pro"])).value == "in")
    }

    @Test("a rule's rollout is SPLIT; a fallthrough rollout too; a missing fallthrough is MALFORMED_FLAG")
    func splits() throws {
        let payload = try decodeLD(
            #"{"flags": {"a": {"key": "a", "on": true, "variations": [1, 2], "rules": [{"clauses": [{"attribute": "key", "op": "in", "values": ["u1"]}], "#
                + #""rollout": {"variations": [{"variation": 1, "weight": 100000}]}}], "fallthrough": {"rollout": {"variations": [{"variation": 0, "weight": 100000}]}}},"#
                + #" "b": {"key": "b", "on": true, "variations": [1]}}}"#)
        let rule = payload.evaluate("a", in: user("u1"))
        #expect(rule.value == 2)
        #expect(rule.reason == .split)
        #expect(rule.decision?.match?.kind == .rollout)
        #expect(payload.evaluate("a", in: user("u2")).reason == .split)
        #expect(payload.evaluate("b", in: user("u1")).errorCode == .parseError)
    }
}

/// One operator example: a clause value (JSON), a context value (JSON), and whether they match.
struct OperatorCase: Sendable, CustomStringConvertible {
    let op: String
    let clause: String
    let context: String
    let matches: Bool

    var description: String { "\(context) \(op) \(clause)" }

    /// Examples checked against LaunchDarkly's Python SDK.
    static let all: [OperatorCase] = [
        .init(op: "in", clause: "1", context: "1.0", matches: true),
        .init(op: "in", clause: "1", context: "true", matches: false),
        .init(op: "in", clause: #""é""#, context: #""e\u0301""#, matches: false),
        .init(op: "in", clause: #"[1, "a"]"#, context: #"[[1, "a"]]"#, matches: true),
        .init(op: "in", clause: #"{"k": 1}"#, context: #"{"k": 1.0}"#, matches: true),
        .init(op: "in", clause: "null", context: "[null]", matches: true),
        .init(op: "in", clause: #""b""#, context: #"["a", "b"]"#, matches: true),
        .init(op: "startsWith", clause: #""e""#, context: #""e\u0301x""#, matches: true),
        .init(op: "startsWith", clause: #""é""#, context: #""e\u0301x""#, matches: false),
        .init(op: "endsWith", clause: #""\u0301""#, context: #""e\u0301""#, matches: true),
        .init(op: "contains", clause: #""xam""#, context: #""example""#, matches: true),
        .init(op: "contains", clause: "1", context: #""1""#, matches: false),
        .init(op: "matches", clause: #""^a.c$""#, context: #""abc""#, matches: true),
        .init(op: "matches", clause: #""""#, context: #""anything""#, matches: true),
        .init(op: "matches", clause: #""(""#, context: #""(""#, matches: false),
        .init(op: "lessThan", clause: "10", context: "9.5", matches: true),
        .init(op: "lessThan", clause: "10", context: #""9""#, matches: false),
        .init(op: "lessThanOrEqual", clause: "10.0", context: "10", matches: true),
        .init(op: "greaterThan", clause: "1", context: "true", matches: false),
        .init(op: "greaterThanOrEqual", clause: "9007199254740993", context: "9007199254740992", matches: true),
        .init(op: "before", clause: #""2024-05-01T10:00:00Z""#, context: "1714557599999", matches: true),
        .init(op: "before", clause: #""2024-05-01T10:00:00Z""#, context: #""2024-05-01T12:00:00+02:00""#, matches: false),
        .init(op: "after", clause: "1714557600000", context: #""2024-05-01T10:00:00.000001Z""#, matches: true),
        .init(op: "after", clause: "0", context: #""2024-05-01T10:00:00""#, matches: false),
        .init(op: "after", clause: "0", context: #""2024-W18-3T10:00+01""#, matches: true),
        .init(op: "after", clause: "0", context: #""20240501T1000z""#, matches: true),
        .init(op: "semVerEqual", clause: #""1.2""#, context: #""1.2.0""#, matches: true),
        .init(op: "semVerEqual", clause: #""1.2.3""#, context: #""v1.2.3""#, matches: false),
        .init(op: "semVerEqual", clause: #""1.2.3+a""#, context: #""1.2.3+b""#, matches: true),
        .init(op: "semVerLessThan", clause: #""1.2.3""#, context: #""1.2.3-beta.10""#, matches: true),
        .init(op: "semVerLessThan", clause: #""1.2.3-beta.10""#, context: #""1.2.3-beta.2""#, matches: true),
        .init(op: "semVerGreaterThan", clause: #""1.0.0-alpha""#, context: #""1.0.0-alpha.1""#, matches: true),
        .init(op: "semVerGreaterThan", clause: #""1""#, context: #""1-beta""#, matches: false),
        .init(op: "unknownOperator", clause: "1", context: "1", matches: false),
    ]
}
