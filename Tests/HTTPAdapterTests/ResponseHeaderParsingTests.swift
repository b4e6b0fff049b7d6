import Foundation
import Testing

@testable import HTTPAdapter

@Suite("Cache-Control, Age and media types")
struct ResponseHeaderParsingTests {
    @Test(
        "max-age less Age is the TTL; other directives do not make one",
        arguments: [
            ("max-age=300", nil, 300.0), ("public, max-age=60, must-revalidate", nil, 60.0), ("MAX-AGE=\"10\"", nil, 10.0),
            ("max-age=300", "100", 200.0), ("max-age=300", "400", 0.0), ("max-age=300", "x", 300.0),
        ] as [(String, String?, Double)])
    func maxAge(cacheControl: String, age: String?, expected: Double) {
        #expect(ResponseHeaderParsing.maxAge(cacheControl: cacheControl, age: age) == expected)
    }

    @Test(
        "no max-age, or a malformed one, gives no TTL",
        arguments: ["no-cache", "no-store", "s-maxage=30", "max-age=-1", "max-age=abc", "max-age="])
    func noMaxAge(cacheControl: String) {
        #expect(ResponseHeaderParsing.maxAge(cacheControl: cacheControl, age: nil) == nil)
        #expect(ResponseHeaderParsing.maxAge(cacheControl: nil, age: "5") == nil)
    }

    @Test(
        "media type patterns",
        arguments: [
            ("application/json", "application/json", true), ("application/vnd.a+json", "application/*+json", true),
            ("application/+json", "application/*+json", false), ("text/json", "application/*+json", false),
            ("text/plain", "text/*", true), ("image/png", "*/*", true), ("application/jsonx", "application/json", false),
            ("application/json", "APPLICATION/JSON", true),
        ])
    func mediaTypes(type: String, pattern: String, expected: Bool) {
        #expect(ResponseHeaderParsing.matches(type, pattern: pattern) == expected)
    }

    @Test("the media type drops parameters and case")
    func mediaTypeOfContentType() {
        #expect(ResponseHeaderParsing.mediaType("Application/JSON; charset=UTF-8") == "application/json")
        #expect(ResponseHeaderParsing.mediaType("  ") == nil)
        #expect(ResponseHeaderParsing.mediaType(nil) == nil)
    }
}
