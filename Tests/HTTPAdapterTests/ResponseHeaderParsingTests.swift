import Foundation
import Testing

@testable import HTTPAdapter

@Suite("Retry-After, HTTP dates, Cache-Control and media types")
struct ResponseHeaderParsingTests {
    private let now = Date(timeIntervalSince1970: 1_000_000)

    @Test("Retry-After in seconds counts from now")
    func retryAfterSeconds() {
        #expect(ResponseHeaderParsing.retryAfter("120", now: now) == now.addingTimeInterval(120))
        #expect(ResponseHeaderParsing.retryAfter(" 0 ", now: now) == now)
    }

    @Test(
        "Retry-After as an HTTP date in all three forms",
        arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func retryAfterDates(text: String) {
        #expect(ResponseHeaderParsing.retryAfter(text, now: now) == Date(timeIntervalSince1970: 784_111_777))
    }

    @Test("dates around leap days and the turn of the century parse exactly")
    func calendarEdges() {
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(HTTPDate.parse("Sat, 01 Jan 2000 00:00:00 GMT") == Date(timeIntervalSince1970: 946_684_800))
        #expect(HTTPDate.parse("Monday, 01-Jan-24 00:00:00 GMT") == Date(timeIntervalSince1970: 1_704_067_200))
    }

    @Test(
        "malformed Retry-After values give nil",
        arguments: [
            "", "  ", "-5", "1.5", "soon", "Sun, 30 Feb 2023 00:00:00 GMT", "Sun, 06 Nov 1994 25:00:00 GMT",
            "Sun, 06 Foo 1994 08:49:37 GMT",
            "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 06 Nov 94 08:49:37 GMT", "99999999999999999999999",
        ])
    func malformedRetryAfter(text: String) {
        #expect(ResponseHeaderParsing.retryAfter(text, now: now) == nil)
    }

    @Test("a missing Retry-After gives nil")
    func missingRetryAfter() {
        #expect(ResponseHeaderParsing.retryAfter(nil, now: now) == nil)
    }

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
