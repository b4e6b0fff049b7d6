import Foundation

/// The value types a key manifest can declare, by the names written in the manifest.
enum ManifestValueType: String, CaseIterable, Sendable {
    /// `true` or `false` (Swift `Bool`).
    case bool
    /// A whole number (Swift `Int`).
    case int
    /// A number (Swift `Double`).
    case double
    /// A string (Swift `String`).
    case string
    /// An absolute URL written as a string (Swift `URL`).
    case url
    /// An array of strings (Swift `[String]`).
    case stringArray = "string-array"
    /// An array of whole numbers (Swift `[Int]`).
    case intArray = "int-array"
    /// Any JSON value, taken as it is (objects, arrays, null).
    case json

    /// The rules a key of this type may have, as written in a manifest.
    var allowedRules: [String] {
        switch self {
        case .bool, .json: []
        case .int, .double: ["range", "min", "max", "oneOf"]
        case .string: ["oneOf", "nonEmpty", "pattern", "length"]
        case .url: ["oneOf", "pattern"]
        case .stringArray, .intArray: ["nonEmpty", "length"]
        }
    }

    /// Every type name, for messages: `bool, int, double, …`.
    static var list: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
