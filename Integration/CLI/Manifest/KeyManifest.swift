import ConfigDomain
import Foundation

/// A JSON file declaring typed keys, so the tool converts and validates values exactly as an app would.
///
/// ```json
/// {
///   "keys": [
///     { "name": "new_checkout", "type": "bool", "default": false, "summary": "The redesigned checkout." },
///     { "name": "max_retries", "type": "int", "default": 3, "rules": { "range": [0, 10] } },
///     { "name": "api_token", "type": "string", "default": "", "secret": true, "rules": { "pattern": "[a-z0-9]*" } }
///   ]
/// }
/// ```
///
/// Each key has a `name`, a `type` (see ``ManifestValueType``), a `default` that must have that
/// type and pass the rules, and optionally `rules`, `secret` and `summary`. Unknown fields are
/// refused with a hint, so a typo never silently drops a rule. See `Integration/CLI/README.md`.
struct KeyManifest: Sendable {
    /// The manifest's path as given.
    var source: String
    /// The keys, in the order declared.
    var keys: [ManifestKey]

    /// The key named `name`, if declared.
    func key(named name: String) -> ManifestKey? { keys.first { $0.name == name } }

    /// Reads and parses the manifest at `path`.
    static func load(path: String) throws(ManifestError) -> KeyManifest {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ManifestError(
                source: path, location: nil,
                message: "cannot read the key manifest (\(FileProblem.describe(error))); pass the path of a JSON key manifest")
        }
        return try parse(data, source: path)
    }

    /// Parses manifest bytes; `source` names the file in messages.
    static func parse(_ data: Data, source: String) throws(ManifestError) -> KeyManifest {
        let root: ConfigValue
        do throws(JSONParseError) {
            root = try JSONParser().parse(data)
        } catch {
            let position = Formatting.lineAndColumn(of: error.offset, in: data)
            throw ManifestError(
                source: source, location: nil,
                message:
                    "not valid JSON at byte \(error.offset) (line \(position.line), column \(position.column)): \(error.reason)")
        }
        guard case .object(let members) = root else {
            throw ManifestError(
                source: source, location: nil,
                message: "the manifest must be a JSON object with a \"keys\" array, found a JSON \(root.kind)")
        }
        try refuseUnknownFields(members, allowed: ["keys", "description"], source: source, location: nil)
        guard let keysValue = members["keys"] else {
            throw ManifestError(
                source: source, location: nil,
                message: "the manifest has no \"keys\" array; add \"keys\": [ { \"name\": …, \"type\": …, \"default\": … } ]")
        }
        guard case .array(let entries) = keysValue else {
            throw ManifestError(
                source: source, location: nil, message: "\"keys\" must be an array, found a JSON \(keysValue.kind)")
        }
        var keys: [ManifestKey] = []
        var firstIndex: [String: Int] = [:]
        for (index, entry) in entries.enumerated() {
            let key = try ManifestKeyParser(source: source, index: index).parse(entry)
            if let first = firstIndex[key.name] {
                throw ManifestError(
                    source: source, location: "keys[\(index)] \"\(key.name)\"",
                    message: "the name is already declared at keys[\(first)]; declare each key once")
            }
            firstIndex[key.name] = index
            keys.append(key)
        }
        return KeyManifest(source: source, keys: keys)
    }

    /// Throws when `members` holds a field not in `allowed`, suggesting the closest allowed one.
    static func refuseUnknownFields(
        _ members: [String: ConfigValue], allowed: [String], source: String, location: String?
    ) throws(ManifestError) {
        for field in members.keys.sorted() where !allowed.contains(field) {
            var message = "unknown field \"\(field)\""
            if let hint = NameSimilarity.closest(to: field, among: allowed) { message += "; did you mean \"\(hint)\"?" }
            message += " (allowed: \(allowed.joined(separator: ", ")))"
            throw ManifestError(source: source, location: location, message: message)
        }
    }
}

/// Why a file could not be read, in a few words.
enum FileProblem {
    /// `no such file`, `permission denied`, `is a directory`, or the system's words.
    static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain {
            switch nsError.code {
            case NSFileReadNoSuchFileError, NSFileNoSuchFileError: return "no such file"
            case NSFileReadNoPermissionError: return "permission denied"
            default: break
            }
        }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code))).lowercased()
        }
        return nsError.localizedDescription
    }
}
