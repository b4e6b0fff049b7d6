import ConfigDomain
import Foundation

/// One flag of a flagd flag definition, read and checked.
struct FlagdFlag: Sendable {
    /// The flag's key.
    let key: String
    /// `state: ENABLED` (a `DISABLED` flag serves nothing, with the reason `DISABLED`).
    let isEnabled: Bool
    /// The variants by name.
    let variants: [String: ConfigValue]
    /// The default variant's name; nil when `defaultVariant` is `null`, `""` or absent (the app's default applies).
    let defaultVariant: String?
    /// The targeting rule; nil when there is none (or it is `{}`).
    let targeting: Logic?

    /// The value of the variant named exactly `name` (code point by code point); nil when none is, or for
    /// the name `""`, which flagd never serves.
    func variant(named name: String) -> ConfigValue? {
        guard !name.isEmpty else { return nil }
        return LogicValues.member(variants, name)
    }

    /// The variants' names, sorted, for messages.
    var variantNames: String {
        variants.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
