import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// Typed keys for the contract's key names, so the store is written as an app writes it.
private enum ContractKeys {
    static let flag = ConfigKey("contract_flag", default: false)
    static let count = ConfigKey("contract_count", default: 0)
    static let label = ConfigKey("contract_label", default: "")
    static let unrequested = ConfigKey("contract_unrequested", default: "")

    /// Replaces what `store` holds with the contract's `values` (text by key name): sets each
    /// value through its typed key and removes the keys absent from `values`.
    static func apply(_ values: [String: String], to store: LocalOverrideStore) async throws {
        try await set(flag, values[flag.name].flatMap { Bool($0) }, in: store)
        try await set(count, values[count.name].flatMap { Int($0) }, in: store)
        try await set(label, values[label.name], in: store)
        try await set(unrequested, values[unrequested.name], in: store)
    }

    private static func set<Value>(_ key: ConfigKey<Value>, _ value: Value?, in store: LocalOverrideStore) async throws {
        if let value { try await store.set(key, value) } else { try await store.remove(key) }
    }
}

@Suite("LocalOverrideStore contract")
struct LocalOverrideStoreContractTests {
    private typealias Check = OverrideSourceContract<LocalOverrideStore>.Check

    @Test func localOverrideStorePassesTheOverrideContract() async {
        let report = await OverrideSourceContract<LocalOverrideStore>(
            subject: "LocalOverrideStore",
            makeSource: { values in
                let store = LocalOverrideStore(buildKind: .debug)
                try await ContractKeys.apply(values, to: store)
                return store
            },
            update: { store, values in try await ContractKeys.apply(values, to: store) },
            makeSourceWithMalformedEntry: { values in
                // Persisted overrides that are not JSON: the store reports them and starts empty.
                let cache = InMemoryCache()
                let garbage = Data("{not json".utf8)
                try await cache.store(
                    CachedSnapshot(
                        payload: garbage,
                        metadata: SnapshotMetadata(
                            fetchedAt: Date(timeIntervalSince1970: 1_700_000_000), contentHash: ContentHash(of: garbage),
                            source: "contract")),
                    as: "local-overrides", slot: .active)
                let store = LocalOverrideStore(persistence: .init(cache: cache), buildKind: .debug)
                try await ContractKeys.apply(values, to: store)
                return store
            }
        ).run()

        report.recordIssues()
        #expect(report.passed)
        #expect(report.skipped.isEmpty, "the store is mutable and can hold a malformed entry: every check runs")
        #expect(report.checks.count == Check.allCases.count)
    }

    @Test func unreadablePersistedOverridesAreAProblemNotAnError() async throws {
        let cache = InMemoryCache()
        let garbage = Data("{not json".utf8)
        try await cache.store(
            CachedSnapshot(
                payload: garbage,
                metadata: SnapshotMetadata(
                    fetchedAt: Date(timeIntervalSince1970: 1_700_000_000), contentHash: ContentHash(of: garbage),
                    source: "contract")),
            as: "local-overrides", slot: .active)
        let store = LocalOverrideStore(persistence: .init(cache: cache), buildKind: .debug)
        let snapshot = store.overrides(for: OverrideSourceContract<LocalOverrideStore>.keys)
        #expect(snapshot.values.isEmpty)
        #expect(snapshot.problems.contains { $0.contains("unreadable") })
    }
}
