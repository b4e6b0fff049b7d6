import ConfigDomain
import Foundation

/// A payload format for any vendor's JSON: parses the bytes strictly, then hands the document to
/// your closure, which returns the values by key.
///
/// ```swift
/// let vendor = MappedFormat(name: "acme-flags") { document throws(PayloadError) in
///     guard let flags = document["flags"]?.arrayValue else {
///         throw PayloadError(format: "acme-flags", reason: "expected a \"flags\" array", path: "flags")
///     }
///     var values: [String: ConfigValue] = [:]
///     for flag in flags {
///         if let key = flag["key"]?.stringValue, let value = flag["value"] { values[key] = value }
///     }
///     return values
/// }
/// ```
///
/// Bytes that are not JSON fail with a `PayloadError` carrying the parser's reason and byte
/// offset, under this format's ``name``; errors your closure throws pass through unchanged.
public struct MappedFormat: PayloadFormat {
    /// The format's name, used in messages.
    public let name: String
    /// The parser used, with its depth limit.
    public let parser: JSONParser
    private let map: @Sendable (ConfigValue) throws(PayloadError) -> [String: ConfigValue]

    /// Creates a format named `name` that maps the parsed JSON document with `map`.
    public init(
        name: String, parser: JSONParser = JSONParser(),
        map: @escaping @Sendable (ConfigValue) throws(PayloadError) -> [String: ConfigValue]
    ) {
        self.name = name
        self.parser = parser
        self.map = map
    }

    /// Parses `bytes` as JSON and maps the document.
    public func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
        let document = try parser.parse(bytes, format: name)
        return DecodedPayload(values: try map(document))
    }
}
