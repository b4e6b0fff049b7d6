import ConfigDomain
import Foundation
import RemoteConfig

/// One key declared in a manifest: its name, type, default, rules, and the typed ``ConfigKey`` built from them.
struct ManifestKey: Sendable {
    /// The key's name in payloads.
    var name: String
    /// The declared type.
    var type: ManifestValueType
    /// Whether values are redacted in every message.
    var isSecret: Bool
    /// The one-line description, if any.
    var summary: String?
    /// The typed key the app would register.
    var typed: any ManifestTypedKey

    /// The rules' names, for example `range(0...10)`.
    var ruleNames: [String] { typed.descriptor.ruleNames }

    /// The default rendered as JSON text (redacted for secret keys).
    var renderedDefault: String {
        isSecret ? Rejection.redacted : (typed.descriptor.defaultValue?.jsonText() ?? "null")
    }
}

/// A ``ConfigKey`` of some value type, seen through what the tool needs from it.
protocol ManifestTypedKey: Sendable {
    /// The key, for `register(_:)`.
    var representable: any ConfigKeyRepresentable { get }
    /// Name, type, default and rule names.
    var descriptor: KeyDescriptor { get }
    /// Converts `value` and runs every rule, exactly as the client does: nil when accepted.
    func rejection(of value: ConfigValue, origin: String?) -> Rejection?
    /// The client's details of this key's current value, the value rendered for a person (redacted when secret).
    func explain(in client: RemoteConfigClient) -> EvaluationDetails<String>
}

/// The ``ManifestTypedKey`` of a ``ConfigKey`` with value type `Value`.
struct TypedManifestKey<Value: Sendable>: ManifestTypedKey {
    /// The key.
    let key: ConfigKey<Value>

    var representable: any ConfigKeyRepresentable { key }
    var descriptor: KeyDescriptor { key.descriptor }

    func rejection(of value: ConfigValue, origin: String?) -> Rejection? {
        if case .failure(let rejection) = key.resolve(value, origin: origin) { return rejection }
        return nil
    }

    func explain(in client: RemoteConfigClient) -> EvaluationDetails<String> {
        let details = client.details(key)
        return details.with(value: key.render(details.value))
    }
}

extension ValueConverter where Value == ConfigValue {
    /// Takes any JSON value as it is; override text must be JSON.
    static var anyJSON: ValueConverter<ConfigValue> {
        ValueConverter(
            typeName: "JSON",
            fromValue: { (value: ConfigValue) throws(ConversionError) -> ConfigValue in value },
            fromText: { (text: String) throws(ConversionError) -> ConfigValue in
                do throws(JSONParseError) {
                    return try JSONParser().parse(Data(text.utf8))
                } catch {
                    throw ConversionError(expectedType: "JSON", found: text, reason: "not valid JSON text: \(error)")
                }
            },
            toValue: { $0 }, isEqual: { $0 == $1 })
    }
}
