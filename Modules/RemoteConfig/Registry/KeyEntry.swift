import ConfigDomain
import Foundation

/// A registered key with its type erased: what the resolver needs to turn candidates into boxed values.
///
/// The typed work is the key's own ``ErasedKey``, made when the key was created (compiled for its
/// value type there), so registering a key copies a few references and resolving it calls
/// functions that are not generic. A class, so the resolver's walk over a thousand entries
/// shares them instead of copying each.
final class KeyEntry: Sendable {
    let name: String
    let identity: KeyIdentity
    let erased: ErasedKey

    init(_ key: any ConfigKeyRepresentable) {
        // `anyConfigKey` copies one reference: no copy of the generic key, no type metadata.
        let erased = key.anyConfigKey.erased
        self.name = erased.name
        self.identity = erased.identity
        self.erased = erased
    }

    /// The key's value type.
    var valueType: ObjectIdentifier { erased.valueType }
    /// The key's default, boxed.
    var defaultBox: any AnyObject & Sendable { erased.defaultBox }
    /// The default rendered as a ``ConfigValue`` (nil for types that cannot render).
    var defaultRaw: ConfigValue? { erased.defaultRaw }

    /// What override sources, the registry and tools see of the key (built when asked).
    var descriptor: KeyDescriptor { erased.descriptor }

    /// Problems with the key's rules themselves (an invalid pattern): rule name and problem.
    var ruleProblems: [(rule: String, problem: String)] { erased.ruleProblems }

    /// Converts and validates a parsed value into a box, or the rejection.
    func resolveValue(_ value: ConfigValue, origin: String) -> ErasedKey.Outcome { erased.resolveValue(value, origin: origin) }

    /// Coerces and validates override text into a box, or the rejection.
    func resolveText(_ text: String, origin: String) -> ErasedKey.Outcome { erased.resolveText(text, origin: origin) }

    /// Renders a box of this key's value for messages (redacted for secret keys).
    func render(_ box: AnyObject) -> String { erased.render(box) }
}
