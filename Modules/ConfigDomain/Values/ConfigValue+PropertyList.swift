import Foundation

/// Property-list objects (what `UserDefaults` and `PropertyListSerialization` hold) to and from values.
///
/// A property list has no `null` and blurs Booleans and numbers into `NSNumber`; this conversion
/// keeps them apart, so `true`, `1` and `1.0` stay three different values. Dates and data have no
/// JSON form and are refused.
extension ConfigValue {
    /// Converts a property-list object: a Boolean, a number, a string, an array or a dictionary of them.
    ///
    /// - Throws: `ConversionError` for a date, data, a dictionary with a non-string key, or any other object.
    public init(propertyList object: Any) throws(ConversionError) {
        if type(of: object) == Bool.self, let bool = object as? Bool {
            self = .bool(bool)
        } else if let int = object as? Int, type(of: object) == Int.self {
            self = .int(Int64(int))
        } else if let double = object as? Double, type(of: object) == Double.self {
            self = .double(double)
        } else if let string = object as? String {
            self = .string(string)
        } else if let number = object as? NSNumber {
            self = Self.number(number)
        } else if let dictionary = object as? [String: Any?] {
            var members: [String: ConfigValue] = [:]
            for (key, member) in dictionary { members[key] = try Self.element(member, at: key) }
            self = .object(members)
        } else if let items = object as? [Any?] {
            var elements: [ConfigValue] = []
            for (index, item) in items.enumerated() { elements.append(try Self.element(item, at: "[\(index)]")) }
            self = .array(elements)
        } else {
            throw ConversionError(
                expectedType: "configuration value", found: String(describing: type(of: object)),
                reason:
                    "a property list \(Self.kindName(of: object)) has no JSON form; use a Boolean, number, string, array or dictionary"
            )
        }
    }

    /// The value as a property-list object (`Bool`, `Int`, `Double`, `String`, `[Any]`, `[String: Any]`).
    ///
    /// - Throws: `ConversionError` when the value is or holds `null`, which a property list cannot hold.
    public func propertyList() throws(ConversionError) -> Any {
        switch self {
        case .null:
            throw ConversionError(
                expectedType: "property list", found: "null", reason: "a property list cannot hold null; remove the value instead"
            )
        case .bool(let bool): return bool
        case .int(let int): return Int(truncatingIfNeeded: int)
        case .double(let double): return double
        case .string(let string): return string
        case .array(let items):
            var objects: [Any] = []
            for item in items { objects.append(try item.propertyList()) }
            return objects
        case .object(let members):
            var objects: [String: Any] = [:]
            for (key, member) in members { objects[key] = try member.propertyList() }
            return objects
        }
    }

    /// An element of an array or dictionary; a missing one (`nil` or `NSNull`) is `null`.
    private static func element(_ object: Any?, at path: String) throws(ConversionError) -> ConfigValue {
        guard let object, !(object is NSNull) else { return .null }
        do throws(ConversionError) {
            return try ConfigValue(propertyList: object)
        } catch {
            throw ConversionError(expectedType: error.expectedType, found: error.found, reason: "at \(path): \(error.reason)")
        }
    }

    /// An `NSNumber` as a Boolean (its type is `c` or `B`), an integer, or a double.
    private static func number(_ number: NSNumber) -> ConfigValue {
        switch String(cString: number.objCType) {
        case "c", "B": .bool(number.boolValue)
        case "f", "d": .double(number.doubleValue)
        default: .int(number.int64Value)
        }
    }

    /// `date`, `data` or `object`, for messages.
    private static func kindName(of object: Any) -> String {
        switch object {
        case is Date: "date"
        case is Data: "data"
        default: "\(type(of: object))"
        }
    }
}
