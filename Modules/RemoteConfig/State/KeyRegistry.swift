import ConfigDomain
import ConfigPorts
import Foundation

/// What resolution and `explain` need from a key, in its `ValueBox` terms.
extension ConfigKey {
    /// The key's value type, to tell a key from another of the same name and another type.
    var valueType: ObjectIdentifier { ObjectIdentifier(Value.self) }

    /// The key's default in a ``ValueBox``.
    func defaultBox() -> any AnyObject & Sendable { ValueBox.boxing(defaultValue) }

    /// The boxed value as text for a person (redacted for secret keys).
    func render(_ box: AnyObject) -> String {
        ValueBox<Value>.value(in: box).map { render($0) } ?? "<value of another type>"
    }
}

extension ValueConverter {
    /// The boxed value rendered back as a ``ConfigValue`` (nil when its type cannot render).
    func configValue(of box: AnyObject) -> ConfigValue? { ValueBox<Value>.value(in: box).flatMap(toValue) }
}

/// The keys a client knows, fixed at build time: one slot per name.
///
/// A read finds a slot by the key's ``KeyFingerprint``, which covers its name and definition (default,
/// rule names, secrecy, summary), and checks the slot's value type: a key with a registered name and
/// type but another definition finds no slot, and is read as an unregistered key.
@usableFromInline
final class KeyRegistry: Sendable {
    /// The keys by slot.
    let keys: [any ConfigKeyRepresentable]
    /// Open-addressing table of slots by ``KeyFingerprint/hash``, the name's hash (`-1` empty), so a read
    /// finds its slot without hashing the name again: the key carries its fingerprint.
    @usableFromInline let table: [Int32]
    /// Each slot's key fingerprint, which confirms a table hit.
    @usableFromInline let ids: [KeyFingerprint]
    /// Each slot's value type, which a read's type must be.
    @usableFromInline let types: [ObjectIdentifier]
    /// The names by slot.
    let names: [String]
    /// Registered names by their normalised spelling, made when a typo is first looked for.
    private let namesByNormalised = Locked<[String: String]?>(nil)

    /// Registers `keys`, merging exact duplicates.
    ///
    /// - Throws: `.conflictingKey` for one name with two types, defaults or rule sets;
    ///   `.invalidRule` for a key whose rule is itself broken (an invalid pattern).
    init(_ given: [any ConfigKeyRepresentable]) throws(ConfigurationError) {
        var names: [String] = []
        var ids: [KeyFingerprint] = []
        var types: [ObjectIdentifier] = []
        // Each slot's index in `given`: the key array is `given` itself (shared, not copied) unless a name repeats.
        var givenIndex: [Int32] = []
        names.reserveCapacity(given.count)
        ids.reserveCapacity(given.count)
        types.reserveCapacity(given.count)
        givenIndex.reserveCapacity(given.count)
        // Sized for every given key: duplicates only leave it emptier.
        var table = [Int32](repeating: -1, count: max(8, (given.count * 2).nextPowerOfTwo))
        let mask = table.count - 1
        for (index, key) in given.enumerated() {
            let facts = Self.facts(of: key)
            if let problem = facts.ruleProblem {
                throw ConfigurationError(.invalidRule, "the key \"\(facts.name)\" has an invalid rule \(problem)")
            }
            var i = facts.id.hash & mask
            while table[i] >= 0, names[Int(table[i])] != facts.name {
                if ids[Int(table[i])] == facts.id {
                    throw ConfigurationError(
                        .conflictingKey,
                        "the key names \"\(names[Int(table[i])])\" and \"\(facts.name)\" have the same fingerprint, a 2^-128 "
                            + "chance; rename one")
                }
                i = (i + 1) & mask
            }
            guard table[i] >= 0 else {
                table[i] = Int32(names.count)
                names.append(facts.name)
                ids.append(facts.id)
                types.append(facts.valueType)
                givenIndex.append(Int32(index))
                continue
            }
            let slot = Int(table[i])
            let registered = given[Int(givenIndex[slot])]
            guard Self.valueType(of: registered) == facts.valueType else {
                throw ConfigurationError(
                    .conflictingKey,
                    "the key \"\(facts.name)\" is registered twice with different types "
                        + "(\(Self.descriptor(of: registered).typeName) and \(Self.descriptor(of: key).typeName)); "
                        + "use one type per name")
            }
            let (first, again) = (Self.descriptor(of: registered), Self.descriptor(of: key))
            guard first == again else {
                throw ConfigurationError(
                    .conflictingKey,
                    "the key \"\(facts.name)\" is registered twice with different defaults or rules (\(first) rules "
                        + "\(first.ruleNames) vs \(again) rules \(again.ruleNames)); define it once and reuse it")
            }
        }
        self.keys = names.count == given.count ? given : givenIndex.map { given[Int($0)] }
        self.table = table
        self.ids = ids
        self.types = types
        self.names = names
    }

    /// What registration needs to know of a key, read from it once.
    private static func facts<Key: ConfigKeyRepresentable>(
        of key: Key
    ) -> (name: String, id: KeyFingerprint, valueType: ObjectIdentifier, ruleProblem: String?) {
        let key = key.configKey
        return (key.name, key.fingerprint, key.valueType, key.ruleProblems.first)
    }

    /// The value type of the key in `slot`.
    func valueType(at slot: Int) -> ObjectIdentifier { types[slot] }

    private static func valueType<Key: ConfigKeyRepresentable>(of key: Key) -> ObjectIdentifier {
        ObjectIdentifier(Key.Value.self)
    }

    /// A key's descriptor.
    static func descriptor<Key: ConfigKeyRepresentable>(of key: Key) -> KeyDescriptor { key.configKey.descriptor }

    /// The value in `box` as text for a person, as `slot`'s key renders it (redacted for a secret key).
    func render(_ slot: Int, _ box: AnyObject) -> String { Self.render(keys[slot], box) }

    private static func render<Key: ConfigKeyRepresentable>(_ key: Key, _ box: AnyObject) -> String {
        key.configKey.render(box)
    }

    /// The slot of the key with fingerprint `id` and value type `type`, or nil when none is registered
    /// (a key with a registered name and another definition has another fingerprint: nil).
    ///
    /// Part of the read path: it reads the key's fingerprint, two integers, and the registry's arrays,
    /// and retains nothing.
    @inlinable @inline(__always)
    func slot(for id: KeyFingerprint, type: ObjectIdentifier) -> Int? {
        let mask = table.count &- 1
        var i = id.hash & mask
        while true {
            let slot = Int(table[i])
            if slot < 0 { return nil }
            if ids[slot] == id { return types[slot] == type ? slot : nil }
            i = (i &+ 1) & mask
        }
    }

    /// The slot of the key named `name`, whatever its definition, or nil.
    func slot(named name: String) -> Int? {
        let mask = table.count &- 1
        var i = KeyFingerprint.hash(of: name) & mask
        while true {
            let slot = Int(table[i])
            if slot < 0 { return nil }
            if names[slot] == name { return slot }
            i = (i &+ 1) & mask
        }
    }

    /// The registered name a mistyped name probably meant (same letters, other case or separators).
    func likelyIntended(_ name: String) -> String? {
        let intended = namesByNormalised.withLock { table in
            if table == nil { table = Dictionary(names.map { (Self.normalise($0), $0) }, uniquingKeysWith: { a, _ in a }) }
            return table?[Self.normalise(name)]
        }
        return intended == name ? nil : intended
    }

    /// The name lowercased, with everything but letters and digits removed (`Max-Retries` → `maxretries`).
    static func normalise(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) })
    }
}

extension Int {
    /// The smallest power of two at least `self` (at least 1).
    fileprivate var nextPowerOfTwo: Int {
        var n = 1
        while n < self { n <<= 1 }
        return n
    }
}
