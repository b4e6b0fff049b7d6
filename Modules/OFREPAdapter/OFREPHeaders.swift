import Foundation

/// The headers of `OFREP_HEADERS`: comma-separated `name=value` entries, the convention OpenFeature
/// took from OpenTelemetry's `OTEL_EXPORTER_OTLP_HEADERS`.
///
/// `Authorization=Bearer%20abc,X-Tenant=a` (or `Authorization=Bearer abc, X-Tenant=a`): whitespace
/// around names and values is dropped, values are percent-decoded (so a comma in a value is `%2C`),
/// and empty entries are skipped. A value may contain `=`: the first one ends the name.
enum OFREPHeaders {
    /// The headers `text` lists.
    ///
    /// - Throws: ``OFREPConfigurationError`` `.invalidHeader(entry:)` for an entry without `=`, an
    ///   empty or invalid name, a value whose percent-escapes do not decode, or a value with a line
    ///   break; the message names the entry and its header, never the value.
    static func parse(_ text: String) throws(OFREPConfigurationError) -> [String: String] {
        var headers: [String: String] = [:]
        for (index, entry) in text.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            let trimmed = entry.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            let position = index + 1
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw OFREPConfigurationError(
                    .invalidHeader(entry: position),
                    message: "OFREP_HEADERS entry \(position) has no \"=\"; write each header as name=value, "
                        + "separated by commas (Authorization=Bearer%20token,X-Tenant=acme)")
            }
            let name = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            let encoded = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if let problem = problem(name: name) {
                throw OFREPConfigurationError(
                    .invalidHeader(entry: position), message: "OFREP_HEADERS entry \(position): \(problem)")
            }
            guard let value = encoded.removingPercentEncoding else {
                throw OFREPConfigurationError(
                    .invalidHeader(entry: position),
                    message: "OFREP_HEADERS entry \(position) (\(name)): the value has a % that does not start a "
                        + "percent-escape; write a literal % as %25")
            }
            if let problem = problem(value: value) {
                throw OFREPConfigurationError(
                    .invalidHeader(entry: position), message: "OFREP_HEADERS entry \(position) (\(name)): \(problem)")
            }
            headers[name] = value
        }
        return headers
    }

    /// The characters of an HTTP token (RFC 9110): what a header name is made of.
    static let tokenCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~")

    /// Why `name` cannot be a header name (without quoting anything but printable ASCII), or nil.
    static func problem(name: String) -> String? {
        if name.isEmpty { return "the header name is empty; write name=value" }
        if !name.allSatisfy(tokenCharacters.contains) {
            return "the header name \"\(printable(name))\" has a character a header name cannot have "
                + "(letters, digits and !#$%&'*+-.^_`|~ only)"
        }
        return nil
    }

    /// Why `value` cannot be sent as a header value (never quoting it), or nil.
    static func problem(value: String) -> String? {
        value.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }
            ? "the value contains a line break or NUL, which would split the request" : nil
    }

    /// `text` with anything but printable ASCII shown as `?`.
    static func printable(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" })
    }
}
