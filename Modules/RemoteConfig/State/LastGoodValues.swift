import ConfigDomain
import ConfigPorts
import Foundation

/// The values one provider served that its active snapshot no longer gives (rejected since), kept
/// across launches: what an offline launch serves for those keys, whatever the cache's newest payload holds.
///
/// Each provider keeps its record in its cache's `CacheSlot.lastGood` slot, as a JSON object
/// `{"max_retries": {"value": 9, "source": "https://example.com/config.json"}}`. The engine writes it
/// when an activation changes it; the builder reads it only when a cached payload leaves a key without a
/// value that passes. The values pass through each key's conversion and rules again when read.
struct LastGoodValues: Sendable, Equatable {
    /// One kept value and the source of the snapshot it came from.
    struct Entry: Sendable, Equatable {
        let raw: ConfigValue
        let source: String
    }

    /// Kept values by key name.
    var entries: [String: Entry]

    /// No kept values.
    static let none = LastGoodValues(entries: [:])

    init(entries: [String: Entry]) { self.entries = entries }

    /// The last good values `provider` supplies in `state`: its kept values, by the registry's `names`.
    init(of provider: Int, in state: ResolvedState, names: [String]) {
        var entries: [String: Entry] = [:]
        for (slot, value) in state.hiddenRemote where value.isKept && value.provider == provider {
            entries[names[slot]] = Entry(raw: value.raw, source: value.source)
        }
        self.entries = entries
    }

    /// Reads a stored record; nil when the bytes are not one.
    init?(bytes: Data) {
        guard case .object(let members)? = try? JSONParser().parse(bytes) else { return nil }
        var entries: [String: Entry] = [:]
        for (name, member) in members {
            guard let raw = member["value"], let source = member["source"]?.stringValue else { return nil }
            entries[name] = Entry(raw: raw, source: source)
        }
        self.entries = entries
    }

    /// The record as stored: a JSON object of `{"value": …, "source": …}` by key name.
    var bytes: Data {
        let object = ConfigValue.object(entries.mapValues { .object(["value": $0.raw, "source": .string($0.source)]) })
        return Data(object.jsonText().utf8)
    }

    /// The record as a cached snapshot written at `date`.
    func cached(at date: Date) -> CachedSnapshot {
        let bytes = bytes
        return CachedSnapshot(
            payload: bytes,
            metadata: SnapshotMetadata(fetchedAt: date, contentHash: ContentHash(of: bytes), source: "last good values"))
    }
}

/// The last good values stored in the providers' caches, each read on first need while the builder
/// resolves the first state (a launch whose cached payloads give every key a value reads none).
final class StoredLastGood: Sendable {
    /// By provider: reads its stored record (nil without a cache, or when payloads are verified).
    private let readers: [(@Sendable () -> LastGoodValues?)?]
    /// The records read so far, by provider.
    private let read = Locked<[Int: LastGoodValues]>([:])

    init(readers: [(@Sendable () -> LastGoodValues?)?]) { self.readers = readers }

    /// The kept value of `name` that `provider` stored, if any.
    func entry(_ name: String, provider: Int) -> LastGoodValues.Entry? {
        if let record = read.withLock({ $0[provider] }) { return record.entries[name] }
        guard readers.indices.contains(provider), let reader = readers[provider] else { return nil }
        let record = reader() ?? .none
        read.withLock { $0[provider] = record }
        return record.entries[name]
    }

    /// What `provider`'s cache holds, if it was read.
    func recorded(of provider: Int) -> LastGoodValues? { read.withLock { $0[provider] } }
}
