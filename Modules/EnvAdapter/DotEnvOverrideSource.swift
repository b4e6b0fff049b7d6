import ConfigDomain
import ConfigPorts
import Foundation

/// Overrides from a `.env` file or text: `NEW_CHECKOUT=false` overrides the key `new_checkout`.
///
/// ```swift
/// let source = DotEnvOverrideSource(fileURL: URL(fileURLWithPath: ".env"), prefix: "MYAPP_")
/// ```
///
/// The grammar, one variable per line (LF, CRLF or CR; a leading byte-order mark is ignored):
/// - `NAME=VALUE`, optionally `export NAME = VALUE`; a name is ASCII letters, digits, `_`, `.`
///   and `-`, starting with a letter or `_`. Blank lines and `#` comment lines are skipped.
/// - An unquoted value runs to the end of the line, trimmed; a `#` after a space or tab
///   starts a comment (`COLOR=#fff` keeps its `#`).
/// - `'single quotes'` are literal; `"double quotes"` understand `\n`, `\t`, `\"` and `\\`.
///   Only a comment may follow the closing quote. There is no `${VAR}` expansion.
///
/// Names map to keys as for ``EnvironmentOverrideSource``. A malformed line, a name set twice (the
/// last wins) and an unknown name are problems naming their line (`.env:12`), never the value;
/// so is a missing file. Origins are `<origin>:<line>`.
public struct DotEnvOverrideSource: OverrideSource {
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
    public func overrides(for keys: [KeyDescriptor]) -> OverrideSnapshot {
        let text: String
        switch input {
        case .contents(let contents): text = contents
        case .file(let url):
            do throws(ReadProblem) {
                text = try Self.read(url)
            } catch {
                return OverrideSnapshot(values: [:], problems: [error.message])
            }
        }

        let index = VariableIndex(keys: keys, prefix: prefix, mapping: mapping)
        var (entries, lineProblems) = DotEnvParser.parse(text)
        var values: [String: OverrideValue] = [:]
        for (variable, entry) in entries {
            switch index.lookup(variable) {
            case .key(let key): values[key.name] = OverrideValue(.text(entry.value), origin: "\(origin):\(entry.line)")
            case .ambiguous: continue  // Reported once, by the index.
            case .unknown:
                if let problem = index.unknownVariableProblem(variable) { lineProblems.append((entry.line, problem)) }
            }
        }
        // Sorted by line; the problems of one line keep their order.
        let sorted = lineProblems.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }
        return OverrideSnapshot(
            values: values, problems: index.problems + sorted.map { "\(origin):\($0.element.line): \($0.element.message)" })
    }

    private struct ReadProblem: Error {
        var message: String
    }

    private static func read(_ url: URL) throws(ReadProblem) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ReadProblem(message: "no .env file at \(url.path); no overrides read from it")
        }
        guard !isDirectory.boolValue else {
            throw ReadProblem(message: "\(url.path) is a directory, not a .env file; no overrides read from it")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ReadProblem(message: "cannot read the .env file \(url.path): \(error.localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ReadProblem(message: "\(url.path) is not UTF-8 text; no overrides read from it")
        }
        return text
    }
}
