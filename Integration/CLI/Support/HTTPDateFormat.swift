import Foundation

/// The HTTP date format (IMF-fixdate, RFC 9110): `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDateFormat {
    /// Formats `date` (whole seconds).
    static func string(from date: Date) -> String { formatter().string(from: date) }

    /// Parses an IMF-fixdate, or nil.
    static func date(from text: String) -> Date? { formatter().date(from: text.trimmingCharacters(in: .whitespaces)) }

    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }
}
