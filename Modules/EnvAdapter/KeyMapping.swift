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
/// Letters of any script are kept (upper-cased); portable variable names use ASCII only.
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

    /// Splits `name` into words by the rules documented on ``KeyMapping``.
    static func words(of name: String) -> [String] {
        var words: [String] = []
        var current: [Character] = []
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            guard character.isLetter || character.isNumber else {
                if !current.isEmpty {
                    words.append(String(current))
                    current = []
                }
                continue
            }
            if character.isUppercase, let previous = current.last {
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                let afterLowerOrDigit = previous.isLowercase || previous.isNumber
                let endsAcronym = previous.isUppercase && (next?.isLowercase ?? false)
                if afterLowerOrDigit || endsAcronym {
                    words.append(String(current))
                    current = []
                }
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }

    private static func standardVariableName(for name: String) -> String {
        words(of: name).map { $0.uppercased() }.joined(separator: "_")
    }
}
