import ConfigDomain
import Foundation

/// ConfigCat's User Object, read from an evaluation context:
///
/// - the targeting key is `Identifier`;
/// - the attributes `email` and `country` are `Email` and `Country`;
/// - every other attribute is a custom attribute of the same name (one named `Identifier`, `Email` or
///   `Country` is hidden by the predefined attribute, as in ConfigCat's SDKs).
///
/// A context with neither a targeting key nor attributes is no User Object at all: conditions then
/// cannot be evaluated and percentage options are skipped, as when an SDK is given no user.
struct ConfigCatUser: Sendable {
    let context: EvaluationContext

    /// The User Object of `context`, or nil for an empty context.
    init?(_ context: EvaluationContext) {
        guard context.targetingKey != nil || !context.attributes.isEmpty else { return nil }
        self.context = context
    }

    /// What percentage options hash without an attribute of their own: the identifier, or `""` without one.
    var identifier: String { context.targetingKey ?? "" }

    /// The attribute `name` of the User Object; nil when the context has none (`null` counts as none).
    /// `Identifier` is the identifier, `""` without one, as ConfigCat's reference SDK reads it.
    func attribute(_ name: String) -> ConfigValue? {
        let value: ConfigValue? =
            switch name {
            case "Identifier": .string(identifier)
            case "Email": context.attributes["email"]
            case "Country": context.attributes["country"]
            case "email", "country": nil
            default: context.attributes[name]
            }
        guard let value, !value.isNull else { return nil }
        return value
    }

    /// The name under which a context holds the User Object's attribute `name`: `targetingKey` for
    /// `Identifier`, `email` and `country` for `Email` and `Country`, a custom attribute's own name.
    static func contextName(of name: String) -> String {
        switch name {
        case "Identifier": EvaluationContext.targetingKeyAttribute
        case "Email": "email"
        case "Country": "country"
        default: name
        }
    }
}
