import ConfigDomain
import Foundation
import Testing

@testable import FlagdFormat

/// The value of the JsonLogic rule `rule` (JSON text) over `data`, as the flag `flag` evaluates it.
func logic(
    _ rule: String, _ data: ConfigValue = [:], flag: String = "f", hashing: FlagdFormat.FractionalHashing = .cbor
) throws -> ConfigValue {
    let json = try JSONParser().parse(Data(rule.utf8))
    var reader = LogicReader(evaluators: [:], key: flag)
    let parsed = reader.read(json, path: "targeting")
    #expect(reader.problems.isEmpty, "\(reader.problems)")
    var evaluator = LogicEvaluator(flagKey: flag, hashing: hashing)
    do {
        return try evaluator.evaluate(parsed, data: data)
    } catch {
        throw error
    }
}

/// Whether `rule` fails over `data`, and with what message.
func failure(_ rule: String, _ data: ConfigValue = [:]) throws -> String? {
    do {
        _ = try logic(rule, data)
        return nil
    } catch let failure as LogicFailure {
        return failure.message
    }
}

/// A rule, the data it reads and what it gives.
struct LogicCase: Sendable, CustomTestStringConvertible {
    let rule: String
    let data: ConfigValue
    let expected: ConfigValue
    init(_ rule: String, _ data: ConfigValue, _ expected: ConfigValue) {
        self.rule = rule
        self.data = data
        self.expected = expected
    }
    init(_ rule: String, _ expected: ConfigValue) {
        self.init(rule, [:], expected)
    }
    var testDescription: String { "\(rule) over \(data.jsonText()) is \(expected.jsonText())" }
}

/// Exact JSON equality: `1` and `1.0` differ, strings by code points, NaN equals NaN.
func identical(_ a: ConfigValue, _ b: ConfigValue) -> Bool {
    switch (a, b) {
    case (.double(let x), .double(let y)): return x == y || (x.isNaN && y.isNaN)
    case (.string(let x), .string(let y)): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
    case (.array(let x), .array(let y)): return x.count == y.count && zip(x, y).allSatisfy(identical)
    case (.object(let x), .object(let y)):
        return x.count == y.count && x.allSatisfy { name, value in y[name].map { identical(value, $0) } ?? false }
    default: return a == b
    }
}

@Suite("flagd format: JsonLogic as flagd's evaluator computes it")
struct JsonLogicTests {
    static let data: ConfigValue = [
        "email": "ann@example.com", "age": 30, "score": 2.5, "tags": ["a", "b"], "user": ["tier": "gold", "n": 3],
        "items": [["n": 1, "name": "x"], ["n": 5, "name": "y"]], "nothing": nil, "word": "héllo",
    ]

    @Test(
        "var: dot paths, indices, length, defaults, the whole data",
        arguments: [
            LogicCase(#"{"var": "email"}"#, data, "ann@example.com"),
            LogicCase(#"{"var": "user.tier"}"#, data, "gold"),
            LogicCase(#"{"var": "items.1.name"}"#, data, "y"),
            LogicCase(#"{"var": "tags.length"}"#, data, 2),
            LogicCase(#"{"var": "word.length"}"#, data, 5),
            LogicCase(#"{"var": "word.1"}"#, data, "é"),
            LogicCase(#"{"var": "tags.01"}"#, data, nil),
            LogicCase(#"{"var": "tags.-1"}"#, data, nil),
            LogicCase(#"{"var": "missing"}"#, data, nil),
            LogicCase(#"{"var": ["missing", "fallback"]}"#, data, "fallback"),
            LogicCase(#"{"var": ["nothing", 7]}"#, data, 7),
            LogicCase(#"{"var": ["user.missing.deep", 1]}"#, data, 1),
            LogicCase(#"{"var": "email.x"}"#, data, nil),
            LogicCase(#"{"var": ""}"#, ["a": 1], ["a": 1]),
            LogicCase(#"{"var": null}"#, ["a": 1], ["a": 1]),
            LogicCase(#"{"var": []}"#, ["a": 1], ["a": 1]),
            LogicCase(#"{"var": 1}"#, ["a": 1], nil),
            LogicCase(#"{"map": [{"var": "tags"}, {"var": 0}]}"#, data, ["a", "b"]),
            LogicCase(#"{"map": [[[1, 2], "xy"], {"var": 1.0}]}"#, data, [2, "y"]),
            LogicCase(#"{"map": [[[1, 2]], {"var": 1.5}]}"#, data, [nil]),
            LogicCase(#"{"map": [[[1, 2]], {"var": true}]}"#, data, [2]),
            LogicCase(#"{"var": {"cat": ["us", "er.n"]}}"#, data, 3),
            LogicCase(#"{"var": [["user", "tier"]]}"#, data, nil),
        ])
    func variable(_ test: LogicCase) throws {
        let got = try logic(test.rule, test.data)
        #expect(identical(got, test.expected), "got \(got.jsonText())")
    }

    @Test("var with more than two arguments fails, as flagd-core's does")
    func variableArity() throws {
        #expect(try failure(#"{"var": ["a", 1, 2]}"#) == "\"var\" takes a path and a default, not 3 arguments")
    }

    @Test(
        "truthiness, if, ?:, and, or, !, !!",
        arguments: [
            LogicCase(#"{"if": [true, "a", "b"]}"#, "a"),
            LogicCase(#"{"if": [false, "a", "b"]}"#, "b"),
            LogicCase(#"{"if": [false, "a"]}"#, nil),
            LogicCase(#"{"if": [false, "a", 0, "b", "c"]}"#, "c"),
            LogicCase(#"{"if": []}"#, nil),
            LogicCase(#"{"if": "x"}"#, "x"),
            LogicCase(#"{"?:": [[], "a", "b"]}"#, "b"),
            LogicCase(#"{"if": [{}, "a", "b"]}"#, "a"),
            LogicCase(#"{"if": [{"a": 1, "b": 2}, "a", "b"]}"#, "a"),
            LogicCase(#"{"if": ["0", "a", "b"]}"#, "a"),
            LogicCase(#"{"and": [1, "", 2]}"#, ""),
            LogicCase(#"{"and": [1, 2]}"#, 2),
            LogicCase(#"{"and": []}"#, nil),
            LogicCase(#"{"or": [0, [], "x"]}"#, "x"),
            LogicCase(#"{"or": [0, false]}"#, false),
            LogicCase(#"{"!": [[]]}"#, true),
            LogicCase(#"{"!": [{"a": 1, "b": 2}]}"#, false),
            LogicCase(#"{"!": [[0]]}"#, false),
            LogicCase(#"{"!!": ["0"]}"#, true),
            LogicCase(#"{"!!": [0.0]}"#, false),
            LogicCase(#"{"!!": [{"+": ["nan"]}]}"#, false),
        ])
    func truth(_ test: LogicCase) throws {
        let got = try logic(test.rule)
        #expect(identical(got, test.expected), "got \(got.jsonText())")
    }

    @Test(
        "== and != convert as flagd-core's JsonLogic does; === and !== compare as Python's ==",
        arguments: [
            LogicCase(#"{"==": [1, "1"]}"#, true),
            LogicCase(#"{"==": [1, 1.0]}"#, true),
            LogicCase(#"{"==": [true, 1]}"#, true),
            LogicCase(#"{"==": ["1", true]}"#, true),
            LogicCase(#"{"==": [0, null]}"#, true),
            LogicCase(#"{"==": [null, 0]}"#, true),
            LogicCase(#"{"==": [0, ""]}"#, false),
            LogicCase(#"{"==": [null, ""]}"#, false),
            LogicCase(#"{"==": [null, null]}"#, true),
            LogicCase(#"{"==": ["a,b", ["a", "b"]]}"#, true),
            LogicCase(#"{"==": [["a", "b"], "a,b"]}"#, true),
            LogicCase(#"{"==": [[1], [1]]}"#, false),
            LogicCase(#"{"==": [[1], {"a": 1, "b": 2}]}"#, false),
            LogicCase(#"{"==": ["[object Object]", {"a": 1, "b": 2}]}"#, true),
            LogicCase(#"{"==": ["é", "e\u0301"]}"#, false),
            LogicCase(#"{"==": [1, [1]]}"#, true),
            LogicCase(#"{"==": [1, "1_0"]}"#, false),
            LogicCase(#"{"==": [10, "1_0"]}"#, true),
            LogicCase(#"{"!=": [1, "2"]}"#, true),
            LogicCase(#"{"===": [1, 1.0]}"#, true),
            LogicCase(#"{"===": [1, true]}"#, true),
            LogicCase(#"{"===": [1, "1"]}"#, false),
            LogicCase(#"{"===": [[1, "a"], [1.0, "a"]]}"#, true),
            LogicCase(#"{"===": [{"a": [1], "b": 2}, {"a": [1.0], "b": 2}]}"#, true),
            LogicCase(#"{"!==": [null, 0]}"#, true),
        ])
    func equality(_ test: LogicCase) throws {
        let got = try logic(test.rule)
        #expect(identical(got, test.expected), "got \(got.jsonText())")
    }

    @Test(
        "<, <=, >, >= and the between forms",
        arguments: [
            LogicCase(#"{"<": [1, 2]}"#, true),
            LogicCase(#"{"<": ["10", 9]}"#, false),
            LogicCase(#"{"<": ["a", "b"]}"#, true),
            LogicCase(#"{"<": ["B", "a"]}"#, true),
            LogicCase(#"{"<": ["abc", null]}"#, true),
            LogicCase(#"{"<": [null, 1]}"#, true),
            LogicCase(#"{"<": [[2], 3]}"#, true),
            LogicCase(#"{"<": [[1, 2], 3]}"#, false),
            LogicCase(#"{"<": ["x", 3]}"#, false),
            LogicCase(#"{">=": ["x", 3]}"#, false),
            LogicCase(#"{"<": [true, 2]}"#, true),
            LogicCase(#"{"<": [1, 2, 3]}"#, true),
            LogicCase(#"{"<": [1, 3, 3]}"#, false),
            LogicCase(#"{"<=": [1, 3, 3]}"#, true),
            LogicCase(#"{"<": [5, 3, null]}"#, false),
            LogicCase(#"{">": [3, 2, 1]}"#, true),
            LogicCase(#"{">=": [3, 3, 4]}"#, false),
            LogicCase(#"{"<": ["é", "z"]}"#, false),
            LogicCase(#"{"<": ["e\u0301", "é"]}"#, true),
        ])
    func ordering(_ test: LogicCase) throws {
        let got = try logic(test.rule)
        #expect(identical(got, test.expected), "got \(got.jsonText())")
    }

    @Test(
        "arithmetic keeps integers integers, / gives doubles, % takes the divisor's sign",
        arguments: [
            LogicCase(#"{"+": [1, 2]}"#, 3),
            LogicCase(#"{"+": [1, 2.0]}"#, .double(3)),
            LogicCase(#"{"+": ["3"]}"#, .double(3)),
            LogicCase(#"{"+": [true, true]}"#, 2),
            LogicCase(#"{"+": []}"#, 0),
            LogicCase(#"{"+": [null, [4]]}"#, 4),
            LogicCase(#"{"+": [" 7 "]}"#, .double(7)),
            LogicCase(#"{"+": ["1e3"]}"#, .double(1000)),
            LogicCase(#"{"+": ["١٢"]}"#, .double(12)),
            LogicCase(#"{"+": ["Infinity"]}"#, .double(.infinity)),
            LogicCase(#"{"+": ["inf"]}"#, .double(.nan)),
            LogicCase(#"{"+": [""]}"#, .double(.nan)),
            LogicCase(#"{"+": ["0x10"]}"#, .double(.nan)),
            LogicCase(#"{"+": ["1__0"]}"#, .double(.nan)),
            LogicCase(#"{"+": [".5"]}"#, .double(0.5)),
            LogicCase(#"{"+": ["5."]}"#, .double(5)),
            LogicCase(#"{"*": [2, 3]}"#, 6),
            LogicCase(#"{"*": []}"#, 1),
            LogicCase(#"{"*": [2, "x"]}"#, .double(.nan)),
            LogicCase(#"{"-": [5, 7]}"#, -2),
            LogicCase(#"{"-": [5]}"#, -5),
            LogicCase(#"{"-": [true]}"#, -1),
            LogicCase(#"{"-": [5, null]}"#, -5),
            LogicCase(#"{"-": []}"#, 0),
            LogicCase(#"{"/": [6, 3]}"#, .double(2)),
            LogicCase(#"{"/": [1, 4]}"#, .double(0.25)),
            LogicCase(#"{"%": [7, 3]}"#, 1),
            LogicCase(#"{"%": [-7, 3]}"#, 2),
            LogicCase(#"{"%": [7, -3]}"#, -2),
            LogicCase(#"{"%": [7.5, 2]}"#, .double(1.5)),
            LogicCase(#"{"%": [-7.5, 2]}"#, .double(0.5)),
            LogicCase(#"{"min": [3, 1.0, 1]}"#, .double(1)),
            LogicCase(#"{"min": [true, 5]}"#, true),
            LogicCase(#"{"max": [1, "7", 3]}"#, .double(7)),
            LogicCase(#"{"max": []}"#, .double(.nan)),
            LogicCase(#"{"max": ["x", 2]}"#, .double(.nan)),
            LogicCase(#"{"max": [2, "x"]}"#, 2),
            // Beyond 64 bits the library goes on in doubles; Python's integers have no limit (FORMAT.md, "Differences").
            LogicCase(#"{"+": [9223372036854775807, 1]}"#, .double(9_223_372_036_854_775_808)),
        ])
    func arithmetic(_ test: LogicCase) throws {
        let got = try logic(test.rule)
        #expect(identical(got, test.expected), "got \(got.jsonText())")
    }

    @Test(
        "dividing or taking a remainder by zero fails, as in Python",
        arguments: [
            (#"{"/": [1, 0]}"#, "division by zero"), (#"{"/": [1, false]}"#, "division by zero"),
            (#"{"/": []}"#, "division by zero"), (#"{"%": [1, 0.0]}"#, "modulo by zero"),
            (#"{"substr": ["abc", {"+": ["Infinity"]}]}"#, "\"substr\" cannot start at an infinite index"),
            (#"{"substr": ["abc", 0, {"+": ["Infinity"]}]}"#, "\"substr\" cannot take an infinite length"),
            (#"{"map": [[[1]], {"var": {"+": ["Infinity"]}}]}"#, "\"var\" cannot index by an infinite number"),
        ])
    func arithmeticFailure(_ rule: String, _ message: String) throws {
        #expect(try failure(rule) == message)
    }

    @Test(
        "cat, substr, in, merge, missing, missing_some",
        arguments: [
            LogicCase(
                #"{"cat": ["a", 1, 2.5, 0.1, true, null, [1, [2]], {"a": 1, "b": 2}]}"#, "a12.50.1Truenull1,2[object Object]"),
            LogicCase(#"{"cat": [{"+": [0.1, 0.2]}, " ", 1e21, " ", 100.0]}"#, "0.3 1e+21 100"),
            LogicCase(#"{"substr": ["jsonlogic", 4]}"#, "logic"),
            LogicCase(#"{"substr": ["jsonlogic", -5]}"#, "logic"),
            LogicCase(#"{"substr": ["jsonlogic", 1, 3]}"#, "son"),
            LogicCase(#"{"substr": ["jsonlogic", 4, -2]}"#, "log"),
            LogicCase(#"{"substr": ["jsonlogic", 4, -9]}"#, ""),
            LogicCase(#"{"substr": ["jsonlogic", -50]}"#, "jsonlogic"),
            LogicCase(#"{"substr": ["jsonlogic", 50]}"#, ""),
            LogicCase(#"{"substr": ["jsonlogic", "x", 2]}"#, "js"),
            LogicCase(#"{"substr": ["jsonlogic", 0, "x"]}"#, ""),
            LogicCase(#"{"substr": ["jsonlogic", 1.9, 2.9]}"#, "so"),
            LogicCase(#"{"substr": ["h🙂llo", 1, 1]}"#, "🙂"),
            LogicCase(#"{"substr": [12345, 1, 2]}"#, "23"),
            LogicCase(#"{"in": ["b", ["a", "b"]]}"#, true),
            LogicCase(#"{"in": [1, [true]]}"#, true),
            LogicCase(#"{"in": [[1], [[1.0]]]}"#, true),
            LogicCase(#"{"in": ["ell", "hello"]}"#, true),
            LogicCase(#"{"in": ["", "hello"]}"#, true),
            LogicCase(#"{"in": [true, "isTrue"]}"#, true),
            LogicCase(#"{"in": ["e", "e\u0301"]}"#, true),
            LogicCase(#"{"in": ["é", "e\u0301"]}"#, false),
            LogicCase(#"{"in": ["a", null]}"#, false),
            LogicCase(#"{"merge": [[1, 2], 3, [[4]], null]}"#, [1, 2, 3, [4], nil]),
            LogicCase(#"{"missing": ["email", "nope", "nothing"]}"#, data, ["nope", "nothing"]),
            LogicCase(#"{"missing": [["email", "user.tier", "user.x"]]}"#, data, ["user.x"]),
            LogicCase(#"{"missing": []}"#, data, []),
            LogicCase(#"{"missing_some": [1, ["email", "nope"]]}"#, data, []),
            LogicCase(#"{"missing_some": [2, ["email", "nope"]]}"#, data, ["nope"]),
            LogicCase(#"{"missing_some": [1, "email"]}"#, data, []),
        ])
    func strings(_ test: LogicCase) throws {
        let got = try logic(test.rule, test.data)
        #expect(identical(got, test.expected), "got \(got.jsonText())")
    }

    @Test(
        "map, filter, reduce, all, some, none",
        arguments: [
            LogicCase(#"{"map": [{"var": "items"}, {"var": "name"}]}"#, data, ["x", "y"]),
            LogicCase(#"{"map": [{"var": "items"}]}"#, data, [nil, nil]),
            LogicCase(#"{"map": ["ab", {"var": ""}]}"#, data, []),
            LogicCase(#"{"filter": [{"var": "items"}, {">": [{"var": "n"}, 2]}]}"#, data, [["n": 5, "name": "y"]]),
            LogicCase(#"{"filter": [{"var": "items"}]}"#, data, []),
            LogicCase(#"{"reduce": [{"var": "items"}, {"+": [{"var": "accumulator"}, {"var": "current.n"}]}, 0]}"#, data, 6),
            LogicCase(#"{"reduce": [{"var": "tags"}, {"cat": [{"var": "accumulator"}, {"var": "current"}]}, ""]}"#, data, "ab"),
            LogicCase(#"{"reduce": [{"var": "nope"}, {"var": "current"}, {"var": "age"}]}"#, data, ["var": "age"]),
            LogicCase(#"{"reduce": [[1, 2], {"var": "accumulator"}, {"var": "age"}]}"#, data, ["var": "age"]),
            LogicCase(#"{"reduce": [[1, 2]]}"#, data, nil),
            LogicCase(#"{"reduce": []}"#, data, nil),
            LogicCase(#"{"all": [{"var": "items"}, {"var": "name"}]}"#, data, true),
            LogicCase(#"{"all": [[], true]}"#, data, false),
            LogicCase(#"{"all": [[1, 0], {"var": ""}]}"#, data, false),
            LogicCase(#"{"some": [{"var": "tags"}, {"==": [{"var": ""}, "b"]}]}"#, data, true),
            LogicCase(#"{"some": ["ab", true]}"#, data, false),
            LogicCase(#"{"none": [{"var": "tags"}, {"==": [{"var": ""}, "z"]}]}"#, data, true),
            LogicCase(#"{"none": [5]}"#, data, true),
        ])
    func arrays(_ test: LogicCase) throws {
        let got = try logic(test.rule, test.data)
        #expect(identical(got, test.expected), "got \(got.jsonText())")
    }

    @Test(
        "objects of several members are data, arrays are evaluated element by element",
        arguments: [
            LogicCase(#"{"if": [true, {"a": {"var": "x"}, "b": 1}]}"#, ["x": 5], ["a": ["var": "x"], "b": 1]),
            LogicCase(#"[{"var": "x"}, 2]"#, ["x": 5], [5, 2]),
            LogicCase(#""plain""#, [:], "plain"),
        ])
    func literals(_ test: LogicCase) throws {
        let got = try logic(test.rule, test.data)
        #expect(identical(got, test.expected), "got \(got.jsonText())")
    }

    @Test(
        "starts_with and ends_with compare code points; anything but two strings gives null",
        arguments: [
            LogicCase(#"{"starts_with": ["user@example.com", "user"]}"#, true),
            LogicCase(#"{"ends_with": ["user@example.com", "@example.com"]}"#, true),
            LogicCase(#"{"ends_with": ["user@example.com", "@example.org"]}"#, false),
            LogicCase(#"{"starts_with": ["e\u0301t\u00e9", "e"]}"#, true),
            LogicCase(#"{"ends_with": ["caf\u00e9", "e\u0301"]}"#, false),
            LogicCase(#"{"starts_with": ["abc", ""]}"#, true),
            LogicCase(#"{"starts_with": [1, "1"]}"#, nil),
            LogicCase(#"{"starts_with": ["a"]}"#, nil),
            LogicCase(#"{"ends_with": ["a", "a", "a"]}"#, nil),
        ])
    func affixes(_ test: LogicCase) throws {
        let got = try logic(test.rule)
        #expect(identical(got, test.expected), "got \(got.jsonText())")
    }

    @Test(
        "sem_ver: the eight operators, v prefixes and padding, null for anything else",
        arguments: [
            LogicCase(#"{"sem_ver": ["1.2.3", "=", "1.2.3+build.7"]}"#, true),
            LogicCase(#"{"sem_ver": ["1.2.3", "!=", "1.2.4"]}"#, true),
            LogicCase(#"{"sem_ver": ["1.2.3", "<", "1.10.0"]}"#, true),
            LogicCase(#"{"sem_ver": ["1.0.0-alpha", "<", "1.0.0-alpha.1"]}"#, true),
            LogicCase(#"{"sem_ver": ["1.0.0-alpha.beta", "<", "1.0.0-beta"]}"#, true),
            LogicCase(#"{"sem_ver": ["1.0.0-beta.11", ">", "1.0.0-beta.2"]}"#, true),
            LogicCase(#"{"sem_ver": ["1.0.0-rc.1", "<", "1.0.0"]}"#, true),
            LogicCase(#"{"sem_ver": ["1.2.3", "<=", "1.2.3"]}"#, true),
            LogicCase(#"{"sem_ver": ["2.0.0", ">=", "1.9.9"]}"#, true),
            LogicCase(#"{"sem_ver": ["1.5.0", "^", "1.0.0"]}"#, true),
            LogicCase(#"{"sem_ver": ["2.0.0", "^", "1.0.0"]}"#, false),
            LogicCase(#"{"sem_ver": ["1.2.9", "~", "1.2.0"]}"#, true),
            LogicCase(#"{"sem_ver": ["1.3.0", "~", "1.2.0"]}"#, false),
            LogicCase(#"{"sem_ver": ["v1.2", "=", "1.2.0"]}"#, true),
            LogicCase(#"{"sem_ver": ["V2", "=", "2.0.0"]}"#, true),
            LogicCase(#"{"sem_ver": ["1.2-beta", "=", "1.2.0-beta"]}"#, true),
            LogicCase(#"{"sem_ver": ["1+b", "=", "1.0.0"]}"#, true),
            LogicCase(#"{"sem_ver": [2, "=", "2.0.0"]}"#, true),
            LogicCase(#"{"sem_ver": [1.5, "=", "1.5.0"]}"#, true),
            LogicCase(#"{"sem_ver": [2.0, "=", "2.0.0"]}"#, true),
            LogicCase(#"{"sem_ver": ["1.2.3.4", "=", "1.2.3"]}"#, nil),
            LogicCase(#"{"sem_ver": ["01.2.3", "=", "1.2.3"]}"#, nil),
            LogicCase(#"{"sem_ver": ["", "=", "1.2.3"]}"#, nil),
            LogicCase(#"{"sem_ver": [true, "=", "1.2.3"]}"#, nil),
            LogicCase(#"{"sem_ver": [null, "=", "1.2.3"]}"#, nil),
            LogicCase(#"{"sem_ver": ["1.2.3", "==", "1.2.3"]}"#, nil),
            LogicCase(#"{"sem_ver": ["1.2.3", 1, "1.2.3"]}"#, nil),
            LogicCase(#"{"sem_ver": ["1.2.3", "="]}"#, nil),
            LogicCase(#"{"sem_ver": [1e21, "=", "1.0.0"]}"#, nil),
        ])
    func semanticVersions(_ test: LogicCase) throws {
        let got = try logic(test.rule)
        #expect(identical(got, test.expected), "got \(got.jsonText())")
    }

    @Test("the context attributes read at the top level are recorded, in order, once")
    func attributesRead() throws {
        let json = try JSONParser().parse(
            #"{"and": [{"var": "a"}, {"var": ["b", 1]}, {"var": "a"}, {"some": [{"var": "c"}, {"var": "inner"}]}]}"#)
        var reader = LogicReader(evaluators: [:], key: "f")
        let parsed = reader.read(json, path: "targeting")
        var evaluator = LogicEvaluator(flagKey: "f", hashing: .cbor)
        _ = try evaluator.evaluate(parsed, data: ["a": 1, "b": 1, "c": [["inner": 1]]])
        #expect(evaluator.attributesRead == ["a", "b", "c"])
    }
}
