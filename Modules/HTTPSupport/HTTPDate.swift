import Foundation

/// Parses the three date forms HTTP allows (RFC 9110 §5.6.7):
///
/// - IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT` (the one servers should send)
/// - RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT` (two-digit years 70–99 are 19xx, others 20xx)
/// - asctime: `Sun Nov  6 08:49:37 1994`
///
/// The weekday is not checked against the date.
public enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date `text` denotes, or `nil` when it is none of the three forms.
    public static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ").map(String.init)
        if parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT", parts[3].count == 4 {
            return make(year: Int(parts[3]), month: parts[2], day: Int(parts[1]), time: parts[4])
        }
        if parts.count == 4, parts[0].hasSuffix(","), parts[3] == "GMT" {
            let date = parts[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard date.count == 3, date[2].count == 2, let short = Int(date[2]) else { return nil }
            return make(year: short >= 70 ? 1900 + short : 2000 + short, month: date[1], day: Int(date[0]), time: parts[2])
        }
        if parts.count == 5, !parts[0].hasSuffix(","), parts[4].count == 4 {
            return make(year: Int(parts[4]), month: parts[1], day: Int(parts[2]), time: parts[3])
        }
        return nil
    }

    /// The date at `time` (`HH:MM:SS`, GMT) on the given day, or `nil` when there is no such date.
    private static func make(year: Int?, month: String, day: Int?, time: String) -> Date? {
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard let year, let day, let monthIndex = months.firstIndex(of: month.lowercased()),
            clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]), (0...60).contains(second),
            let gmt = TimeZone(secondsFromGMT: 0)
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = gmt
        // Seconds are added afterwards, so a leap second (60) is accepted.
        let components = DateComponents(year: year, month: monthIndex + 1, day: day, hour: hour, minute: minute)
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        return date.addingTimeInterval(TimeInterval(second))
    }
}
