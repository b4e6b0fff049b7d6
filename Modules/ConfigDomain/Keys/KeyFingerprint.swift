import Foundation

/// A key's fingerprint: a hash of its name and a hash of its name and definition, each with its own
/// seed, 128 bits in all.
///
/// The first hash, ``hash``, is the name's alone: it places the key in a registry's table, so every
/// key of one name lands in the same place. The second, ``check``, confirms a table hit and also
/// covers the key's definition, what ``KeyDescriptor`` compares but the type: the default rendered
/// as a ``ConfigValue`` (or a marker when it cannot render), the names of its rules in order, its
/// secrecy and its summary. The type is not in it; a client checks a key's type on its own.
///
/// A `Decodable` key's default is not rendered: that runs an encoder, which creating a key, and so a
/// launch, avoids (`DecodableKeyRawTests`). It is hashed as the value itself when its type is
/// `Hashable`, else left out.
///
/// Two keys with the same name and definition have the same fingerprint, wherever they were created.
/// Two keys with the same name and another default or rule set share ``hash`` but not ``check``, so a
/// read through one never finds the other's slot; two different keys share a fingerprint only by a
/// 2^-128 chance, and a client refuses to register two names that do. A read compares fingerprints,
/// two machine words, instead of names (see "The read path" in `Integration/Benchmarks/README.md`).
///
/// What the fingerprint cannot see: functions cannot be compared, so the converter is not in it (an
/// enum or `Decodable` key makes a converter of its own, and two identical declarations must match),
/// and a rule counts by its name only. Two keys of one type with the same name, default and rule
/// names but another converter or another rule behind the same name cannot be told apart; neither
/// can two defaults of a `Decodable` type that is not `Hashable`, nor two that its `==` calls equal.
@usableFromInline
package struct KeyFingerprint: Sendable, Hashable {
    /// The hash of the name alone, which places the key in a registry's table.
    @usableFromInline package let hash: Int
    /// The hash of the name and the definition, which confirms a table hit.
    @usableFromInline package let check: Int

    /// The fingerprint of a key named `name`, with `defaultValue` rendered by `converter`, `rules`,
    /// secrecy and `summary`: computed once, when the key is created.
    @usableFromInline
    package init<Value>(
        name: String, defaultValue: Value, converter: ValueConverter<Value>, rules: [ValidationRule<Value>],
        isSecret: Bool, summary: String?
    ) {
        hash = Self.hash(of: name)
        var hasher = Hasher()
        hasher.combine(0x9E37_79B9_7F4A_7C15 as UInt64)
        hasher.combine(name)
        if !converter.rendersByEncoding {
            hasher.combine(0 as UInt8)
            // `Optional` hashes a marker of its own for a default that does not render.
            hasher.combine(converter.toValue(defaultValue))
        } else if let hashable = defaultValue as? any Hashable {
            hasher.combine(1 as UInt8)
            hasher.combine(hashable)
        } else {
            hasher.combine(2 as UInt8)
        }
        hasher.combine(rules.count)
        for rule in rules { hasher.combine(rule.name) }
        hasher.combine(isSecret)
        hasher.combine(summary)
        check = hasher.finalize()
    }

    /// The table hash of `name`: the ``hash`` of every key so named, for a lookup by name alone.
    package static func hash(of name: String) -> Int { name.hashValue }
}
