import Foundation

/// A Swift type that a ``ConfigKey`` can hold, with strict conversion rules from ``ConfigValue``.
///
/// The rules, the same on every platform:
/// - `Bool` reads only `true`/`false`; `1` and `"true"` are not Booleans.
/// - `Int` reads integers that fit, and doubles only when integral and exact (`2.0` is `2`, `2.5` fails).
/// - `Double` reads doubles and integers (an integer beyond 2^53 rounds to the nearest double).
/// - `String` reads only strings: a string is never silently a number, nor a number a string.
/// - `URL` reads a string that parses as an absolute URL with a scheme.
/// - Arrays read arrays whose every element converts; the error names the first bad index.
///
/// Text from environment variables, launch arguments and `.env` files goes through
/// ``init(configText:)``, which is lenient where a person typing would expect it
/// (`yes`/`no`/`1`/`0` for `Bool`, JSON text for arrays).
public protocol ConfigValueConvertible: Sendable, Equatable {
    /// Converts a parsed value, or throws why it cannot.
    init(configValue: ConfigValue) throws(ConversionError)
    /// Coerces text typed by a person (environment, arguments), or throws why it cannot.
    init(configText: String) throws(ConversionError)
    /// The value as a ``ConfigValue``, used to render defaults and detect changes.
    var configValue: ConfigValue { get }
    /// The type's name in messages, for example `Bool` or `[String]`.
    static var configTypeName: String { get }
    /// The converter that keys of this type hold. The built-in types keep one in a `static let`, which
    /// all their keys share; the default makes a new one for each key.
    static var configConverter: ValueConverter<Self> { get }
}

extension ConfigValueConvertible {
    /// A new converter from this conformance, for each key.
    public static var configConverter: ValueConverter<Self> { .conforming() }

    /// Default text coercion: the text must be JSON for this type.
    public init(configText: String) throws(ConversionError) {
        let value: ConfigValue
        do throws(JSONParseError) {
            value = try JSONParser().parse(Data(configText.utf8))
        } catch {
            throw ConversionError(
                expectedType: Self.configTypeName, found: configText,
                reason: "not valid JSON text: \(error)")
        }
        try self.init(configValue: value)
    }
}

extension ConfigValue {
    /// What `payload` extracts from this value, or a conversion error saying it is not a `type`.
    func payload<T>(_ payload: (ConfigValue) -> T?, as type: String) throws(ConversionError) -> T {
        guard let value = payload(self) else { throw ConversionError(expected: type, value: self) }
        return value
    }
}

extension StringProtocol {
    /// Whether this is a decimal number as a person types it (`-1.5e3`, `.5`); `Double(_:)` also takes `nan` and `0x10`.
    var isDecimalNumber: Bool {
        allSatisfy { "0123456789+-.eE".contains($0) } && Double(self) != nil
    }
}

extension Bool: ConfigValueConvertible {
    /// Reads only `.bool`.
    public init(configValue: ConfigValue) throws(ConversionError) {
        self = try configValue.payload(\.boolValue, as: "Bool")
    }

    /// Accepts `true/false`, `yes/no`, `on/off` and `1/0`, in any letter case, around white space.
    public init(configText: String) throws(ConversionError) {
        switch configText.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() {
        case "true", "yes", "on", "1": self = true
        case "false", "no", "off", "0": self = false
        default:
            throw ConversionError(
                expectedType: "Bool", found: configText, reason: "use true/false, yes/no, on/off or 1/0")
        }
    }

    /// `.bool(self)`.
    public var configValue: ConfigValue { .bool(self) }
    /// `Bool`.
    public static var configTypeName: String { "Bool" }
    /// The one converter every `Bool` key shares.
    public static let configConverter = ValueConverter<Bool>.conforming()
}

extension Int: ConfigValueConvertible {
    /// Reads `.int` that fits, and `.double` only when integral and exact.
    public init(configValue: ConfigValue) throws(ConversionError) {
        switch configValue {
        case .int(let i):
            guard let v = Int(exactly: i) else {
                throw ConversionError(expectedType: "Int", found: String(i), reason: "out of range for Int on this platform")
            }
            self = v
        case .double(let d):
            guard let v = Int(exactly: d) else {
                throw ConversionError(
                    expectedType: "Int", found: configValue.jsonText(), reason: "not an integral number that fits in Int")
            }
            self = v
        default:
            throw ConversionError(expected: "Int", value: configValue)
        }
    }

    /// Accepts decimal whole-number text such as `42`, `-7`, `+5`, `2.0` or `1e3`, around white space.
    public init(configText: String) throws(ConversionError) {
        let text = configText.trimmingCharacters(in: .whitespacesAndNewlines)
        if let v = Int(text) {
            self = v
        } else if text.isDecimalNumber, let d = Double(text), let v = Int(exactly: d) {
            self = v
        } else {
            throw ConversionError(expectedType: "Int", found: configText, reason: "not a whole number that fits in Int")
        }
    }

    /// `.int(self)`.
    public var configValue: ConfigValue { .int(Int64(self)) }
    /// `Int`.
    public static var configTypeName: String { "Int" }
    /// The one converter every `Int` key shares.
    public static let configConverter = ValueConverter<Int>.conforming()
}

extension Double: ConfigValueConvertible {
    /// Reads `.double` and `.int`.
    public init(configValue: ConfigValue) throws(ConversionError) {
        self = try configValue.payload({ $0.doubleValue ?? $0.intValue.map(Double.init) }, as: "Double")
    }

    /// Accepts finite decimal number text such as `0.25`, `3` or `1e-3`, around white space.
    public init(configText: String) throws(ConversionError) {
        let text = configText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.isDecimalNumber, let d = Double(text), d.isFinite else {
            throw ConversionError(expectedType: "Double", found: configText, reason: "not a finite decimal number")
        }
        self = d
    }

    /// `.double(self)`.
    public var configValue: ConfigValue { .double(self) }
    /// `Double`.
    public static var configTypeName: String { "Double" }
    /// The one converter every `Double` key shares.
    public static let configConverter = ValueConverter<Double>.conforming()
}

extension String: ConfigValueConvertible {
    /// Reads only `.string`.
    public init(configValue: ConfigValue) throws(ConversionError) {
        self = try configValue.payload(\.stringValue, as: "String")
    }

    /// Takes the text as it is.
    public init(configText: String) throws(ConversionError) { self = configText }

    /// `.string(self)`.
    public var configValue: ConfigValue { .string(self) }
    /// `String`.
    public static var configTypeName: String { "String" }
    /// The one converter every `String` key shares.
    public static let configConverter = ValueConverter<String>.conforming()
}

extension URL: ConfigValueConvertible {
    /// Reads a `.string` that is an absolute URL with a scheme.
    public init(configValue: ConfigValue) throws(ConversionError) {
        try self.init(configText: configValue.payload(\.stringValue, as: "URL"))
    }

    /// Accepts an absolute URL with a scheme, such as `https://example.com/x`.
    public init(configText: String) throws(ConversionError) {
        guard let url = URL(string: configText), let scheme = url.scheme, !scheme.isEmpty else {
            throw ConversionError(expectedType: "URL", found: configText, reason: "not an absolute URL with a scheme")
        }
        self = url
    }

    /// `.string(absoluteString)`.
    public var configValue: ConfigValue { .string(absoluteString) }
    /// `URL`.
    public static var configTypeName: String { "URL" }
    /// The one converter every `URL` key shares.
    public static let configConverter = ValueConverter<URL>.conforming()
}

extension Array: ConfigValueConvertible where Element: ConfigValueConvertible {
    /// Reads an `.array` whose every element converts.
    public init(configValue: ConfigValue) throws(ConversionError) {
        self = []
        for (index, item) in try configValue.payload(\.arrayValue, as: Self.configTypeName).enumerated() {
            do throws(ConversionError) {
                append(try Element(configValue: item))
            } catch {
                throw ConversionError(
                    expectedType: Self.configTypeName, found: configValue.jsonText(),
                    reason: "element [\(index)]: \(error.reason)")
            }
        }
    }

    /// `.array` of the elements' values.
    public var configValue: ConfigValue { .array(map(\.configValue)) }
    /// `[Element]`.
    public static var configTypeName: String { "[\(Element.configTypeName)]" }
}
