import ConfigPorts
import FlyingFox
import FlyingSocks
import Foundation

/// A configuration document a ``TestHTTPServer`` serves.
package struct PublishedDocument: Sendable {
    /// The body.
    package var body: Data
    /// The strong entity tag, quoted.
    package var etag: String
    /// When this version was published (whole seconds, so it round-trips through an HTTP date).
    package var lastModified: Date
    /// The `Cache-Control` header, if any.
    package var cacheControl: String?
}

/// The documents a ``TestHTTPServer`` serves by path, each version with a new `ETag` and a later
/// `Last-Modified`, answered with `304` when the request's validators match.
final class PublishedDocuments: Sendable {
    private struct State {
        var documents: [String: PublishedDocument] = [:]
        var version = 0
    }

    private let state = Locked(State())

    /// A fixed, whole-second base so `Last-Modified` round-trips exactly.
    private static let epoch = Date(timeIntervalSince1970: 1_700_000_000)

    /// Publishes a new version of the document at `path`.
    func publish(_ body: Data, at path: String, cacheControl: String?) -> PublishedDocument {
        state.withLock { state -> PublishedDocument in
            state.version += 1
            let version = state.version
            let document = PublishedDocument(
                body: body, etag: "\"v\(version)\"", lastModified: Self.epoch.addingTimeInterval(TimeInterval(version * 60)),
                cacheControl: cacheControl)
            state.documents[path] = document
            return document
        }
    }

    /// The document at `path`, if one was published.
    func document(at path: String) -> PublishedDocument? {
        state.withLock { $0.documents[path] }
    }

    /// The document at the request's path, or a `304` when the request's validators match it: a
    /// matching `If-None-Match` (weak comparison, lists and `*`) or, when there is none, an
    /// `If-Modified-Since` not older than the document. A `404` when nothing is published there.
    func answer(_ request: HTTPRequest) -> HTTPResponse {
        guard let document = document(at: request.path) else {
            return Reply.make(404, ["Content-Type": "text/plain"], body: Data("no such document".utf8))
        }
        var headers = ["ETag": document.etag, "Last-Modified": Self.httpDate(document.lastModified)]
        if let cacheControl = document.cacheControl { headers["Cache-Control"] = cacheControl }
        if let ifNoneMatch = request.headers[HTTPHeader("If-None-Match")] {
            if Self.matches(ifNoneMatch, etag: document.etag) { return Reply.make(304, headers) }
        } else if let since = request.headers[HTTPHeader("If-Modified-Since")], let date = Self.formatter().date(from: since),
            document.lastModified <= date
        {
            return Reply.make(304, headers)
        }
        headers["Content-Type"] = "application/json"
        return Reply.make(200, headers, body: document.body)
    }

    /// An HTTP date (IMF-fixdate) for `date`.
    static func httpDate(_ date: Date) -> String { formatter().string(from: date) }

    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }

    /// Weak comparison of an `If-None-Match` list against an entity tag.
    private static func matches(_ list: String, etag: String) -> Bool {
        func opaque(_ tag: String) -> String {
            let trimmed = tag.trimmingCharacters(in: .whitespaces)
            return trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed
        }
        return list.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || opaque(tag) == opaque(etag)
        }
    }
}
