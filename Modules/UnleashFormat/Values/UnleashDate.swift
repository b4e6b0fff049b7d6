import Foundation

/// Date-times read as Unleash's engine reads them (it uses Rust's `chrono`).
///
/// A context's `currentTime` (or another field compared by a `DATE_` operator) is read in
/// chrono's relaxed RFC 3339: `2024-05-06T08:00:00Z`, also with `t` or a space between date and
/// time, fractional seconds of any length (digits past the ninth are ignored), an offset with or
/// without its colon (`+02:00`, `+0200`), `Z` in either case or `UTC`, unpadded numbers, and spaces
/// around the parts. A constraint's own value must be written strictly:
/// `YYYY-MM-DDTHH:MM:SS`, optional `.mmm`, then `Z` or `±HH:MM`.
enum UnleashDate {
    /// The instant a context field names, in chrono's relaxed RFC 3339; nil when it names none.
    static func parse(_ text: String) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.year(), scanner.skipBlanks(), scanner.take("-"),
            let month = scanner.number(maxDigits: 2), scanner.skipBlanks(), scanner.take("-"),
            let day = scanner.number(maxDigits: 2), scanner.takeAny(of: "Tt "),
            let hour = scanner.number(maxDigits: 2), scanner.skipBlanks(), scanner.take(":"),
            let minute = scanner.number(maxDigits: 2), scanner.skipBlanks(), scanner.take(":"),
            let second = scanner.number(maxDigits: 2)
        else { return nil }
        let nanoseconds = scanner.take(".") ? scanner.fraction() : 0
        guard let nanoseconds, scanner.skipBlanks(), let offset = scanner.offset(), scanner.skipBlanks(), scanner.atEnd
        else { return nil }
        return instant(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, nanoseconds: nanoseconds,
            offsetSeconds: offset)
    }

    /// A constraint's value: the strict form Unleash's engine compiles (spaces and tabs around it are skipped).
    static func parseConstraintValue(_ text: String) -> Date? {
        let bytes = Array(UnleashText.trimmingBlanks(text).utf8)
        // YYYY-MM-DDTHH:MM:SS is 19 bytes; then .mmm, then Z or ±HH:MM.
        let digitsAt = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
        guard bytes.count >= 20, digitsAt.allSatisfy({ isDigit(bytes[$0]) }), bytes[4] == UInt8(ascii: "-"),
            bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":")
        else { return nil }
        var zone = bytes[19...]
        if zone.first == UInt8(ascii: ".") {
            guard zone.count >= 4, zone.dropFirst().prefix(3).allSatisfy(isDigit) else { return nil }
            zone = zone.dropFirst(4)
        }
        let isZulu = zone.elementsEqual([UInt8(ascii: "Z")])
        let isOffset =
            zone.count == 6 && (zone.first == UInt8(ascii: "+") || zone.first == UInt8(ascii: "-"))
            && zone.dropFirst().enumerated().allSatisfy { $0.offset == 2 ? $0.element == UInt8(ascii: ":") : isDigit($0.element) }
        guard isZulu || isOffset else { return nil }
        return parse(String(decoding: bytes, as: UTF8.self))
    }

    /// The instant of a calendar date and time at an offset from UTC; nil when a part is out of range.
    private static func instant(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, nanoseconds: Int, offsetSeconds: Int
    ) -> Date? {
        guard abs(year) <= 262_143, (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour),
            (0...59).contains(minute), (0...60).contains(second), abs(offsetSeconds) < 86_400
        else { return nil }
        // Days from 1970-01-01 to the date (the proleptic Gregorian calendar, any year).
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        // A leap second (:60) falls after :59.999 and before the next minute, as chrono orders it.
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + min(second, 59) - offsetSeconds
        let fraction = second == 60 ? 0.9995 : Double(nanoseconds) / 1e9
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// Reads chrono's relaxed RFC 3339 byte by byte.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { position == bytes.count }

        /// Skips Unicode white space; always true, so that it chains in a `guard`.
        mutating func skipBlanks() -> Bool {
            while case let length = blankLength(at: position), length > 0 { position += length }
            return true
        }

        /// Consumes `literal` when it comes next.
        mutating func take(_ literal: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: literal) else { return false }
            position += 1
            return true
        }

        /// Consumes one of `characters` (ASCII) when one comes next.
        mutating func takeAny(of characters: String) -> Bool {
            guard position < bytes.count, characters.utf8.contains(bytes[position]) else { return false }
            position += 1
            return true
        }

        /// Skips blanks, then reads 1 to `maxDigits` digits.
        mutating func number(maxDigits: Int) -> Int? {
            _ = skipBlanks()
            var value = 0
            var count = 0
            while count < maxDigits, position < bytes.count, UnleashDate.isDigit(bytes[position]) {
                value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
                position += 1
                count += 1
            }
            return count > 0 ? value : nil
        }

        /// Skips blanks, then reads a year: up to 4 digits, or a sign and any number of digits.
        mutating func year() -> Int? {
            _ = skipBlanks()
            if take("-") { return number(maxDigits: 9).map { -$0 } }
            if take("+") { return number(maxDigits: 9) }
            return number(maxDigits: 4)
        }

        /// The digits right after a point, as nanoseconds: at least one; past the ninth they are skipped.
        mutating func fraction() -> Int? {
            var value = 0
            var count = 0
            while position < bytes.count, UnleashDate.isDigit(bytes[position]) {
                if count < 9 { value = value * 10 + Int(bytes[position] - UInt8(ascii: "0")) }
                count += 1
                position += 1
            }
            guard count > 0 else { return nil }
            for _ in min(count, 9)..<9 { value *= 10 }
            return value
        }

        /// `UTC` (any case), `Z` or `z`, or a sign (`+`, `-`, `−`), two digits of hours, any colons or
        /// blanks, two digits of minutes: the offset in seconds.
        mutating func offset() -> Int? {
            let rest = bytes[position...]
            if rest.count >= 3, String(decoding: rest.prefix(3), as: UTF8.self).uppercased() == "UTC" {
                position += 3
                return 0
            }
            if takeAny(of: "Zz") { return 0 }
            let minus: [UInt8] = Array("\u{2212}".utf8)
            let negative: Bool
            if take("+") {
                negative = false
            } else if take("-") {
                negative = true
            } else if bytes[position...].starts(with: minus) {
                position += minus.count
                negative = true
            } else {
                return nil
            }
            guard let hours = twoDigits() else { return nil }
            while position < bytes.count {
                if take(":") { continue }
                let length = blankLength(at: position)
                guard length > 0 else { break }
                position += length
            }
            guard let minutes = twoDigits(), minutes < 60 else { return nil }
            let seconds = hours * 3_600 + minutes * 60
            return negative ? -seconds : seconds
        }

        private mutating func twoDigits() -> Int? {
            guard position + 1 < bytes.count, UnleashDate.isDigit(bytes[position]), UnleashDate.isDigit(bytes[position + 1])
            else { return nil }
            defer { position += 2 }
            return Int(bytes[position] - UInt8(ascii: "0")) * 10 + Int(bytes[position + 1] - UInt8(ascii: "0"))
        }

        /// The byte length of the white-space scalar at `index`, or 0.
        private func blankLength(at index: Int) -> Int {
            guard index < bytes.count else { return 0 }
            let rest = String(decoding: bytes[index...].prefix(4), as: UTF8.self)
            guard let scalar = rest.unicodeScalars.first, scalar.properties.isWhitespace else { return 0 }
            return String(scalar).utf8.count
        }
    }
}
