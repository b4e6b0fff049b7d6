import ConfigDomain
import Foundation
import Testing

@Suite("Evaluation context")
struct EvaluationContextTests {
    @Test("dot paths reach into objects; the targeting key reads as targetingKey unless an attribute has that name")
    func paths() {
        let context = EvaluationContext(targetingKey: "u1", attributes: ["a": ["b": ["c": 1]], "flat.name": 2])
        #expect(context.value(at: "a.b.c") == 1)
        #expect(context.value(at: "a.x") == nil)
        #expect(context.value(at: "a.b.c.d") == nil)
        #expect(context.value(at: "targetingKey") == "u1")
        #expect(EvaluationContext(targetingKey: "u1", attributes: ["targetingKey": "x"]).value(at: "targetingKey") == "x")
        #expect(context.attributeObject["targetingKey"] == "u1")
        #expect(EvaluationContext.empty.value(at: "targetingKey") == nil)
    }
}
