import ConfigDomain
import ConfigPorts
import Foundation
import LaunchDarklyFormat
import Testing

/// Every way the format refuses data or fails an evaluation: a typed error that says where and what to fix.
@Suite("LaunchDarkly format: errors")
struct LaunchDarklyErrorTests {
    /// A flag member of the wrong shape: the members of flag `f`, the problem's path, and words of its message.
    struct ReadCase: Sendable, CustomStringConvertible {
        let members: String
        let path: String
        let message: String

        var description: String { members }

        static let all: [ReadCase] = [
            .init(members: #""on": 1"#, path: "flags.f.on", message: #""on" must be a Boolean, found a"#),
            .init(members: #""offVariation": "0""#, path: "flags.f.offVariation", message: #""offVariation" must be an integer"#),
            .init(members: #""variations": {}"#, path: "flags.f.variations", message: #""variations" must be an array"#),
            .init(members: #""salt": 5"#, path: "flags.f.salt", message: #""salt" must be a string"#),
            .init(members: #""fallthrough": 3"#, path: "flags.f.fallthrough", message: #""fallthrough" must be an object"#),
            .init(members: #""key": "g""#, path: "flags.f.key", message: "make them the same"),
            .init(members: #""rules": [5]"#, path: "flags.f.rules[0]", message: #""rules" must hold objects"#),
            .init(members: #""rules": [{"variation": 0}]"#, path: "flags.f.rules[0].clauses", message: #""clauses" is required"#),
            .init(
                members: #""rules": [{"clauses": [{"op": "in", "values": []}], "variation": 0}]"#,
                path: "flags.f.rules[0].clauses[0].attribute", message: #""attribute" is required: a string"#),
            .init(
                members: #""rules": [{"clauses": [{"attribute": "a", "op": "in", "values": 1}], "variation": 0}]"#,
                path: "flags.f.rules[0].clauses[0].values", message: #""values" must be an array"#),
            .init(
                members: #""prerequisites": [{"variation": 0}]"#, path: "flags.f.prerequisites[0].key",
                message: #""key" is required"#),
            .init(
                members: #""targets": [{"values": [1], "variation": 0}]"#, path: "flags.f.targets[0].values[0]",
                message: #""values" must hold strings"#),
            .init(
                members: #""fallthrough": {"rollout": {"variations": [{"variation": 0}]}}"#,
                path: "flags.f.fallthrough.rollout.variations[0].weight", message: #""weight" is required: an integer"#),
            .init(
                members: #""fallthrough": {"rollout": {"bucketBy": 1, "variations": []}}"#,
                path: "flags.f.fallthrough.rollout.bucketBy", message: #""bucketBy" must be a string"#),
        ]
    }

    @Test("a member of the wrong shape rejects the flag alone, with its path and what it must be", arguments: ReadCase.all)
    func readProblem(_ example: ReadCase) throws {
        // A valid flag, but for the member the case spells otherwise.
        var members = [#""on": true"#, #""variations": [1]"#, #""fallthrough": {"variation": 0}"#]
        members.removeAll { example.members.hasPrefix(String($0.prefix { $0 != ":" })) }
        let payload = try decodeLD(#"{"flags": {"f": {"# + (members + [example.members]).joined(separator: ", ") + "}}}")
        let problem = try #require(payload.ruleProblems["f"]?.first)
        #expect(problem.path == example.path)
        #expect(problem.description.contains(example.message), "\(problem.description)")
        let details = payload.evaluate("f", in: user("u1"))
        #expect(details.value == nil)
        #expect(details.reason == .error)
        #expect(details.errorCode == .parseError)
        #expect(details.errorMessage?.contains(example.message) == true, "\(details.errorMessage ?? "none")")
    }

    @Test("a flag that is not an object is rejected alone; the others activate")
    func notAnObject() throws {
        let payload = try decodeLD(#"{"flags": {"f": 5, "g": {"on": true, "variations": [1], "fallthrough": {"variation": 0}}}}"#)
        #expect(payload.ruleProblems["f"]?.first?.description.contains("a flag must be an object") == true)
        #expect(payload.evaluate("f", in: user("u1")).errorCode == .parseError)
        #expect(payload.evaluate("g", in: user("u1")).value == 1)
    }

    @Test("an unreadable segment fails only the evaluations that reach it, naming it and its problem")
    func unreadableSegment() throws {
        let payload = try decodeLD(
            flagData(
                #""on": true, "variations": ["out", "in"], "fallthrough": {"variation": 0}, "rules": ["#
                    + #"{"clauses": [{"attribute": "plan", "op": "in", "values": ["pro"]}], "variation": 0},"#
                    + #"{"clauses": [{"attribute": "", "op": "segmentMatch", "values": ["s"]}], "variation": 1}]"#,
                segments: #"{"s": {"key": "s", "included": "u1"}}"#))
        #expect(payload.evaluate("f", in: user("u1", ["plan": "pro"])).value == "out")
        let details = payload.evaluate("f", in: user("u1"))
        #expect(details.reason == .error)
        #expect(details.errorCode == .parseError)
        #expect(details.flagMetadata == ["reasonKind": "ERROR", "errorKind": "MALFORMED_FLAG"])
        let message = details.errorMessage ?? ""
        #expect(message.contains(#"the segment "s" could not be read"#), "\(message)")
        #expect(message.contains("segments.s.included"), "\(message)")
    }

    @Test("an unreadable prerequisite fails the flags that need it, naming it")
    func unreadablePrerequisite() throws {
        let payload = try decodeLD(
            #"{"flags": {"p": {"on": true, "variations": [1], "offVariation": "0"},"#
                + #" "f": {"on": true, "variations": [1, 2], "fallthrough": {"variation": 1}, "prerequisites": [{"key": "p", "variation": 0}]}}}"#
        )
        let details = payload.evaluate("f", in: user("u1"))
        #expect(details.errorCode == .parseError)
        #expect(details.flagMetadata["errorKind"] == "MALFORMED_FLAG")
        #expect(details.errorMessage?.contains(#"the prerequisite "p" could not be read"#) == true)
    }

    @Test("a segmentMatch value that is an array or an object: ERROR GENERAL, LaunchDarkly's EXCEPTION")
    func unhashableSegmentKey() throws {
        for value in [#"["s"]"#, #"{"k": 1}"#] {
            let payload = try decodeLD(
                flagData(
                    #""on": true, "variations": [1, 2], "fallthrough": {"variation": 0}, "rules": [{"clauses": "#
                        + #"[{"attribute": "", "op": "segmentMatch", "values": [5, \#(value)]}], "variation": 1}]"#))
            let details = payload.evaluate("f", in: user("u1"))
            #expect(details.reason == .error, "\(value)")
            #expect(details.errorCode == .general, "\(value)")
            #expect(details.flagMetadata == ["reasonKind": "ERROR", "errorKind": "EXCEPTION"], "\(value)")
        }
    }

    @Test("an empty rollout or a rule with neither variation nor rollout: MALFORMED_FLAG where reached, and lint says why")
    func noOutcome() throws {
        let payload = try decodeLD(
            flagData(
                #""on": true, "variations": [1, 2], "fallthrough": {"rollout": {"variations": []}}, "#
                    + #""rules": [{"id": "r", "clauses": [{"attribute": "key", "op": "in", "values": ["u1"]}]}]"#))
        for key in ["u1", "u2"] {
            let details = payload.evaluate("f", in: user(key))
            #expect(details.errorCode == .parseError, "\(key)")
            #expect(details.errorMessage?.contains("MALFORMED_FLAG") == true, "\(key)")
        }
        let lint = (payload.rules["f"]?.lint() ?? []).map(\.description).joined(separator: "\n")
        #expect(lint.contains("flags.f.fallthrough"), "\(lint)")
        #expect(lint.contains("flags.f.rules[0]"), "\(lint)")
        #expect(lint.contains("neither a variation nor a rollout with variations"), "\(lint)")
    }

    @Test("the payload is refused whole only for what no flag can survive, each with what was expected")
    func refusals() {
        let cases: [(text: String, path: String?, words: String)] = [
            ("not json", nil, ""),
            ("[1]", nil, "LaunchDarkly flag data"),
            (#"{"items": {}}"#, nil, #"an object with "flags" and "segments""#),
            (#"{"path": "/", "data": {"items": {}}}"#, "data", #"a put event's {"path": "/", "data": {…}}"#),
            (#"{"flags": [1]}"#, "flags", #""flags" must be an object by key, found a"#),
            (#"{"flagValues": "x"}"#, "flagValues", #""flagValues" must be an object by key"#),
            (#"{"path": "/", "data": {"flags": {}, "segments": 5}}"#, "data.segments", #""segments" must be an object by key"#),
        ]
        for (text, path, words) in cases {
            let error = #expect(throws: PayloadError.self, "\(text)") { try decodeLD(text) }
            #expect(error?.format == "launchdarkly", "\(text)")
            #expect(error?.path == path, "\(text)")
            #expect(error?.reason.isEmpty == false, "\(text)")
            #expect(words.isEmpty || error?.reason.contains(words) == true, "\(text): \(error?.reason ?? "none")")
        }
    }
}
