import ConfigDomain
import Foundation
import HTTPSupport
import Testing

@Suite("Retry-After and HTTP dates")
struct RetryAfterTests {
    private let now = Date(timeIntervalSince1970: 1_000_000)

    @Test("Retry-After in seconds counts from now")
    func seconds() {
        #expect(RetryAfter.date("120", now: now) == now.addingTimeInterval(120))
        #expect(RetryAfter.date(" 0 ", now: now) == now)
    }

    @Test(
        "Retry-After as an HTTP date in all three forms, and as ISO 8601 (OFREP's examples)",
        arguments: [
            "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
            "1994-11-06T08:49:37Z",
        ])
    func dates(text: String) {
        #expect(RetryAfter.date(text, now: now) == Date(timeIntervalSince1970: 784_111_777))
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
            "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 PST", "Sun, 06 Nov 94 08:49:37 GMT",
            "99999999999999999999999", "1994-11-06", "1994-13-06T08:49:37Z",
        ])
    func malformed(text: String) {
        #expect(RetryAfter.date(text, now: now) == nil)
    }

    @Test("a missing Retry-After gives nil")
    func missing() {
        #expect(RetryAfter.date(nil, now: now) == nil)
    }
}

@Suite("Statuses that mean not now")
struct TransientStatusTests {
    private let later = Date(timeIntervalSince1970: 2_000_000)

    private func transient(_ status: Int, retryAt: Date? = nil, details: String = "") -> FetchError? {
        FetchError.transient(status: status, answered: "the server answered HTTP \(status)", retryAt: retryAt, details: details)
    }

    @Test("429 is rate limited: at the server's date when it names one, else with backoff")
    func tooManyRequests() throws {
        let dated = try #require(transient(429, retryAt: later))
        #expect(dated.kind == .rateLimited(status: 429))
        #expect(dated.retry == .after(later))
        #expect(dated.message.hasPrefix("the server answered HTTP 429 (too many requests); it asks to retry after 1970-01-24"))
        #expect(transient(429)?.retry == .backoff)
    }

    @Test("503 with a Retry-After is rate limited; without one, and every other 5xx, is a failure that may pass")
    func serverFailures() throws {
        #expect(transient(503, retryAt: later)?.kind == .rateLimited(status: 503))
        let plain = try #require(transient(503))
        #expect(plain.kind == .httpStatus(503))
        #expect(plain.retry == .backoff)
        let detailed = try #require(transient(500, retryAt: later, details: " (database down)"))
        #expect(detailed.kind == .httpStatus(500))
        #expect(detailed.retry == .after(later))
        #expect(detailed.message == "the server answered HTTP 500 (database down), a server-side failure that may pass")
    }

    @Test("408 backs off; other statuses are the caller's to explain", arguments: [200, 304, 400, 401, 403, 404, 410, 418])
    func others(status: Int) {
        #expect(transient(408)?.retry == .backoff)
        #expect(transient(408)?.kind == .httpStatus(408))
        #expect(transient(status) == nil)
    }
}
