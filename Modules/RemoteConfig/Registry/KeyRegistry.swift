import ConfigDomain
import Foundation

/// The keys a client knows, fixed at build time: entries by slot, slots by key identity and by name.
@usableFromInline
struct KeyRegistry: Sendable {
    let entries: [KeyEntry]
    /// Slots by name.
    private let names: NameIndex
    /// Slot by `KeyIdentity.rawValue - identityBase`, `-1` when that identity is not registered.
    @usableFromInline let slotByIdentity: [Int32]
    @usableFromInline let identityBase: Int
    /// Registered names by their normalised spelling, for mistyped-key detection.
    private let nameByNormalised = NormalisedNameTable()

    var descriptors: [KeyDescriptor] { entries.map(\.descriptor) }

    /// Builds the registry, merging exact duplicates and refusing conflicting ones.
    init(keys: [KeyEntry]) throws(ConfigurationError) {
        // The entries are the keys themselves (the same array, shared) until a duplicate is merged;
        // only then is a list of the distinct ones made. A launch registers each key once, and
        // copying a thousand references touches new memory for nothing.
        var merged: [KeyEntry]?
        var slotCount = 0
        var names = NameIndex(capacity: keys.count)
        // The identity table is filled as the keys are taken, so its bounds come first.
        var base = Int.max
        var top = Int.min
        for key in keys {
            base = min(base, key.identity.rawValue)
            top = max(top, key.identity.rawValue)
        }
        if keys.isEmpty { (base, top) = (0, -1) }
        var table = [Int32](repeating: -1, count: top - base + 1)
        for (position, key) in keys.enumerated() {
            if let problem = Self.ruleProblem(key) { throw problem }
            let found = names.insert(key.name, slot: slotCount) { slot in (merged?[slot] ?? keys[slot]).name }
            if let existing = found {
                let other = merged?[existing] ?? keys[existing]
                guard other.valueType == key.valueType else {
                    throw ConfigurationError(
                        .conflictingKey,
                        "the key \"\(key.name)\" is registered twice with different types (\(other.descriptor.typeName) and \(key.descriptor.typeName)); use one ConfigKey per name"
                    )
                }
                guard other.descriptor == key.descriptor else {
                    throw ConfigurationError(
                        .conflictingKey,
                        "the key \"\(key.name)\" is registered twice with different defaults or rules (\(other.descriptor) rules \(other.descriptor.ruleNames) vs \(key.descriptor) rules \(key.descriptor.ruleNames)); define it once and reuse it"
                    )
                }
                table[key.identity.rawValue - base] = Int32(existing)
                // Up to here every key was distinct, so slots were positions.
                if merged == nil { merged = Array(keys[..<position]) }
                continue
            }
            table[key.identity.rawValue - base] = Int32(slotCount)
            merged?.append(key)
            slotCount += 1
        }
        self.entries = merged ?? keys
        self.names = names
        self.slotByIdentity = table
        self.identityBase = base
    }

    /// The slot of a key, or nil when that key is not registered.
    @inlinable @inline(__always)
    func slot(for identity: KeyIdentity) -> Int? {
        let i = identity.rawValue &- identityBase
        guard i >= 0, i < slotByIdentity.count else { return nil }
        let slot = slotByIdentity[i]
        return slot >= 0 ? Int(slot) : nil
    }

    /// The slot of the key named `name`, or nil when no registered key has that name.
    func slot(named name: String) -> Int? {
        names.slot(of: name) { entries[$0].name }
    }

    /// The registered name a mistyped name probably meant (same letters, other case or separators).
    func likelyIntended(_ name: String) -> String? {
        guard slot(named: name) == nil else { return nil }
        return nameByNormalised.registeredName(normalised: Self.normalise(name)) {
            var built = [String: String](minimumCapacity: entries.count)
            for entry in entries { built[Self.normalise(entry.name)] = entry.name }
            return built
        }
    }

    /// The name lowercased, with everything but letters and digits removed (`Max-Retries` → `maxretries`).
    static func normalise(_ name: String) -> String {
        // ASCII names (nearly all) take a byte loop: `CharacterSet.alphanumerics` builds a set on
        // every access, which made this most of `build()` for large registries.
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else {
            return String(name.lowercased().unicodeScalars.filter { alphanumerics.contains($0) })
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(name.utf8.count)
        for byte in name.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"): bytes.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte + 0x20)
            default: break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let alphanumerics = CharacterSet.alphanumerics

    private static func ruleProblem(_ key: KeyEntry) -> ConfigurationError? {
        guard let first = key.ruleProblems.first else { return nil }
        return ConfigurationError(
            .invalidRule, "the key \"\(key.name)\" has an invalid rule \(first.rule): \(first.problem)")
    }
}
