import ConfigDomain
import Testing

@Suite("Rule problems")
struct RuleProblemTests {
    @Test("an unknown operator is offered the closest of the dialect's own operators, else all of them")
    func unknownOperator() {
        let known = ["IN", "NOT_IN", "STR_CONTAINS"]
        let close = RuleProblem(key: "k", kind: .unknownOperator("str_contain", known: known))
        #expect(close.reason == "unknown operator \"str_contain\"; did you mean \"STR_CONTAINS\"?")
        let far = RuleProblem(key: "k", kind: .unknownOperator("$regex", known: known))
        #expect(far.reason == "unknown operator \"$regex\"; use one of IN NOT_IN STR_CONTAINS")
    }
}
