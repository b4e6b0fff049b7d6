/// Turns a key name (`new_checkout`) into the variable name that overrides it (`NEW_CHECKOUT`).
///
/// The ``standard`` mapping splits the name into words, upper-cases them and joins them with `_`:
/// - every character that is not a letter, a digit or an accent separates words (`api.base-url` → `API_BASE_URL`);
/// - an uppercase letter starts a word after a lowercase letter or a digit (`retry2Count` → `RETRY2_COUNT`),
///   and after an uppercase letter when a lowercase one follows (`HTTPTimeout` → `HTTP_TIMEOUT`);
/// - digits stay with what comes before them (`oauth2_token` → `OAUTH2_TOKEN`).
///
/// Two keys can map to one name (`newCheckout` and `new_checkout`); ``VariableIndex`` reports that.
public struct KeyMapping: Sendable {
    private let transform: @Sendable (String) -> String

    /// Words split at separators and case changes, upper-cased and joined with `_`.
    public static let standard = KeyMapping(transform: standardName)

    /// A mapping of your own, for example `KeyMapping.custom { $0.uppercased() }`.
    public static func custom(_ transform: @escaping @Sendable (String) -> String) -> KeyMapping {
        KeyMapping(transform: transform)
    }

    /// The variable name (without any prefix) for a key name.
    public func variableName(for keyName: String) -> String {
        transform(keyName)
    }

    /// The variable name (without any prefix) for a key name.
    public func callAsFunction(_ keyName: String) -> String {
        transform(keyName)
    }

    private static func standardName(_ name: String) -> String {
        let scalars = Array(name.unicodeScalars)
        var words = [""]
        for (i, scalar) in scalars.enumerated() {
            let properties = scalar.properties
            let isAccent = [.nonspacingMark, .spacingMark, .enclosingMark].contains(properties.generalCategory)
            guard properties.isAlphabetic || properties.numericType != nil || isAccent else {
                words.append("")
                continue
            }
            if i > 0, properties.isUppercase {
                let previous = scalars[i - 1].properties
                let nextIsLowercase = i + 1 < scalars.count && scalars[i + 1].properties.isLowercase
                if previous.isLowercase || previous.numericType != nil || (previous.isUppercase && nextIsLowercase) {
                    words.append("")
                }
            }
            words[words.count - 1] += properties.uppercaseMapping
        }
        return words.filter { !$0.isEmpty }.joined(separator: "_")
    }
}
