import Targeting
import Testing

/// Semantic versions, ordered as Semantic Versioning 2.0.0 section 11 lists them.
@Suite("Semantic versions")
struct SemanticVersionTests {
    @Test("the specification's precedence example")
    func precedence() throws {
        let ordered = [
            "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1",
            "1.0.0",
        ].map { SemanticVersion($0) }
        for (lower, higher) in zip(ordered, ordered.dropFirst()) {
            #expect(try #require(lower) < #require(higher))
        }
    }

    @Test("not versions", arguments: ["v1.2.3", "1.2", "01.2.3", "1.2.3-", "1.2.3+", "1.2.3-01", "a.b.c", ""])
    func invalid(text: String) {
        #expect(SemanticVersion(text) == nil)
    }
}
