import ConfigDomain
import Foundation

/// The default payload format: a JSON object whose top-level members are the configuration keys.
///
/// ```json
/// { "new_checkout": true, "max_retries": 3, "banner": { "title": "Hi" } }
/// ```
///
/// With ``Flattening/dottedPaths`` nested objects also become dotted keys: `banner.title`.
public struct PlainJSONFormat: PayloadFormat {
    /// Whether nested objects are also exposed under dotted keys.
    public enum Flattening: Sendable, Hashable {
        /// Top-level members only; nested objects are object values.
        case none
        /// Also expose every nested member as `parent.child` (objects stay readable whole).
        case dottedPaths
    }

    /// How nested objects are exposed.
    public var flattening: Flattening
    /// The parser used, with its depth limit.
    public var parser: JSONParser

    /// Creates the format.
    public init(flattening: Flattening = .none, parser: JSONParser = JSONParser()) {
        self.flattening = flattening
        self.parser = parser
    }

    /// `json` or `json-dotted`.
    public var name: String { flattening == .none ? "json" : "json-dotted" }

    /// Parses the bytes; the top level must be an object.
    public func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
        let members = try parser.parseObject(
            bytes, format: name, requirement: "the top level must be a JSON object of keys to values")
        guard flattening == .dottedPaths else { return DecodedPayload(values: members) }
        var flat = members
        func walk(_ prefix: String, _ object: [String: ConfigValue]) {
            for (key, child) in object {
                let path = prefix + "." + key
                if flat[path] == nil { flat[path] = child }
                if case .object(let nested) = child { walk(path, nested) }
            }
        }
        for (key, child) in members {
            if case .object(let nested) = child { walk(key, nested) }
        }
        return DecodedPayload(values: flat)
    }
}
