import ConfigDomain
import Foundation
import Targeting
import Testing

@Suite("Conditions")
struct ConditionTests {
    let context = EvaluationContext(
        targetingKey: "u1",
        attributes: ["country": "DE", "age": 31, "beta": true, "app": ["version": "2.10.1"], "tags": ["a", "b"]])

    @Test("a strict condition refuses an unknown operator, naming it and where it is")
    func unknownOperator() {
        #expect(throws: ConditionError(path: "name.$regx", kind: .unknownOperator("$regx"))) {
            try Condition(["name": ["$regx": "^a"]])
        }
        #expect(throws: ConditionError(path: "$or[1].n.$bogus", kind: .unknownOperator("$bogus"))) {
            try Condition(["$or": [["a": 1], ["n": ["$bogus": 1]]]])
        }
    }

    @Test(
        "a strict condition refuses malformed operands",
        arguments: [
            ConfigValue.array([]), ["$and": "x"], ["a": ["$in": 1]], ["a": ["$regex": "("]], ["a": ["$regex": 3]],
            ["a": ["$type": "date"]], ["a": ["$elemMatch": 1]], ["a": ["$all": "x"]], ["a": ["$inGroup": 1]], ["a": ["$or": []]],
        ])
    func malformed(_ json: ConfigValue) {
        #expect(throws: ConditionError.self) { try Condition(json) }
        #expect(Condition.lenient(json).matches(context) == false || json == ["$and": "x"])
    }

    @Test("strings are equal when their code points are, not by Unicode canonical equivalence, as in JavaScript")
    func exactStrings() throws {
        let decomposed = EvaluationContext(attributes: ["name": "e\u{301}", "names": ["e\u{301}"]])
        #expect(try Condition(["name": "é"]).matches(decomposed) == false)
        #expect(try Condition(["name": ["$eq": "é"]]).matches(decomposed) == false)
        #expect(try Condition(["name": ["$in": ["é"]]]).matches(decomposed) == false)
        #expect(try Condition(["name": ["$ini": ["É"]]]).matches(decomposed) == false)
        #expect(try Condition(["names": ["é"]]).matches(decomposed) == false)
        #expect(try Condition(["name": "e\u{301}", "names": ["$all": ["e\u{301}"]]]).matches(decomposed))
    }

    @Test("dot paths reach into arrays by canonical index and length, as JavaScript's `in` does")
    func arrayPaths() throws {
        let context = EvaluationContext(attributes: ["tags": ["a", "b"], "items": [["name": "x"], ["name": "y"]]])
        #expect(try Condition(["tags.0": "a"]).matches(context))
        #expect(try Condition(["tags.length": 2]).matches(context))
        #expect(try Condition(["items.1.name": "y"]).matches(context))
        #expect(try Condition(["items": ["$elemMatch": ["name.length": 1]]]).matches(context) == false)
        for missing in ["tags.01", "tags.2", "tags.-1", "tags.+1", "tags.0.length", "items.x"] {
            #expect(try Condition([missing: ["$exists": true]]).matches(context) == false, "\(missing)")
        }
    }

    @Test("numbers read and print as in JavaScript: hexadecimal, binary and octal literals, exponents")
    func javaScriptNumbers() throws {
        #expect(try Condition(["n": 17]).matches(EvaluationContext(attributes: ["n": "0x11"])))
        #expect(try Condition(["n": ["$gt": 16]]).matches(EvaluationContext(attributes: ["n": " 0X11 "])))
        #expect(try Condition(["n": 3]).matches(EvaluationContext(attributes: ["n": "0b11"])))
        #expect(try Condition(["n": 7]).matches(EvaluationContext(attributes: ["n": "0O7"])))
        #expect(try Condition(["n": 0]).matches(EvaluationContext(attributes: ["n": "0b2"])) == false)
        #expect(try Condition(["n": 5]).matches(EvaluationContext(attributes: ["n": "\u{FEFF}5\u{2003}"])))
        #expect(try Condition(["n": 5]).matches(EvaluationContext(attributes: ["n": "\u{85}5"])) == false)
        #expect(try Condition(["n": "0.000001"]).matches(EvaluationContext(attributes: ["n": 0.000001])))
        #expect(try Condition(["n": "2.5e-7"]).matches(EvaluationContext(attributes: ["n": 2.5e-7])))
        #expect(try Condition(["v": ["$veq": "0.000001"]]).matches(EvaluationContext(attributes: ["v": 0.000001])))
    }

    @Test("a condition error becomes a rule problem under the rule's path, offered the language's operators")
    func asRuleProblem() {
        let problem = ConditionError(path: "name.$regx", kind: .unknownOperator("$regx"))
            .ruleProblem(key: "k", ruleID: "r", path: "rules[0].when")
        let unknown = RuleProblem.Kind.unknownOperator("$regx", known: ConditionOperator.names)
        #expect(problem == RuleProblem(key: "k", ruleID: "r", path: "rules[0].when.name.$regx", kind: unknown))
        #expect(
            problem.description
                == "key \"k\" rule \"r\" at rules[0].when.name.$regx: unknown operator \"$regx\"; did you mean \"$regex\"?")
        let far = ConditionError(path: "", kind: .unknownOperator("$between")).ruleProblem(key: "k", ruleID: nil, path: nil)
        #expect(far.reason.hasPrefix("unknown operator \"$between\"; use one of $eq $ne"))
        let upperCase = ConditionError(path: "", kind: .unknownOperator("$IN")).ruleProblem(key: "k", ruleID: nil, path: nil)
        #expect(upperCase.reason.hasSuffix("did you mean \"$in\"?"))
        let malformed = ConditionError(path: "", kind: .malformed("why")).ruleProblem(key: "k", ruleID: nil, path: nil)
        #expect(malformed.kind == .unparsable("why"))
    }

    @Test("it matches and reports the attributes it reads")
    func matching() throws {
        let condition = try Condition([
            "country": ["$in": ["DE", "AT"]], "app.version": ["$vgte": "2.9.0"], "$or": [["beta": true], ["age": ["$gt": 40]]],
        ])
        #expect(condition.matches(context))
        #expect(Set(condition.attributes) == ["country", "app.version", "beta", "age"])
        #expect(try Condition(["targetingKey": "u1"]).matches(context))
        #expect(try Condition(["tags": ["$elemMatch": ["$eq": "b"]], "age": ["$not": ["$lt": 18]]]).matches(context))
        #expect(try Condition(["id": ["$inGroup": "g"]]).groups == ["g"])
        #expect(Condition.always.matches(.empty))
    }

    @Test("an attribute of another type than the comparison expects is reported, and the loose result kept")
    func mismatches() throws {
        let context = EvaluationContext(attributes: ["age": "eighteen", "country": 5, "beta": true])
        let age = try Condition(["age": ["$gte": 18]]).evaluate(context)
        #expect(
            age
                == ConditionResult(
                    matches: false, mismatches: [AttributeMismatch(attribute: "age", expected: "number", found: .string)]))
        let version = try Condition(["country": ["$vgt": "1.0"]]).evaluate(context)
        #expect(version.mismatches == [AttributeMismatch(attribute: "country", expected: "version string", found: .int)])
        #expect(version.matches)
        let regex = try Condition(["beta": ["$regex": "t"]]).evaluate(context)
        #expect(
            regex
                == ConditionResult(
                    matches: true, mismatches: [AttributeMismatch(attribute: "beta", expected: "string", found: .bool)]))
        #expect(try Condition(["age": ["$gt": 5]]).evaluate(.empty).mismatches.isEmpty)
    }

    @Test("conditions are equal by their parsed tree, and equal ones hash alike")
    func equalityAndHashing() throws {
        let a = try Condition(["country": ["$in": ["DE", "AT"]], "age": ["$gt": 5]])
        let same = try Condition(["country": ["$in": ["DE", "AT"]], "age": ["$gt": 5]])
        let other = try Condition(["country": ["$in": ["DE"]], "age": ["$gt": 5]])
        #expect(a == same)
        #expect(a.hashValue == same.hashValue)
        #expect(a != other)
        #expect(Set([a, same, other]).count == 2)
    }

    @Test(
        "versions compare part by part, pre-releases before releases",
        arguments: [
            ("1.10.0", "1.9.2", 1), ("1.0.0", "1.0.0-beta", 1), ("v2.0.0", "2.0.0", 0), ("1.2.3+build7", "1.2.3", 0),
            ("1.0.0-alpha", "1.0.0-beta", -1), ("", "0", 0),
        ])
    func versions(_ a: String, _ b: String, _ order: Int) {
        let x = VersionString.padded(a)
        let y = VersionString.padded(b)
        #expect((x < y ? -1 : (x > y ? 1 : 0)) == order)
    }

    @Test("a version operator orders an attribute as its padded form would, on random texts (seed 7)")
    func versionOperatorsMatchPaddedForms() throws {
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let alphabet = Array("0123456789..--+vab")
        func text() -> String { String((0..<next(14)).map { _ in alphabet[next(alphabet.count)] }) }
        for _ in 0..<2_000 {
            let (actual, operand) = (text(), text())
            let (x, y) = (VersionString.padded(actual), VersionString.padded(operand))
            let context = EvaluationContext(attributes: ["v": .string(actual)])
            for (name, holds) in [("$vgt", x > y), ("$vgte", x >= y), ("$vlt", x < y), ("$veq", x == y)] {
                #expect(
                    try Condition(["v": [name: .string(operand)]]).matches(context) == holds,
                    "\(actual) \(name) \(operand): padded \"\(x)\" and \"\(y)\"")
            }
        }
    }
}
