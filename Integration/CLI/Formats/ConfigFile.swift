import ConfigDomain
import ConfigPorts
import Foundation

/// A config file read by a command, in the dialect its shape shows or `--format` names, with the
/// real problem named first: no such file, a URL where a file is wanted, JSON that does not parse
/// (byte, line and column), then a document the dialect cannot read.
struct ConfigFile {
    /// The path as given.
    let path: String
    /// The file's bytes.
    let bytes: Data
    /// The dialect it was read as.
    let dialect: ConfigDialect
    /// The decoded payload.
    let payload: DecodedPayload

    /// The parser every command checks a config's syntax with: rules nest deeper than values (flagd and
    /// LaunchDarkly allow 128 levels), so the syntax check must not refuse what their formats read.
    static let syntaxParser = JSONParser(maxDepth: 128)

    /// Reads the file at `path` for `command` (named in messages) as `dialect`, or as its shape shows.
    ///
    /// - Throws: an input failure (exit 2) when there is no file to read; a problem (exit 1) when the
    ///   bytes are not JSON or the dialect cannot read them.
    static func load(_ path: String, as dialect: ConfigDialect?, for command: String) throws(CLIFailure) -> ConfigFile {
        let bytes = try readBytes(path, for: command)
        let document = try parse(bytes, path: path)
        return try decode(bytes, document: document, path: path, as: dialect)
    }

    /// The bytes of the file at `path`, after refusing what is not a readable file: a URL, a missing
    /// file, a folder.
    static func readBytes(_ path: String, for command: String) throws(CLIFailure) -> Data {
        if URLScheme.of(path) != nil {
            let hint =
                command == "validate"
                ? "; download it first (curl -o config.json '\(path)'), or check it through the app's client with "
                    + "`remote-config fetch \(path) --keys manifest.json`"
                : "; download it first (curl -o config.json '\(path)')"
            throw CLIFailure.input("`\(command)` takes a file, not a URL (\(path))\(hint)")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIFailure.input("no such file: \(path); check the path (relative paths start at \(currentFolder))")
        }
        if isDirectory.boolValue { throw CLIFailure.input("\(path) is a folder; `\(command)` takes one config file") }
        return try CommandInputs.config(at: path)
    }

    /// The JSON document in `bytes`, or a problem (exit 1) naming the byte, line and column where it breaks.
    static func parse(_ bytes: Data, path: String) throws(CLIFailure) -> ConfigValue {
        do throws(JSONParseError) {
            return try syntaxParser.parse(bytes)
        } catch {
            throw CLIFailure.problem(SyntaxError(source: path, error: error, bytes: bytes).description)
        }
    }

    /// `document` (the parsed `bytes`) decoded as `dialect`, or as its shape shows.
    static func decode(_ bytes: Data, document: ConfigValue, path: String, as dialect: ConfigDialect?) throws(CLIFailure)
        -> ConfigFile
    {
        guard let chosen = dialect ?? ConfigDialect.detect(document) else {
            throw CLIFailure.problem(
                "no format reads \(path): it is a JSON \(document.kind), and every format the tool reads "
                    + "(\(ConfigDialect.names)) starts with a JSON object")
        }
        do throws(PayloadError) {
            return ConfigFile(path: path, bytes: bytes, dialect: chosen, payload: try chosen.format.decode(bytes))
        } catch {
            let how = dialect == nil ? "its shape shows \(chosen.displayName)" : "--format \(chosen.rawValue)"
            throw CLIFailure.problem("\(path) cannot be read as \(chosen.displayName) (\(how)): \(error)")
        }
    }

    private static var currentFolder: String { FileManager.default.currentDirectoryPath }
}

/// A config that is not JSON: the byte, line and column where it breaks, and why.
struct SyntaxError: Sendable, CustomStringConvertible {
    /// The file's path as given.
    var source: String
    /// The byte offset of the problem.
    var offset: Int
    /// The line of ``offset``, from 1.
    var line: Int
    /// The column of ``offset``, from 1.
    var column: Int
    /// The parser's reason.
    var reason: String

    init(source: String, error: JSONParseError, bytes: Data) {
        self.source = source
        offset = error.offset
        let position = Formatting.lineAndColumn(of: error.offset, in: bytes)
        line = position.line
        column = position.column
        reason = error.reason.description
    }

    /// `config.json is not valid JSON at byte 57 (line 3, column 12): unexpected character '}'`.
    var description: String { "\(source) is not valid JSON at byte \(offset) (line \(line), column \(column)): \(reason)" }
}

/// Recognises a URL given where a file path is expected.
enum URLScheme {
    /// The scheme of `text` when it is a URL (`https`, `http`, `file`, …), else nil.
    static func of(_ text: String) -> String? {
        guard let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound]
        guard let first = scheme.first, first.isLetter,
            scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) })
        else { return nil }
        return scheme.lowercased()
    }
}
