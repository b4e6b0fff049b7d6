import Foundation

/// Parses the three date forms HTTP allows (RFC 9110 §5.6.7), without locale or formatter state.
///
/// - IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT` (the one servers should send)
/// - RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT` (two-digit years 70–99 are 19xx, others 20xx)
/// - asctime: `Sun Nov  6 08:49:37 1994`
///
/// The weekday is not checked against the date.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date `text` denotes, or `nil` when it is none of the three forms.
    static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT" {
            guard parts[3].count == 4 else { return nil }
            return make(year: Int(parts[3]), month: parts[2], day: Int(parts[1]), time: parts[4])
        }
        if parts.count == 4, parts[0].hasSuffix(","), parts[3] == "GMT" {
            let date = parts[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard date.count == 3, date[2].count == 2, let short = Int(date[2]) else { return nil }
            return make(year: short >= 70 ? 1900 + short : 2000 + short, month: date[1], day: Int(date[0]), time: parts[2])
        }
        if parts.count == 5, !parts[0].hasSuffix(",") {
            guard parts[4].count == 4 else { return nil }
            return make(year: Int(parts[4]), month: parts[1], day: Int(parts[2]), time: parts[3])
        }
        return nil
    }

    private static func make(year: Int?, month: String, day: Int?, time: String) -> Date? {
        guard let year, let day, let monthIndex = months.firstIndex(of: month.lowercased()) else { return nil }
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        let month = monthIndex + 1
        guard day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Hinnant's civil-from-days inverse).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = (month + 9) % 12
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
