import Foundation

/// Payload bytes that a `PayloadFormat` cannot turn into values, with where and why.
public struct PayloadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The format's name, for example `json` or `firebase-template`.
    public var format: String
    /// Why the payload does not decode.
    public var reason: String
    /// The byte offset of the problem, when known.
    public var offset: Int?
    /// The path inside the document, when known (for example `parameters.welcome.valueType`).
    public var path: String?
    /// Where the payload came from (a URL, a file, an etcd key), when known; the client fills it in.
    public var source: String?

    /// Creates a payload error.
    public init(format: String, reason: String, offset: Int? = nil, path: String? = nil, source: String? = nil) {
        self.format = format
        self.reason = reason
        self.offset = offset
        self.path = path
        self.source = source
    }

    /// The same error, naming `source` as where the payload came from.
    public func from(_ source: String) -> PayloadError {
        var copy = self
        copy.source = source
        return copy
    }

    /// Wraps a JSON parse failure.
    public init(format: String, parse error: JSONParseError) {
        self.init(format: format, reason: error.reason.description, offset: error.offset)
    }

    /// `invalid json payload from https://example.com/config.json at byte 12: …`.
    public var description: String {
        var text = "invalid \(format) payload"
        if let source { text += " from \(source)" }
        if let path { text += " at \(path)" }
        if let offset { text += " at byte \(offset)" }
        return text + ": \(reason)"
    }
}

extension JSONParser {
    /// Parses `bytes`, reporting a failure as a `PayloadError` of the payload format `format`.
    public func parse(_ bytes: Data, format: String) throws(PayloadError) -> ConfigValue {
        do throws(JSONParseError) {
            return try parse(bytes)
        } catch {
            throw PayloadError(format: format, parse: error)
        }
    }

    /// Parses `bytes` as a JSON object and returns its members. Throws a `PayloadError` of the payload
    /// format `format` when the bytes are not JSON, or when the top level is another JSON value: its
    /// reason is `requirement`, then `, found a JSON array` (or whatever was found).
    public func parseObject(
        _ bytes: Data, format: String, requirement: String = "the top level must be a JSON object"
    ) throws(PayloadError) -> [String: ConfigValue] {
        let document = try parse(bytes, format: format)
        guard case .object(let members) = document else {
            throw PayloadError(format: format, reason: "\(requirement), found a JSON \(document.kind)", offset: 0)
        }
        return members
    }
}
