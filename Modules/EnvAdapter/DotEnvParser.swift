import Foundation

/// Reads `.env` text into variables, reporting every line it skips. The grammar is documented on
/// ``DotEnvOverrideSource``.
struct DotEnvParser {
    /// One variable the text sets: its value and the line that set it last.
    struct Entry: Equatable {
        var value: String
        var line: Int
    }

    /// A line the parser skipped or noticed, with its number.
    struct Problem: Equatable {
        var line: Int
        var message: String
    }

    /// What a parse found.
    struct Document {
        /// Variables by name; for a name set twice, the last line wins.
        var entries: [String: Entry] = [:]
        /// Malformed lines and repeated names, in line order.
        var problems: [Problem] = []
    }

    private enum LineResult {
        case blank
        case entry(name: String, value: String)
        case malformed(String)
    }

    private static let space: Unicode.Scalar = " "
    private static let tab: Unicode.Scalar = "\t"
    private static let byteOrderMark: Unicode.Scalar = "\u{FEFF}"

    /// Parses `text`: a UTF-8 byte-order mark is dropped; lines end with LF, CRLF or CR.
    static func parse(_ text: String) -> Document {
        var document = Document()
        for (offset, line) in lines(of: text).enumerated() {
            let number = offset + 1
            switch parseLine(line) {
            case .blank:
                continue
            case .malformed(let reason):
                document.problems.append(Problem(line: number, message: "\(reason); line skipped"))
            case .entry(let name, let value):
                if let earlier = document.entries[name] {
                    document.problems.append(
                        Problem(line: number, message: "\(name) is set again; line \(number) wins over line \(earlier.line)"))
                }
                document.entries[name] = Entry(value: value, line: number)
            }
        }
        return document
    }

    private static func lines(of text: String) -> [[Unicode.Scalar]] {
        var scalars = Array(text.unicodeScalars)
        if scalars.first == byteOrderMark { scalars.removeFirst() }
        var lines: [[Unicode.Scalar]] = []
        var current: [Unicode.Scalar] = []
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "\n" || scalar == "\r" {
                if scalar == "\r", index < scalars.count, scalars[index] == "\n" { index += 1 }
                lines.append(current)
                current = []
            } else {
                current.append(scalar)
            }
        }
        lines.append(current)
        return lines
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == space || scalar == tab }

    private static func skipSpaces(_ line: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index < line.count, isSpace(line[index]) { index += 1 }
        return index
    }

    private static func isValidName(_ name: [Unicode.Scalar]) -> Bool {
        guard let first = name.first, first.isASCII, first.properties.isAlphabetic || first == "_" else { return false }
        return name.allSatisfy { scalar in
            scalar.isASCII
                && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_.-".unicodeScalars.contains(scalar))
        }
    }

    private static func parseLine(_ line: [Unicode.Scalar]) -> LineResult {
        var index = skipSpaces(line, from: 0)
        guard index < line.count, line[index] != "#" else { return .blank }

        let export = Array("export".unicodeScalars)
        if line.count > index + export.count, Array(line[index..<index + export.count]) == export,
            isSpace(line[index + export.count])
        {
            index = skipSpaces(line, from: index + export.count)
        }

        guard let equals = line[index...].firstIndex(of: "=") else {
            return .malformed("expected NAME=VALUE but the line has no '='")
        }
        var nameEnd = equals
        while nameEnd > index, isSpace(line[nameEnd - 1]) { nameEnd -= 1 }
        let nameScalars = Array(line[index..<nameEnd])
        guard !nameScalars.isEmpty else { return .malformed("expected NAME=VALUE but nothing comes before '='") }
        guard isValidName(nameScalars) else {
            // The text is not echoed: a pasted secret is often what ends up here.
            return .malformed(
                "the text before '=' is not a variable name (ASCII letters, digits, '_', '.' and '-', not starting with a digit)")
        }
        let name = String(String.UnicodeScalarView(nameScalars))

        let valueStart = skipSpaces(line, from: equals + 1)
        guard valueStart < line.count else { return .entry(name: name, value: "") }
        switch line[valueStart] {
        case "'":
            guard let close = line[(valueStart + 1)...].firstIndex(of: "'") else {
                return .malformed("the value of \(name) has no closing single quote")
            }
            guard onlyCommentFollows(line, from: close + 1) else {
                return .malformed("the value of \(name) has text after its closing single quote")
            }
            return .entry(name: name, value: String(String.UnicodeScalarView(line[(valueStart + 1)..<close])))
        case "\"":
            var value = String.UnicodeScalarView()
            var index = valueStart + 1
            while index < line.count {
                let scalar = line[index]
                if scalar == "\"" {
                    guard onlyCommentFollows(line, from: index + 1) else {
                        return .malformed("the value of \(name) has text after its closing double quote")
                    }
                    return .entry(name: name, value: String(value))
                }
                if scalar == "\\", index + 1 < line.count {
                    let escaped = line[index + 1]
                    switch escaped {
                    case "n": value.append("\n")
                    case "t": value.append("\t")
                    case "\"": value.append("\"")
                    case "\\": value.append("\\")
                    default:
                        value.append(scalar)
                        value.append(escaped)
                    }
                    index += 2
                } else {
                    value.append(scalar)
                    index += 1
                }
            }
            return .malformed("the value of \(name) has no closing double quote")
        default:
            var end = line.count
            for index in valueStart..<line.count where line[index] == "#" && isSpace(line[index - 1]) {
                end = index
                break
            }
            while end > valueStart, isSpace(line[end - 1]) { end -= 1 }
            return .entry(name: name, value: String(String.UnicodeScalarView(line[valueStart..<end])))
        }
    }

    /// Whether only spaces, tabs and an optional `#` comment follow `start`.
    private static func onlyCommentFollows(_ line: [Unicode.Scalar], from start: Int) -> Bool {
        let index = skipSpaces(line, from: start)
        return index == line.count || line[index] == "#"
    }
}
