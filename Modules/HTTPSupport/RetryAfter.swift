import Foundation

/// Reads `Retry-After` (RFC 9110 §10.2.3): seconds, or an HTTP date; also an ISO 8601 date-time
/// (`2024-02-07T12:00:00Z`), as OFREP's own examples write it.
public enum RetryAfter {
    /// The date `value` names: `now` plus its seconds, or its date; nil when it is none of those forms.
    public static func date(_ value: String?, now: Date) -> Date? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard let seconds = Int(text) else { return nil }
            return now.addingTimeInterval(TimeInterval(seconds))
        }
        return HTTPDate.parse(text) ?? ISO8601DateFormatter().date(from: text)
    }
}
