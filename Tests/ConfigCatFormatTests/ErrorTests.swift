import ConfigCatFormat
import ConfigDomain
import Foundation
import Testing

/// What cannot be read: the payloads the format refuses whole, the settings it rejects alone, and the
/// failures of the config model that end an evaluation with ConfigCat's message.
@Suite("ConfigCat errors")
struct ErrorTests {
    @Test(
        "payloads refused whole",
        arguments: [
            ("not json", "not JSON"), ("[1]", "the top level must be ConfigCat config JSON"),
            (#"{"x": 1}"#, "not ConfigCat config JSON"),
            (#"{"f": []}"#, "expected an object"), (#"{"flags": [1]}"#, "\"flags\" must be an object"),
            (#"{"f": {}, "s": {}}"#, "\"s\" must be an array"), (#"{"p": {"s": 1}, "f": {}}"#, "\"s\" must be a string"),
            (#"{"p": "salt", "f": {}}"#, "expected an object, found a string"),
        ])
    func refused(json: String, reason: String) {
        #expect {
            try ConfigCatFormat().decode(Data(json.utf8))
        } throws: { error in
            guard let error = error as? PayloadError else { return false }
            return error.format == "configcat" && (error.reason.contains(reason) || reason == "not JSON")
        }
    }

    @Test(
        "a setting of the wrong shape is rejected alone, with where and why",
        arguments: [
            (#"[]"#, "f.bad", "expected an object, found an array"), (#"{"v": {"b": true}}"#, "f.bad.t", "\"t\" is required"),
            (#"{"t": "0", "v": {"b": true}}"#, "f.bad.t", "\"t\" must be an integer, found a string"),
            (#"{"t": 0}"#, "f.bad.v", "\"v\" is required"),
            (#"{"t": 0, "v": true}"#, "f.bad.v", "config JSON v5 holds plain values there"),
            (#"{"t": 0, "v": {"b": "yes"}}"#, "f.bad.v.b", "\"b\" must be a Boolean"),
            (#"{"t": 2, "v": {"i": 1.5}}"#, "f.bad.v.i", "\"i\" must be an integer, found the number 1.5"),
            (#"{"t": 0, "v": {"b": true}, "r": {}}"#, "f.bad.r", "\"r\" must be an array"),
            (
                #"{"t": 0, "v": {"b": true}, "r": [{"c": [{"u": {"c": 0, "l": []}}]}]}"#, "f.bad.r[0].c[0].u.a",
                "\"a\" is required"
            ),
            (
                #"{"t": 0, "v": {"b": true}, "r": [{"c": [{"u": {"a": "x", "c": 0, "l": [1]}}]}]}"#, "f.bad.r[0].c[0].u.l[0]",
                "expected a string"
            ),
            (#"{"t": 0, "v": {"b": true}, "p": [{"v": {"b": true}}]}"#, "f.bad.p[0].p", "\"p\" is required"),
            (
                #"{"t": 0, "v": {"b": true}, "r": [{"c": [{"p": {"f": "x", "c": 0}}]}]}"#, "f.bad.r[0].c[0].p.v",
                "\"v\" is required"
            ),
            (
                #"{"t": 0, "v": {"b": true}, "r": [{"c": [{"s": {"s": 0, "c": 0}}]}]}"#, "s[0].n",
                "uses a segment that cannot be read"
            ),
        ])
    func rejectedSetting(setting: String, path: String, reason: String) throws {
        let json = #"{"p": {"s": "salt"}, "s": [{"r": []}], "f": {"good": {"t": 1, "v": {"s": "ok"}}, "bad": \#(setting)}}"#
        let payload = try ConfigCatFormat().decode(Data(json.utf8))
        #expect(payload.values["good"] == "ok")
        let problem = try #require(payload.ruleProblems["bad"]?.first)
        #expect(problem.path == path)
        #expect(problem.reason.contains(reason), "\(problem.reason)")
        let details = payload.evaluate("bad", in: Fixture.context())
        #expect(details.reason == .error)
        #expect(details.errorCode == .parseError)
    }

    @Test(
        "failures of the config model end the evaluation: ERROR, PARSE_ERROR and ConfigCat's message",
        arguments: [
            (#"{"t": 7, "v": {"b": true}}"#, "Setting type is invalid."),
            (#"{"t": 1, "v": {"b": true}}"#, "Setting value is missing or invalid."),
            (
                #"{"t": 1, "v": {"s": "a"}, "r": [{"c": [{"u": {"a": "A", "c": 36, "l": []}}], "s": {"v": {"s": "b"}}}]}"#,
                "Comparison operator is invalid."
            ),
            (
                #"{"t": 1, "v": {"s": "a"}, "r": [{"c": [{"u": {"a": "A", "c": 28}}], "s": {"v": {"s": "b"}}}]}"#,
                "Comparison value is missing."
            ),
            (
                #"{"t": 1, "v": {"s": "a"}, "r": [{"c": [{"u": {"a": "A", "c": 22, "l": ["x"]}}], "s": {"v": {"s": "b"}}}]}"#,
                "Comparison value is invalid."
            ),
            (
                #"{"t": 1, "v": {"s": "a"}, "r": [{"c": [{"u": {"a": "A", "c": 0, "l": ["a"]}}]}]}"#,
                "Targeting rule THEN part is missing or invalid."
            ),
            (#"{"t": 1, "v": {"s": "a"}, "r": [{"c": [{}], "s": {"v": {"s": "b"}}}]}"#, "Condition is missing or invalid."),
            (
                #"{"t": 1, "v": {"s": "a"}, "r": [{"c": [{"s": {"s": 5, "c": 0}}], "s": {"v": {"s": "b"}}}]}"#,
                "Segment reference is invalid."
            ),
            (
                #"{"t": 1, "v": {"s": "a"}, "r": [{"c": [{"s": {"s": 1, "c": 0}}], "s": {"v": {"s": "b"}}}]}"#,
                "Segment name is missing."
            ),
            (
                #"{"t": 1, "v": {"s": "a"}, "r": [{"c": [{"s": {"s": 0, "c": 2}}], "s": {"v": {"s": "b"}}}]}"#,
                "Comparison operator is invalid."
            ),
            (
                #"{"t": 1, "v": {"s": "a"}, "p": [{"p": 0, "v": {"s": "b"}}]}"#,
                "Sum of percentage option percentages is less than 100."
            ),
            (#"{"t": 1, "v": {"s": "a"}, "p": [{"p": -1, "v": {"s": "b"}}]}"#, "Percentage option percentage is invalid."),
            (
                #"{"t": 1, "v": {"s": "a"}, "r": [{"c": [{"p": {"f": "none", "c": 0, "v": {"s": "x"}}}], "s": {"v": {"s": "b"}}}]}"#,
                "Prerequisite flag 'none' is missing."
            ),
            (
                #"{"t": 1, "v": {"s": "a"}, "r": [{"c": [{"p": {"f": "plain", "c": 0, "v": {"s": "x"}}}], "s": {"v": {"s": "b"}}}]}"#,
                "Type mismatch between comparison value 'x' and prerequisite flag 'plain'."
            ),
            (
                #"{"t": 1, "v": {"s": "a"}, "r": [{"c": [{"p": {"f": "plain", "c": 3, "v": {"b": true}}}], "s": {"v": {"s": "b"}}}]}"#,
                "Comparison operator is invalid."
            ),
            (
                #"{"t": 1, "v": {"s": "a"}, "r": [{"c": [{"p": {"f": "broken", "c": 0, "v": {"b": true}}}], "s": {"v": {"s": "b"}}}]}"#,
                "Prerequisite flag 'broken' cannot be read: \"v\" is required."
            ),
            (
                #"{"t": 1, "v": {"s": "a"}, "r": [{"c": [{"p": {"f": "x", "c": 0, "v": {"s": "a"}}}], "s": {"v": {"s": "b"}}}]}"#,
                "Circular dependency detected between the following depending flags: 'x' -> 'x'."
            ),
            (
                #"{"t": 1, "v": {"s": "a"}, "r": [{"c": [{"p": {"f": "loop", "c": 0, "v": {"s": "a"}}}], "s": {"v": {"s": "b"}}}]}"#,
                "Circular dependency detected between the following depending flags: 'x' -> 'loop' -> 'x'."
            ),
        ])
    func modelFailure(setting: String, message: String) throws {
        let json = #"""
            {"p": {"s": "salt"}, "s": [{"n": "S", "r": []}, {"n": "", "r": []}],
             "f": {"x": \#(setting), "plain": {"t": 0, "v": {"b": true}}, "broken": {"t": 0},
                   "loop": {"t": 1, "v": {"s": "a"}, "r": [{"c": [{"p": {"f": "x", "c": 0, "v": {"s": "a"}}}], "s": {"v": {"s": "b"}}}]}}}
            """#
        let details = try Fixture.decode(json).evaluate("x", in: Fixture.context(["A": "a"]))
        #expect(details.reason == .error)
        #expect(details.errorCode == .parseError)
        #expect(details.errorMessage == message)
        #expect(details.value == nil)
        #expect(details.variant == nil)
    }

    @Test("a confidential comparison without the config's salt fails: Config JSON salt is missing.")
    func missingSalt() throws {
        let json =
            #"{"f": {"x": {"t": 0, "v": {"b": true}, "r": [{"c": [{"u": {"a": "A", "c": 20, "s": "h"}}], "s": {"v": {"b": false}}}]}}}"#
        let details = try Fixture.decode(json).evaluate("x", in: Fixture.context(["A": "a"]))
        #expect(details.errorMessage == "Config JSON salt is missing.")
        // Without the attribute the condition is not evaluated, so nothing fails.
        #expect(try Fixture.decode(json).evaluate("x", in: Fixture.context()).value == true)
    }

    @Test("a failure is reached only by the evaluations that reach it, as in ConfigCat's SDKs")
    func lazyFailures() throws {
        let json = #"""
            {"p": {"s": "salt"}, "f": {"x": {"t": 1, "v": {"s": "a"},
              "r": [{"c": [{"u": {"a": "A", "c": 28, "s": "go"}}, {"p": {"f": "none", "c": 0, "v": {"s": "x"}}}], "s": {"v": {"s": "b"}}}]}}}
            """#
        let payload = try Fixture.decode(json)
        #expect(payload.evaluate("x", in: Fixture.context(["A": "stay"])).value == "a")
        #expect(payload.evaluate("x", in: Fixture.context(["A": "go"])).errorMessage == "Prerequisite flag 'none' is missing.")
        #expect(payload.evaluate("nothing").errorCode == .flagNotFound)
    }

    @Test(
        "the simple override form serves Booleans, strings and numbers; other values fail",
        arguments: [
            ("true", ConfigValue?.some(true), nil), (#""x""#, "x", nil), ("7", 7, nil), ("1.5", 1.5, nil),
            ("null", nil, "Setting value is null."), ("[1]", nil, "Setting value '[1]' is of an unsupported type (array)."),
        ])
    func simpleOverrides(value: String, served: ConfigValue?, message: String?) throws {
        let payload = try Fixture.decode(#"{"flags": {"k": \#(value)}}"#)
        let details = payload.evaluate("k", in: Fixture.context())
        #expect(details.value == served)
        #expect(details.errorMessage == message)
        #expect(details.reason == (message == nil ? .staticValue : .error))
        #expect(payload.values["k"] == served)
    }
}
