import Foundation

/// Reads `.env` text into variables and the problems of the lines it skips (grammar: ``DotEnvOverrideSource``).
enum DotEnvParser {
    /// A problem found on a line.
    typealias Problem = (line: Int, message: String)

    /// The variables set (for a name set twice, the last line wins) and the problems, in line order.
    static func parse(_ text: String) -> (entries: [String: (value: String, line: Int)], problems: [Problem]) {
        var text = text
        if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        var entries: [String: (value: String, line: Int)] = [:]
        var problems: [Problem] = []
        for (number, line) in zip(1..., lines) {
            do throws(Malformed) {
                guard let entry = try parseLine(line) else { continue }
                if let earlier = entries[entry.name] {
                    problems.append((number, "\(entry.name) is set again; line \(number) wins over line \(earlier.line)"))
                }
                entries[entry.name] = (entry.value, number)
            } catch {
                problems.append((number, "\(error.reason); line skipped"))
            }
        }
        return (entries, problems)
    }

    private struct Malformed: Error {
        var reason: String
    }

    private static let blanks = CharacterSet(charactersIn: " \t")

    private static func isBlank(_ character: Character) -> Bool { character == " " || character == "\t" }

    /// The name and value a line sets, or `nil` for a blank or comment line. Reasons never echo the text.
    private static func parseLine(_ line: Substring) throws(Malformed) -> (name: String, value: String)? {
        var line = line.drop(while: isBlank)
        guard let first = line.first, first != "#" else { return nil }
        if line.hasPrefix("export"), let next = line.dropFirst(6).first, isBlank(next) {
            line = line.dropFirst(6).drop(while: isBlank)
        }
        guard let equals = line.firstIndex(of: "=") else {
            throw Malformed(reason: "expected NAME=VALUE but the line has no '='")
        }
        let name = line[..<equals].trimmingCharacters(in: blanks)
        guard let initial = name.first else { throw Malformed(reason: "expected NAME=VALUE but nothing comes before '='") }
        guard initial.isASCII, initial.isLetter || initial == "_",
            name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) })
        else {
            throw Malformed(
                reason: "the text before '=' is not a variable name "
                    + "(ASCII letters, digits, '_', '.' and '-', not starting with a digit)")
        }

        let afterEquals = line[line.index(after: equals)...]
        var rest = afterEquals.drop(while: isBlank)
        switch rest.popFirst() {
        case nil:
            return (name, "")
        case "'":
            guard let close = rest.firstIndex(of: "'") else {
                throw Malformed(reason: "the value of \(name) has no closing single quote")
            }
            guard onlyCommentFollows(rest[rest.index(after: close)...]) else {
                throw Malformed(reason: "the value of \(name) has text after its closing single quote")
            }
            return (name, String(rest[..<close]))
        case "\"":
            var value = ""
            while let character = rest.popFirst() {
                switch character {
                case "\"":
                    guard onlyCommentFollows(rest) else {
                        throw Malformed(reason: "the value of \(name) has text after its closing double quote")
                    }
                    return (name, value)
                case "\\" where !rest.isEmpty:
                    let escaped = rest.removeFirst()
                    let escapes: [Character: String] = ["n": "\n", "t": "\t", "\"": "\"", "\\": "\\"]
                    value += escapes[escaped] ?? "\\\(escaped)"
                default:
                    value.append(character)
                }
            }
            throw Malformed(reason: "the value of \(name) has no closing double quote")
        default:
            // An unquoted value ends where a `#` after a space or tab starts a comment.
            let comment = [" #", "\t#"].compactMap { afterEquals.range(of: $0)?.lowerBound }.min()
            return (name, afterEquals[..<(comment ?? afterEquals.endIndex)].trimmingCharacters(in: blanks))
        }
    }

    /// Whether `text` holds only spaces, tabs and an optional `#` comment.
    private static func onlyCommentFollows(_ text: Substring) -> Bool {
        let rest = text.drop(while: isBlank)
        return rest.isEmpty || rest.first == "#"
    }
}
