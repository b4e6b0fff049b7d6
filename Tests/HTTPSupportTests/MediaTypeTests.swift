import Foundation
import HTTPSupport
import Testing

@Suite("Media types and accepted patterns")
struct MediaTypeTests {
    @Test(
        "media type patterns",
        arguments: [
            ("application/json", "application/json", true), ("application/vnd.a+json", "application/*+json", true),
            ("application/+json", "application/*+json", false), ("text/json", "application/*+json", false),
            ("text/plain", "text/*", true), ("image/png", "*/*", true), ("application/jsonx", "application/json", false),
            ("application/json", "APPLICATION/JSON", true), ("Application/JSON", "application/json", true),
        ])
    func matches(type: String, pattern: String, expected: Bool) {
        #expect(MediaType.matches(type, pattern: pattern) == expected)
    }

    @Test("the media type drops parameters and case")
    func mediaTypeOfContentType() {
        #expect(MediaType.of("Application/JSON; charset=UTF-8") == "application/json")
        #expect(MediaType.of("  ") == nil)
        #expect(MediaType.of(nil) == nil)
    }

    @Test(
        "a pattern is type/subtype of token characters",
        arguments: [
            ("application/json", true), ("application/*+json", true), ("*/*", true), ("text/*", true), ("json", false),
            ("/json", false), ("application/", false), ("a/b/c", false), ("applicatión/json", false),
            ("application/json; charset=utf-8", false),
        ])
    func patterns(pattern: String, valid: Bool) {
        #expect(MediaType.isValidPattern(pattern) == valid)
    }
}
