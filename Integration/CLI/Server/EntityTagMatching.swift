import Foundation

/// The conditional-request rules of RFC 9110 a config server needs for `GET`.
enum EntityTagMatching {
    /// Whether an `If-None-Match` value (a list, or `*`) matches `etag`, by weak comparison.
    static func ifNoneMatch(_ header: String, matches etag: String) -> Bool {
        func opaque(_ tag: Substring) -> Substring {
            let trimmed = tag.trimmingCharacters(in: .whitespaces)
            return Substring(trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed)
        }
        let target = opaque(Substring(etag))
        return header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || opaque(Substring(tag)) == target
        }
    }

    /// Whether a request with these headers gets `304 Not Modified` for a document with these validators.
    ///
    /// `If-None-Match` decides when present; otherwise `If-Modified-Since` does, when it parses and
    /// is not older than the document's `Last-Modified`.
    static func isNotModified(ifNoneMatch: String?, ifModifiedSince: String?, etag: String, lastModified: Date) -> Bool {
        if let ifNoneMatch { return Self.ifNoneMatch(ifNoneMatch, matches: etag) }
        if let ifModifiedSince, let since = HTTPDateFormat.date(from: ifModifiedSince) {
            return lastModified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
        }
        return false
    }
}
