import ConfigDomain
import Foundation
import Testing

@Suite("Validation rules: names and exact messages")
struct ValidationRuleTests {
    @Test("range accepts its bounds and refuses outside them")
    func range() {
        let rule = ValidationRule<Int>.range(1...10)
        #expect(rule.name == "range(1...10)")
        #expect(rule.evaluate(1) == nil)
        #expect(rule.evaluate(10) == nil)
        #expect(rule.evaluate(0) == "0 is outside 1...10")
        #expect(rule.evaluate(11) == "11 is outside 1...10")
        #expect(rule.configurationProblem == nil)
    }

    @Test("range on doubles refuses NaN")
    func rangeDouble() {
        let rule = ValidationRule<Double>.range(0...1)
        #expect(rule.name == "range(0.0...1.0)")
        #expect(rule.evaluate(0.5) == nil)
        #expect(rule.evaluate(1.5) == "1.5 is outside 0.0...1.0")
        #expect(rule.evaluate(.nan) == "nan is outside 0.0...1.0")
    }

    @Test("atLeast and atMost include the bound")
    func atLeastAtMost() {
        let atLeast = ValidationRule<Int>.atLeast(5)
        #expect(atLeast.name == "atLeast(5)")
        #expect(atLeast.evaluate(5) == nil)
        #expect(atLeast.evaluate(4) == "4 is below the minimum 5")
        let atMost = ValidationRule<Int>.atMost(5)
        #expect(atMost.name == "atMost(5)")
        #expect(atMost.evaluate(5) == nil)
        #expect(atMost.evaluate(6) == "6 is above the maximum 5")
    }

    @Test("oneOf lists the allowed values")
    func oneOf() {
        let rule = ValidationRule<String>.oneOf(["red", "green"])
        #expect(rule.name == "oneOf(red, green)")
        #expect(rule.evaluate("green") == nil)
        #expect(rule.evaluate("blue") == "blue is not one of red, green")
        #expect(ValidationRule<Int>.oneOf([1, 2]).evaluate(3) == "3 is not one of 1, 2")
    }

    @Test("nonEmpty refuses empty strings and arrays")
    func nonEmpty() {
        #expect(ValidationRule<String>.nonEmpty.name == "nonEmpty")
        #expect(ValidationRule<String>.nonEmpty.evaluate("") == "the value is empty")
        #expect(ValidationRule<String>.nonEmpty.evaluate(" ") == nil)
        #expect(ValidationRule<[Int]>.nonEmpty.evaluate([]) == "the value is empty")
        #expect(ValidationRule<[Int]>.nonEmpty.evaluate([0]) == nil)
    }

    @Test("count bounds elements of arrays and characters of strings")
    func count() {
        let rule = ValidationRule<[Int]>.count(1...3)
        #expect(rule.name == "count(1...3)")
        #expect(rule.evaluate([1]) == nil)
        #expect(rule.evaluate([1, 2, 3]) == nil)
        #expect(rule.evaluate([]) == "has 0 elements, expected 1...3")
        #expect(rule.evaluate([1, 2, 3, 4]) == "has 4 elements, expected 1...3")
        #expect(ValidationRule<[Int]>.count(2...3).evaluate([1]) == "has 1 element, expected 2...3")
        #expect(ValidationRule<String>.count(1...3).evaluate("abcd") == "has 4 characters, expected 1...3")
    }

    @Test("length counts characters as a person sees them")
    func length() {
        let rule = ValidationRule<String>.length(2...4)
        #expect(rule.name == "length(2...4)")
        #expect(rule.evaluate("ab") == nil)
        #expect(rule.evaluate("abcd") == nil)
        #expect(rule.evaluate("a") == "is 1 character long, expected 2...4")
        #expect(rule.evaluate("abcde") == "is 5 characters long, expected 2...4")
        #expect(rule.evaluate("e\u{301}👍🏽") == nil)  // two characters: é and a thumbs-up with skin tone
    }

    @Test("pattern must match the whole string")
    func pattern() {
        let rule = ValidationRule<String>.pattern("[a-z]+")
        #expect(rule.name == "pattern([a-z]+)")
        #expect(rule.configurationProblem == nil)
        #expect(rule.evaluate("abc") == nil)
        #expect(rule.evaluate("abc1") == "does not match the pattern [a-z]+")
        #expect(rule.evaluate("1abc") == "does not match the pattern [a-z]+")
        #expect(rule.evaluate("") == "does not match the pattern [a-z]+")
        #expect(rule.evaluate("abc\n") == "does not match the pattern [a-z]+")
    }

    @Test("a pattern with alternatives is anchored as a whole")
    func patternAlternatives() {
        let rule = ValidationRule<String>.pattern("a|b")
        #expect(rule.evaluate("a") == nil)
        #expect(rule.evaluate("ab") == "does not match the pattern a|b")
    }

    @Test("an invalid pattern is a configuration problem, and refuses every value")
    func invalidPattern() {
        let rule = ValidationRule<String>.pattern("[a-")
        #expect(rule.configurationProblem == "'[a-' is not a valid regular expression")
        #expect(rule.evaluate("a") == "the rule is invalid: '[a-' is not a valid regular expression")
    }

    @Test("custom uses its predicate and message")
    func custom() {
        let rule = ValidationRule<Int>.custom("even", message: "must be an even number") { $0 % 2 == 0 }
        #expect(rule.name == "even")
        #expect(rule.evaluate(4) == nil)
        #expect(rule.evaluate(3) == "must be an even number")
    }

    @Test("a rule made from a check closure returns its reason")
    func checkClosure() {
        let rule = ValidationRule<String>(name: "lowercase") { $0 == $0.lowercased() ? nil : "must be lower case" }
        #expect(rule.evaluate("abc") == nil)
        #expect(rule.evaluate("Abc") == "must be lower case")
    }
}
