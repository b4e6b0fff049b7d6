import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The parts of an HTTP response head the fetcher acts on, copied out of `HTTPURLResponse`.
struct ResponseHead: Sendable, Hashable {
    /// The status code.
    var status: Int
    /// `ETag`, verbatim.
    var etag: String?
    /// `Last-Modified`, verbatim.
    var lastModified: String?
    /// `Content-Type`, verbatim.
    var contentType: String?
    /// `Content-Length`, when present and numeric.
    var contentLength: Int?
    /// `Content-Encoding`, lowercased; a length check only makes sense when it is absent or `identity`.
    var contentEncoding: String?
    /// `Retry-After`, verbatim.
    var retryAfter: String?
    /// `Cache-Control`, verbatim.
    var cacheControl: String?
    /// `Age`, verbatim.
    var age: String?
    /// `X-Config-Signature`, verbatim: a payload's detached signature.
    var signature: String?

    /// Copies the head out of a response.
    init(_ response: HTTPURLResponse) {
        func header(_ name: String) -> String? { response.value(forHTTPHeaderField: name) }
        status = response.statusCode
        etag = header("ETag")
        lastModified = header("Last-Modified")
        contentType = header("Content-Type")
        contentLength = header("Content-Length").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        contentEncoding = header("Content-Encoding")?.trimmingCharacters(in: .whitespaces).lowercased()
        retryAfter = header("Retry-After")
        cacheControl = header("Cache-Control")
        age = header("Age")
        signature = header(HTTPFetcher.SignatureTransport.headerName)
    }

    /// Creates a head directly (for tests).
    init(status: Int, etag: String? = nil, lastModified: String? = nil, contentType: String? = nil, contentLength: Int? = nil) {
        self.status = status
        self.etag = etag
        self.lastModified = lastModified
        self.contentType = contentType
        self.contentLength = contentLength
    }

    /// The `Content-Length` the received byte count must match, when the body is not content-encoded.
    var verifiableLength: Int? {
        guard contentEncoding == nil || contentEncoding == "identity" else { return nil }
        return contentLength
    }
}
