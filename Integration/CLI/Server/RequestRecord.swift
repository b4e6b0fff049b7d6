import Foundation

/// One request a dev server answered, for its log.
struct RequestRecord: Sendable, Hashable {
    /// When it arrived.
    var date: Date
    /// `GET`, `HEAD`, …
    var method: String
    /// The request path.
    var path: String
    /// The status answered.
    var status: Int
    /// The request's `If-None-Match`, if any.
    var ifNoneMatch: String?
    /// The request's `If-Modified-Since`, if any.
    var ifModifiedSince: String?
    /// The `ETag` answered, if any.
    var etag: String?
    /// The `Last-Modified` answered, if any.
    var lastModified: String?
    /// Body bytes sent.
    var bytes: Int
    /// The simulated fault, if one was applied.
    var simulated: String?
    /// Seconds the answer was held back by `--delay`.
    var delayed: TimeInterval

    /// `[13:20:01] GET /config.json -> 304 Not Modified  etag "…"  last-modified …  0 B  (if-none-match "…")`.
    func logLine(style: (String, [Console.Style]) -> String = { text, _ in text }) -> String {
        let statusText = "\(status) \(Self.reason(for: status))"
        let statusColor: [Console.Style] = status >= 400 ? [.red] : status == 304 ? [.cyan] : [.green]
        var parts = ["[\(Formatting.clockTime(date))] \(method) \(path) -> " + style(statusText, statusColor)]
        if let etag { parts.append("etag \(etag)") }
        if let lastModified { parts.append("last-modified \(lastModified)") }
        parts.append(Formatting.bytes(bytes))
        var notes: [String] = []
        if let ifNoneMatch { notes.append("if-none-match \(ifNoneMatch)") }
        if let ifModifiedSince { notes.append("if-modified-since \(ifModifiedSince)") }
        if delayed > 0 { notes.append("delayed \(delayed) s") }
        if let simulated { notes.append(style("simulated \(simulated)", [.yellow])) }
        if !notes.isEmpty { parts.append("(" + notes.joined(separator: ", ") + ")") }
        return parts.joined(separator: "  ")
    }

    /// The reason phrase of common statuses.
    static func reason(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status"
        }
    }
}
