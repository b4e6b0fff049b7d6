import Foundation

/// Reads the ISO 8601 date-times Unleash writes: `2022-01-29T13:00:00.000Z`, `2022-01-22T13:00:00+02:00`.
enum UnleashDate {
    /// The instant `text` names, with or without fractional seconds; nil when it is not an ISO 8601 date-time.
    static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingSpaces
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(trimmed) { return date }
        return try? Date.ISO8601FormatStyle().parse(trimmed)
    }
}
