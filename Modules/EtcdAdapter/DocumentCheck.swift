import ConfigDomain
import Foundation

/// Whether bytes are a configuration document: a JSON object of config keys to values.
enum DocumentCheck {
    /// Why `bytes` are not a JSON object (`it is not valid JSON at byte 3: …`), or `nil` when they are.
    static func problem(in bytes: Data) -> String? {
        do throws(JSONParseError) {
            let value = try JSONParser().parse(bytes)
            if case .object = value { return nil }
            return "it is a JSON \(value.kind), not an object of config keys"
        } catch {
            return "it is not valid JSON at byte \(error.offset): \(error.reason)"
        }
    }
}
