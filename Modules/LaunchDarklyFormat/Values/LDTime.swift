import ConfigDomain
import Foundation

/// A moment for the `before` and `after` operators, in milliseconds since the Unix epoch, read as
/// LaunchDarkly's Python SDK reads it: a number is milliseconds as it is; a string is a timestamp with a
/// time zone, read by `pyrfc3339` (a final `Z` or `z` becomes `+00:00`) and then by Python 3.11's
/// `datetime.fromisoformat`. That reader takes more than RFC 3339: a date as `2024-05-01`, `20240501`,
/// `2024-W18-3` or `2024W183`; any one character between date and time (`T`, a space, `é`); a time as
/// `10:30`, `1030`, `10`, with a fraction after `.` or `,` (digits beyond the sixth are dropped); an offset as
/// `+01`, `+0100`, `+01:00`, `+01:00:30.5`. A timestamp without an offset, or out of range, is no moment.
/// The milliseconds are Python's: the exact microseconds since the epoch, divided by 10^6 and rounded once
/// to a double, then multiplied by 1000.
enum LDTime {
    /// The milliseconds `value` stands for, or nil.
    static func milliseconds(_ value: ConfigValue) -> Double? {
        switch value {
        case .int(let integer): return Double(integer)
        case .double(let double): return double
        case .string(let text): return milliseconds(parsing: text)
        default: return nil
        }
    }

    /// The milliseconds of a timestamp, or nil.
    static func milliseconds(parsing text: String) -> Double? {
        guard let micros = microseconds(parsing: text) else { return nil }
        // Python's int / int: the exact quotient, rounded once (strtod rounds the exact decimal text once too).
        let negative = micros < 0
        let magnitude = micros.magnitude
        let fraction = String(magnitude % 1_000_000)
        let text =
            (negative ? "-" : "") + String(magnitude / 1_000_000) + "."
            + String(repeating: "0", count: 6 - fraction.count) + fraction
        guard let seconds = Double(text) else { return nil }
        return seconds * 1000.0
    }

    /// The exact microseconds since the epoch of a timestamp with an offset, or nil.
    static func microseconds(parsing text: String) -> Int64? {
        // pyrfc3339: `re.sub("Z$", "+00:00", text, flags=re.IGNORECASE)`; `$` also matches before a final line feed.
        var scalars = Array(text.unicodeScalars)
        let count = scalars.count
        if count >= 1, scalars[count - 1] == "Z" || scalars[count - 1] == "z" {
            scalars.replaceSubrange((count - 1)..., with: "+00:00".unicodeScalars)
        } else if count >= 2, scalars[count - 1] == "\n", scalars[count - 2] == "Z" || scalars[count - 2] == "z" {
            scalars.replaceSubrange((count - 2)..<(count - 1), with: "+00:00".unicodeScalars)
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return ISOFormat.parse(String(view))
    }
}

/// Python 3.11's `datetime.fromisoformat` (its C implementation), ported step by step over the UTF-8 bytes,
/// with a zero byte read past the end as C reads a string's terminator.
enum ISOFormat {
    /// The microseconds since the epoch of an aware timestamp, or nil (invalid, out of range, or without an offset).
    static func parse(_ text: String) -> Int64? {
        // All valid strings are at least 7 characters (code points) long.
        guard text.unicodeScalars.count >= 7 else { return nil }
        let bytes = Bytes(Array(text.utf8))
        let length = bytes.count
        guard let separator = separatorLocation(bytes, length) else { return nil }
        guard let date = parseDate(bytes, from: 0, length: separator) else { return nil }
        var time = Time()
        var hasOffset = false
        if length > separator {
            var start = separator
            let lead = bytes[start]
            if lead & 0x80 == 0 {
                start += 1
            } else {
                switch lead & 0xf0 {
                case 0xe0: start += 3
                case 0xf0: start += 4
                default: start += 2
                }
            }
            guard let parsed = parseTime(bytes, from: start, length: length - start) else { return nil }
            time = parsed.time
            hasOffset = parsed.hasOffset
        }
        // A timestamp without an offset is naive: LaunchDarkly cannot subtract the epoch from it.
        guard hasOffset else { return nil }
        // The time zone: UTC for an offset of 0 seconds (whatever its microseconds), else strictly within ±24 h.
        var offset: Int64 = 0
        if time.offsetSeconds != 0 {
            offset = Int64(time.offsetSeconds) * 1_000_000 + Int64(time.offsetMicroseconds)
            guard offset > -86_400_000_000 && offset < 86_400_000_000 else { return nil }
        }
        guard (1...9999).contains(date.year), (1...12).contains(date.month),
            date.day >= 1, date.day <= daysInMonth(date.year, date.month)
        else { return nil }
        guard (0...23).contains(time.hour), (0...59).contains(time.minute), (0...59).contains(time.second),
            (0...999_999).contains(time.microsecond)
        else { return nil }
        let days = Int64(ordinal(date.year, date.month, date.day) - ordinal(1970, 1, 1))
        let seconds = days * 86_400 + Int64(time.hour * 3600 + time.minute * 60 + time.second)
        return seconds * 1_000_000 + Int64(time.microsecond) - offset
    }

    /// The bytes, with 0 past the end.
    struct Bytes {
        let storage: [UInt8]
        init(_ storage: [UInt8]) { self.storage = storage }
        var count: Int { storage.count }
        subscript(_ index: Int) -> UInt8 { index >= 0 && index < storage.count ? storage[index] : 0 }
    }

    struct Date {
        var year = 0
        var month = 0
        var day = 0
    }

    struct Time {
        var hour = 0
        var minute = 0
        var second = 0
        var microsecond = 0
        var offsetSeconds = 0
        var offsetMicroseconds = 0
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// `count` digits from `index` into `value` (value * 10 + digit); the index after them, or nil at a non-digit.
    static func digits(_ bytes: Bytes, _ index: Int, _ count: Int, into value: inout Int) -> Int? {
        var index = index
        for _ in 0..<count {
            let byte = bytes[index]
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
            index += 1
        }
        return index
    }

    /// `_find_isoformat_datetime_separator`: where the date ends; nil where C answers -1.
    static func separatorLocation(_ bytes: Bytes, _ length: Int) -> Int? {
        let dash = UInt8(ascii: "-")
        let week = UInt8(ascii: "W")
        if length == 7 { return 7 }
        if bytes[4] == dash {
            if bytes[5] == week {
                if length < 8 { return nil }
                if length > 8 && bytes[8] == dash {
                    if length == 9 { return nil }
                    if length > 10 && isDigit(bytes[10]) { return 8 }
                    return 10
                }
                return 8
            }
            return 10
        }
        if bytes[4] == week {
            var index = 7
            while index < length, isDigit(bytes[index]) { index += 1 }
            if index < 9 { return index }
            return index % 2 == 0 ? 7 : 8
        }
        return 8
    }

    /// `parse_isoformat_date`: `YYYY-MM-DD`, `YYYYMMDD`, `YYYY-Www[-D]` or `YYYYWww[D]`.
    static func parseDate(_ bytes: Bytes, from start: Int, length: Int) -> Date? {
        var date = Date()
        guard var index = digits(bytes, start, 4, into: &date.year) else { return nil }
        let usesSeparator = bytes[index] == UInt8(ascii: "-")
        if usesSeparator { index += 1 }
        if bytes[index] == UInt8(ascii: "W") {
            index += 1
            var week = 0
            var day = 0
            guard let afterWeek = digits(bytes, index, 2, into: &week) else { return nil }
            index = afterWeek
            if index - start < length {
                if usesSeparator {
                    guard bytes[index] == UInt8(ascii: "-") else { return nil }
                    index += 1
                }
                guard digits(bytes, index, 1, into: &day) != nil else { return nil }
            } else {
                day = 1
            }
            return isoWeekDate(year: date.year, week: week, day: day)
        }
        guard let afterMonth = digits(bytes, index, 2, into: &date.month) else { return nil }
        index = afterMonth
        if usesSeparator {
            guard bytes[index] == UInt8(ascii: "-") else { return nil }
            index += 1
        }
        guard digits(bytes, index, 2, into: &date.day) != nil else { return nil }
        return date
    }

    /// `parse_hh_mm_ss_ff` from `start` up to `end`: the time, and whether characters remain (C's 1); nil on failure.
    static func parseClock(
        _ bytes: Bytes, from start: Int, to end: Int
    ) -> (hour: Int, minute: Int, second: Int, micro: Int, more: Bool)? {
        var values = [0, 0, 0]
        var micro = 0
        var index = start
        var hasSeparator = true
        for component in 0..<3 {
            var value = 0
            guard let after = digits(bytes, index, 2, into: &value) else { return nil }
            values[component] = value
            index = after
            let character = bytes[index]
            index += 1
            if component == 0 { hasSeparator = character == UInt8(ascii: ":") }
            if index >= end {
                return (values[0], values[1], values[2], micro, character != 0)
            } else if hasSeparator && character == UInt8(ascii: ":") {
                continue
            } else if character == UInt8(ascii: ".") || character == UInt8(ascii: ",") {
                break
            } else if !hasSeparator {
                index -= 1
            } else {
                return nil
            }
        }
        let remaining = end - index
        let count = min(remaining, 6)
        guard count >= 1, let after = digits(bytes, index, count, into: &micro) else { return nil }
        index = after
        let correction = [100_000, 10_000, 1000, 100, 10]
        if count < 6 { micro *= correction[count - 1] }
        while isDigit(bytes[index]) { index += 1 }
        return (values[0], values[1], values[2], micro, bytes[index] != 0)
    }

    /// `parse_isoformat_time`: the time and its offset, or nil.
    static func parseTime(_ bytes: Bytes, from start: Int, length: Int) -> (time: Time, hasOffset: Bool)? {
        let end = start + length
        var zone = start
        repeat {
            let byte = bytes[zone]
            if byte == UInt8(ascii: "Z") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { break }
            zone += 1
        } while zone < end
        guard let clock = parseClock(bytes, from: start, to: zone) else { return nil }
        var time = Time(hour: clock.hour, minute: clock.minute, second: clock.second, microsecond: clock.micro)
        if zone == end {
            return clock.more ? nil : (time, false)
        }
        if bytes[zone] == UInt8(ascii: "Z") {
            return bytes[zone + 1] != 0 ? nil : (time, true)
        }
        let sign = bytes[zone] == UInt8(ascii: "-") ? -1 : 1
        guard let offset = parseClock(bytes, from: zone + 1, to: end) else { return nil }
        time.offsetSeconds = sign * (offset.hour * 3600 + offset.minute * 60 + offset.second)
        time.offsetMicroseconds = sign * offset.micro
        return offset.more ? nil : (time, true)
    }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysInMonth(_ year: Int, _ month: Int) -> Int {
        let days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return month == 2 && isLeap(year) ? 29 : days[month - 1]
    }

    /// Days since 0001-01-01 plus one (Python's proleptic Gregorian ordinal).
    static func ordinal(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = year - 1
        var days = y * 365 + y / 4 - y / 100 + y / 400
        let before = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334]
        days += before[month - 1] + (month > 2 && isLeap(year) ? 1 : 0)
        return days + day
    }

    /// `iso_to_ymd`: the date of an ISO week date, or nil for a week or day out of range (or a year before 1,
    /// which Python refuses too).
    static func isoWeekDate(year: Int, week: Int, day: Int) -> Date? {
        guard year >= 1 else { return nil }
        if week <= 0 || week >= 53 {
            guard week == 53 else { return nil }
            // Monday is 0: years starting on a Thursday, or leap years starting on a Wednesday, have 53 weeks.
            let firstWeekday = (ordinal(year, 1, 1) + 6) % 7
            guard firstWeekday == 3 || (firstWeekday == 2 && isLeap(year)) else { return nil }
        }
        guard day >= 1 && day <= 7 else { return nil }
        let firstDay = ordinal(year, 1, 1)
        let firstWeekday = (firstDay + 6) % 7
        var mondayOfWeekOne = firstDay - firstWeekday
        if firstWeekday > 3 { mondayOfWeekOne += 7 }
        return date(ordinal: mondayOfWeekOne + (week - 1) * 7 + day - 1)
    }

    /// The date of a (positive) ordinal.
    static func date(ordinal: Int) -> Date {
        var n = ordinal - 1
        let n400 = n / 146_097
        n %= 146_097
        var year = n400 * 400 + 1
        let n100 = n / 36_524
        n %= 36_524
        let n4 = n / 1461
        n %= 1461
        let n1 = n / 365
        n %= 365
        year += n100 * 100 + n4 * 4 + n1
        if n1 == 4 || n100 == 4 { return Date(year: year - 1, month: 12, day: 31) }
        var month = 1
        while month < 12, Self.ordinal(year, month + 1, 1) - Self.ordinal(year, 1, 1) <= n { month += 1 }
        let day = n - (Self.ordinal(year, month, 1) - Self.ordinal(year, 1, 1)) + 1
        return Date(year: year, month: month, day: day)
    }
}
