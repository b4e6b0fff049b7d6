import Foundation

/// Turns a key name (`new_checkout`) into the variable name that overrides it (`NEW_CHECKOUT`).
///
/// The ``standard`` mapping, precisely:
/// 1. Every character that is neither a letter nor a digit (`.`, `-`, `_`, a space, `/`, …)
///    separates words and is dropped. Runs of separators count as one; leading and trailing
///    separators vanish.
/// 2. Inside a run of letters and digits, a new word starts at an uppercase letter that follows
///    a lowercase letter or a digit (`newCheckout` → `new Checkout`, `retry2Count` → `retry2 Count`),
///    and at an uppercase letter that follows an uppercase letter and comes before a lowercase one
///    (`HTTPTimeout` → `HTTP Timeout`).
/// 3. Digits never start a word: they stay with what comes before them
///    (`oauth2_token` → `OAUTH2_TOKEN`, `ipv6Enabled` → `IPV6_ENABLED`).
/// 4. The words are upper-cased and joined with `_`.
///
/// | key              | variable       |
/// |------------------|----------------|
/// | `new_checkout`   | `NEW_CHECKOUT` |
/// | `newCheckout`    | `NEW_CHECKOUT` |
/// | `api.base-url`   | `API_BASE_URL` |
/// | `HTTPTimeout`    | `HTTP_TIMEOUT` |
/// | `retry2Count`    | `RETRY2_COUNT` |
///
/// Letters of any script are kept, upper-cased, with their combining accents (`straße` → `STRASSE`);
/// portable variable names use ASCII only.
///
/// The mapping is not one-to-one (`newCheckout` and `new_checkout` both give `NEW_CHECKOUT`), so it
/// is reversed against the keys an app registered, with ``VariableIndex``: a variable name maps
/// back to exactly one registered key, and two registered keys that map to the same name are
/// reported as a problem instead of one of them silently winning.
public struct KeyMapping: Sendable {
    private let transform: @Sendable (String) -> String

    private init(_ transform: @escaping @Sendable (String) -> String) {
        self.transform = transform
    }

    /// The mapping documented on ``KeyMapping``: words split at separators and case changes, upper-cased, joined with `_`.
    public static let standard = KeyMapping { name in standardVariableName(for: name) }

    /// A mapping of your own, for example `KeyMapping.custom { $0.uppercased() }`.
    ///
    /// A custom mapping may map two registered keys to one name; ``VariableIndex`` reports it.
    public static func custom(_ transform: @escaping @Sendable (String) -> String) -> KeyMapping {
        KeyMapping(transform)
    }

    /// The variable name (without any prefix) for a key name.
    public func variableName(for keyName: String) -> String {
        transform(keyName)
    }

    /// The variable name (without any prefix) for a key name.
    public func callAsFunction(_ keyName: String) -> String {
        transform(keyName)
    }

    /// Applies the rules documented on ``KeyMapping`` in one pass over the scalars.
    private static func standardVariableName(for name: String) -> String {
        var result = String.UnicodeScalarView()
        var previous: Unicode.Scalar?  // The previous scalar of the current word, if any.
        var pendingSeparator = false
        var iterator = name.unicodeScalars.makeIterator()
        var next = iterator.next()
        while let scalar = next {
            next = iterator.next()
            guard isLetterOrDigit(scalar) else {
                if previous != nil { pendingSeparator = true }
                previous = nil
                continue
            }
            if let previous, isUppercase(scalar) {
                let nextIsLowercase = next.map(isLowercase) ?? false
                if isLowercase(previous) || isDigit(previous) || (isUppercase(previous) && nextIsLowercase) {
                    pendingSeparator = true
                }
            }
            if pendingSeparator, !result.isEmpty { result.append("_") }
            pendingSeparator = false
            if scalar.isASCII {
                result.append(isLowercase(scalar) ? Unicode.Scalar(UInt8(scalar.value - 0x20)) : scalar)
            } else {
                result.append(contentsOf: scalar.properties.uppercaseMapping.unicodeScalars)
            }
            previous = scalar
        }
        return String(result)
    }

    // ASCII answers directly; other scalars ask their Unicode properties.
    private static func isUppercase(_ s: Unicode.Scalar) -> Bool {
        s.isASCII ? (s.value >= 0x41 && s.value <= 0x5A) : s.properties.isUppercase
    }

    private static func isLowercase(_ s: Unicode.Scalar) -> Bool {
        s.isASCII ? (s.value >= 0x61 && s.value <= 0x7A) : s.properties.isLowercase
    }

    private static func isDigit(_ s: Unicode.Scalar) -> Bool {
        s.isASCII ? (s.value >= 0x30 && s.value <= 0x39) : s.properties.numericType != nil
    }

    private static func isLetterOrDigit(_ s: Unicode.Scalar) -> Bool {
        if s.isASCII { return isUppercase(s) || isLowercase(s) || isDigit(s) }
        switch s.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true  // Accents stay with their letter.
        default: return s.properties.isAlphabetic || isDigit(s)
        }
    }

}
