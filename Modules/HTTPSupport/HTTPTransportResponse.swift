import ConfigDomain
import Foundation

/// The response to an ``HTTPTransportRequest``: its status, its header fields and its body.
public struct HTTPTransportResponse: Sendable, Hashable {
    /// How much of the body of a response that is not a payload is read: enough for an error document.
    public static let detailLimit = 64 * 1024

    /// The status code.
    public var status: Int
    /// The header fields as the server sent them; read them with ``header(_:)``, which ignores case.
    public var headers: [String: String]
    /// The body: whole for a payload (a 2xx other than 206), at most ``detailLimit`` bytes for any other status.
    public var body: Data

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the header `name`, in any case, or `nil`.
    public func header(_ name: String) -> String? {
        if let exact = headers[name] { return exact }
        return headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Whether the body is a payload the request's limits apply to: a 2xx other than `206 Partial Content`.
    public var isPayload: Bool { (200..<300).contains(status) && status != 206 }

    /// `Content-Type`, verbatim.
    public var contentType: String? { header("Content-Type") }

    /// The response's own `ETag` and `Last-Modified`, verbatim.
    public var validators: Validators { Validators(etag: header("ETag"), lastModified: header("Last-Modified")) }

    /// The validators a `304` carries, each falling back to the request's own (`request`).
    public func validators(fallingBackTo request: Validators) -> Validators {
        Validators(etag: header("ETag") ?? request.etag, lastModified: header("Last-Modified") ?? request.lastModified)
    }

    /// The `Content-Length` the received byte count must match: when present, numeric, and the body is not
    /// content-encoded (a decoded body has another length).
    var verifiableLength: Int? {
        let encoding = header("Content-Encoding")?.trimmingCharacters(in: .whitespaces).lowercased()
        guard encoding == nil || encoding == "identity" else { return nil }
        return header("Content-Length").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    }
}

extension FetchError {
    /// The error for a response whose status the adapter does not read as an answer.
    ///
    /// 408, 429 and 5xx are ``transient(status:answered:retryAt:details:)`` (retried, at the server's `Retry-After`
    /// when it names a time); 401 and 403 point to the credentials, 404 and 410 to the URL, and a 3xx that was not
    /// followed to its `Location`, with the advice in `wording`; no other status is retried. `details` (the server's
    /// own words, for a 5xx) follows the status, and `now` is the time `Retry-After: <seconds>` counts from.
    public static func forStatus(
        of response: HTTPTransportResponse, wording: ErrorWording, now: Date, details: String = ""
    ) -> FetchError {
        let status = response.status
        let answered = "\(wording.subject) answered HTTP \(status)"
        let retryAt = RetryAfter.date(response.header("Retry-After"), now: now)
        if let transient = transient(status: status, answered: answered, retryAt: retryAt, details: details) {
            return transient
        }
        let message =
            switch status {
            case 401: "\(answered) (unauthorized); \(wording.credentialsAdvice)"
            case 403: "\(answered) (forbidden); \(wording.credentialsAdvice)"
            case 404: "\(answered) (not found); \(wording.notFoundAdvice)"
            case 410: "\(answered) (gone); \(wording.notFoundAdvice)"
            case 300..<400: "\(answered), a redirect that could not be followed (no usable Location)"
            default: "\(answered); retrying will not help until the server or the request changes"
            }
        return FetchError(.httpStatus(status), retry: .doNotRetry, message: message)
    }
}
