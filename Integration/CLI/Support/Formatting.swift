import Foundation

/// Renders sizes, durations and ages the way a person reads them.
enum Formatting {
    /// `812 B`, `1.2 KB`, `3.4 MB`.
    static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        let kb = Double(count) / 1024
        if kb < 1024 { return String(format: "%.1f KB", kb) }
        return String(format: "%.1f MB", kb / 1024)
    }

    /// `0.4 ms`, `12 ms`, `1.25 s`.
    static func duration(_ seconds: TimeInterval) -> String {
        let ms = seconds * 1000
        if ms < 10 { return String(format: "%.1f ms", ms) }
        if ms < 1000 { return String(format: "%.0f ms", ms) }
        return String(format: "%.2f s", seconds)
    }

    /// `3 s`, `4 min`, `2 h 5 min`, `3 d 4 h`; negative ages (a clock that moved back) say so.
    static func age(_ seconds: TimeInterval) -> String {
        if seconds < 0 { return "\(span(-seconds)) in the future (the clock moved back)" }
        return span(seconds)
    }

    /// A span of time without sign: `3 s`, `4 min`, `2 h 5 min`, `3 d 4 h`.
    static func span(_ seconds: TimeInterval) -> String {
        let s = Int(seconds.rounded(.down))
        if s < 60 { return "\(s) s" }
        if s < 3600 { return "\(s / 60) min" }
        if s < 86_400 {
            let minutes = (s % 3600) / 60
            return minutes == 0 ? "\(s / 3600) h" : "\(s / 3600) h \(minutes) min"
        }
        let hours = (s % 86_400) / 3600
        return hours == 0 ? "\(s / 86_400) d" : "\(s / 86_400) d \(hours) h"
    }

    /// An ISO 8601 timestamp in UTC with whole seconds, for machine-readable output.
    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// `HH:mm:ss` in local time, for log lines.
    static func clockTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: date)
    }

    /// `line 3, column 12` for a byte offset in `data` (columns count bytes, from 1).
    static func lineAndColumn(of offset: Int, in data: Data) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for (index, byte) in data.enumerated() {
            if index >= offset { break }
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    /// `text`, cut to `limit` characters with `…` when longer.
    static func truncated(_ text: String, to limit: Int) -> String {
        guard text.count > limit, limit > 1 else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }
}
