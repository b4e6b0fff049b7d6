import Foundation

/// Values shipped inside the app (a JSON or property-list file): what a first launch shows before
/// any fetch, chosen by the product team rather than the key's own default.
///
/// A client reads them under every remote snapshot and over each key's own default; each value
/// still passes the key's rules, and `explain` names the file. `DefaultsAdapter` reads them from
/// a file (`BundledDefaults(contentsOf:)`) or from a `Settings.bundle`.
///
/// ```json
/// { "new_checkout": false, "max_retries": 5 }
/// ```
public struct BundledDefaults: Sendable, Hashable {
    /// The values by key name.
    public var values: [String: ConfigValue]
    /// Where they came from, for provenance: a file name such as `defaults.plist`.
    public var source: String

    /// Creates bundled defaults from values.
    public init(values: [String: ConfigValue], source: String) {
        self.values = values
        self.source = source
    }

    /// Decodes a JSON object, or a property list whose top level is a dictionary (XML or binary).
    ///
    /// - Throws: `PayloadError` (format `json` or `plist`) saying where and why the bytes do not decode.
    public init(decoding bytes: Data, source: String) throws(PayloadError) {
        guard Self.isPropertyList(bytes) else {
            let members = try JSONParser().parseObject(
                bytes, format: "json", requirement: "the top level must be an object of keys to values")
            self.init(values: members, source: source)
            return
        }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: bytes, format: nil)
        } catch {
            throw PayloadError(format: "plist", reason: "not a readable property list (\(error.localizedDescription))")
        }
        guard let dictionary = object as? [String: Any] else {
            throw PayloadError(
                format: "plist", reason: "the top level must be a dictionary of keys to values, found \(type(of: object))")
        }
        var values: [String: ConfigValue] = [:]
        for (key, member) in dictionary {
            do throws(ConversionError) {
                values[key] = try ConfigValue(propertyList: member)
            } catch {
                throw PayloadError(format: "plist", reason: error.reason, path: key)
            }
        }
        self.init(values: values, source: source)
    }

    /// Whether `bytes` look like a property list: binary (`bplist`) or XML with a `<plist` element.
    public static func isPropertyList(_ bytes: Data) -> Bool {
        if bytes.starts(with: Array("bplist".utf8)) { return true }
        guard let head = String(data: bytes.prefix(512), encoding: .utf8) else { return false }
        return head.contains("<plist") || head.hasPrefix("<?xml")
    }
}
