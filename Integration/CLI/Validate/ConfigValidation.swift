import ConfigDomain
import ConfigPorts
import Foundation

/// A config file checked against a key manifest with the app's own conversion and rules.
///
/// The payload is decoded with ``PlainJSONFormat`` (the client's default format), or, for a
/// property list (a bundled defaults file), as `BundledDefaults` decodes it; each declared key's
/// value goes through the same `ConfigKey.resolve` the client runs at activation, so a value this
/// accepts is a value the app accepts.
struct ConfigValidation: Sendable {
    /// A key in the config that the manifest does not declare.
    struct Undeclared: Sendable {
        /// The key's name in the config.
        var key: String
        /// Its value as JSON text.
        var value: String
        /// A declared key with a close name, if any.
        var suggestion: String?
    }

    /// Values the app would reject, one per key, in manifest order.
    var problems: [Rejection]
    /// Keys the manifest does not declare (the app ignores them).
    var undeclared: [Undeclared]
    /// Declared keys absent from the config (the app uses their defaults).
    var missing: [ManifestKey]
    /// Declared keys whose values were accepted.
    var accepted: [String]
    /// How many keys the config holds.
    var configKeyCount: Int

    /// Whether nothing would be rejected.
    var isValid: Bool { problems.isEmpty }

    /// Checks `bytes` (named `source` in messages) against `manifest`.
    static func check(_ bytes: Data, source: String, manifest: KeyManifest) throws(ConfigFileError) -> ConfigValidation {
        let values: [String: ConfigValue]
        do throws(PayloadError) {
            if BundledDefaults.isPropertyList(bytes) {
                values = try BundledDefaults(decoding: bytes, source: source).values
            } else {
                values = try PlainJSONFormat().decode(bytes).values
            }
        } catch {
            throw ConfigFileError(source: source, error: error, bytes: bytes)
        }
        var problems: [Rejection] = []
        var missing: [ManifestKey] = []
        var accepted: [String] = []
        for key in manifest.keys {
            guard let value = values[key.name] else {
                missing.append(key)
                continue
            }
            if let rejection = key.typed.rejection(of: value, origin: source) {
                problems.append(rejection)
            } else {
                accepted.append(key.name)
            }
        }
        let declared = manifest.keys.map(\.name)
        let missingNames = missing.map(\.name)
        var undeclared: [Undeclared] = []
        for name in values.keys.sorted() where manifest.key(named: name) == nil {
            let suggestion =
                NameSimilarity.closest(to: name, among: missingNames) ?? NameSimilarity.closest(to: name, among: declared)
            undeclared.append(
                Undeclared(key: name, value: values[name]?.jsonText() ?? "null", suggestion: suggestion))
        }
        return ConfigValidation(
            problems: problems, undeclared: undeclared, missing: missing, accepted: accepted, configKeyCount: values.count)
    }
}

/// A config file that is not a JSON object of keys: where and why, with line and column.
struct ConfigFileError: Error, Sendable, CustomStringConvertible {
    /// The file's path as given.
    var source: String
    /// The byte offset of the problem, when known.
    var offset: Int?
    /// Line and column of ``offset``.
    var line: Int?
    var column: Int?
    /// The parser's reason.
    var reason: String

    init(source: String, error: PayloadError, bytes: Data) {
        self.source = source
        self.offset = error.offset
        self.reason = error.reason
        if let offset = error.offset {
            let position = Formatting.lineAndColumn(of: offset, in: bytes)
            line = position.line
            column = position.column
        }
    }

    /// `config.json is not valid JSON at byte 57 (line 3, column 12): unexpected character '}'`.
    var description: String {
        guard let offset else { return "\(source) is not a valid config: \(reason)" }
        var position = ""
        if let line, let column { position = " (line \(line), column \(column))" }
        return "\(source) is not a valid config at byte \(offset)\(position): \(reason)"
    }
}
