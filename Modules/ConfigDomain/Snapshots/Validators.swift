import Foundation

/// What identifies the version of a payload a client holds, for conditional fetches.
///
/// HTTP fetchers send these as `If-None-Match` and `If-Modified-Since`; any other fetcher may
/// use them as it sees fit (a commit hash as `etag`, a file's modification date).
public struct Validators: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The entity tag, exactly as the server sent it (including a `W/` prefix and quotes).
    public var etag: String?
    /// The `Last-Modified` value, exactly as the server sent it.
    public var lastModified: String?

    /// Creates validators.
    public init(etag: String? = nil, lastModified: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// No validators: the next fetch is unconditional.
    public static let none = Validators()

    /// Whether there is nothing to make a request conditional with.
    public var isEmpty: Bool { etag == nil && lastModified == nil }

    /// `etag="abc" lastModified=…` or `none`.
    public var description: String {
        if isEmpty { return "none" }
        var parts: [String] = []
        if let etag { parts.append("etag=\(etag)") }
        if let lastModified { parts.append("lastModified=\(lastModified)") }
        return parts.joined(separator: " ")
    }
}
