import Foundation
import Testing

@testable import HTTPAdapter

@Suite("Cache-Control and Age")
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
}
