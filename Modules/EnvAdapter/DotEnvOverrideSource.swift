import ConfigDomain
import ConfigPorts
import Foundation

/// Overrides from a `.env` file or text: `NEW_CHECKOUT=false` overrides the key `new_checkout`.
///
/// ```swift
/// let source = DotEnvOverrideSource(fileURL: URL(fileURLWithPath: ".env"), prefix: "MYAPP_")
/// ```
///
/// The grammar, one variable per line:
/// - `NAME=VALUE`, with optional spaces or tabs around `=`, and an optional `export ` before the
///   name. A name is ASCII letters, digits, `_`, `.` and `-`, not starting with a digit.
/// - Blank lines and lines whose first non-blank character is `#` are ignored.
/// - An unquoted value runs to the end of the line, trailing spaces removed; a `#` after a space
///   or tab starts a comment (`COLOR=#fff` keeps its `#`).
/// - `'single quotes'` keep their content literally.
/// - `"double quotes"` understand `\n`, `\t`, `\"` and `\\`; any other backslash stays as written.
/// - After a closing quote, only spaces and a `#` comment may follow.
/// - `NAME=`, `NAME=''` and `NAME=""` give empty text.
/// - Values are one line long; there is no `${VAR}` expansion.
/// - Lines end with LF, CRLF or CR; a leading UTF-8 byte-order mark is ignored.
///
/// A malformed line is a problem naming its line (`.env:12`) and is skipped; problems never echo
/// values. A name set twice is a problem; the last line wins. Names map to keys as for
/// ``EnvironmentOverrideSource``: `prefix + mapping(key.name)`, the same "did you mean" hints, and
/// the same rule for unknown names (all reported with a prefix; with the default empty prefix,
/// only those close to a registered name, because `.env` files often hold other tools' variables).
///
/// Values are returned as text; the origin is `<origin>:<line>`, for example `.env:12` or
/// `/path/to/.env:12`. A file is read on every ``overrides(for:)``; a missing or unreadable file
/// is a problem, not an error.
public struct DotEnvOverrideSource: SynchronousOverrideSource {
    /// `.env file`.
    public let name = ".env file"
    /// What origins start with: `.env` for text by default, the file's path for a file.
    public let origin: String
    /// The prefix of every variable this source reads; empty by default.
    public let prefix: String
    /// The mapping from key names to variable names (without the prefix).
    public let mapping: KeyMapping

    private let input: Input

    private enum Input: Sendable {
        case contents(String)
        case file(URL)
    }

    /// Creates a source over `.env` text.
    ///
    /// - Parameter origin: names the text in origins and problems (`<origin>:<line>`).
    public init(contents: String, origin: String = ".env", prefix: String = "", mapping: KeyMapping = .standard) {
        self.input = .contents(contents)
        self.origin = origin
        self.prefix = prefix
        self.mapping = mapping
    }

    /// Creates a source over a `.env` file, read on every ``overrides(for:)``.
    public init(fileURL: URL, prefix: String = "", mapping: KeyMapping = .standard) {
        self.input = .file(fileURL)
        self.origin = fileURL.path
        self.prefix = prefix
        self.mapping = mapping
    }

    /// The values the text gives the registered keys, and the problems found.
    public func overrides(for keys: [KeyDescriptor]) async -> OverrideSnapshot {
        overridesSynchronously(for: keys)
    }

    /// The same as ``overrides(for:)``, on the calling thread (what `buildSynchronously()` reads).
    public func overridesSynchronously(for keys: [KeyDescriptor]) -> OverrideSnapshot {
        let text: String
        switch input {
        case .contents(let contents):
            text = contents
        case .file(let url):
            switch Self.read(url) {
            case .success(let contents): text = contents
            case .failure(let problem): return OverrideSnapshot(values: [:], problems: [problem.message])
            }
        }

        let index = VariableIndex(keys: keys, prefix: prefix, mapping: mapping)
        let document = DotEnvParser.parse(text)
        var values: [String: OverrideValue] = [:]
        var lineProblems = document.problems
        let upperPrefix = prefix.uppercased()
        for (variable, entry) in document.entries {
            switch index.lookup(variable) {
            case .key(let key):
                values[key.name] = OverrideValue(.text(entry.value), origin: "\(origin):\(entry.line)")
            case .ambiguous:
                continue  // Reported once, by the index.
            case .unknown:
                let hasPrefix = !prefix.isEmpty && variable.uppercased().hasPrefix(upperPrefix)
                if let message = UnknownNameReport.variable(variable, index: index, reportAll: hasPrefix) {
                    lineProblems.append(DotEnvParser.Problem(line: entry.line, message: message))
                }
            }
        }
        // Stable sort: problems of one line keep their order.
        let sorted = lineProblems.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
        let problems = index.problems + sorted.map { "\(origin):\($0.element.line): \($0.element.message)" }
        return OverrideSnapshot(values: values, problems: problems)
    }

    private struct ReadProblem: Error {
        var message: String
    }

    private static func read(_ url: URL) -> Result<String, ReadProblem> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            return .failure(ReadProblem(message: "no .env file at \(url.path); no overrides read from it"))
        }
        guard !isDirectory.boolValue else {
            return .failure(ReadProblem(message: "\(url.path) is a directory, not a .env file; no overrides read from it"))
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            return .failure(
                ReadProblem(message: "cannot read the .env file \(url.path): \(error.localizedDescription)"))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            return .failure(ReadProblem(message: "\(url.path) is not UTF-8 text; no overrides read from it"))
        }
        return .success(text)
    }
}
