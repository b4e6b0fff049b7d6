import ConfigDomain
import ConfigPorts
import Configuration
import ConfigurationAdapter
import Foundation

/// A provider whose snapshot watch fails at once, as a reloading provider whose file vanished might.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
struct FailingWatchProvider: ConfigProvider {
    struct WatchFailed: Error, CustomStringConvertible {
        var description: String { "the watched file vanished" }
    }

    let values: InMemoryProvider
    var providerName: String { "FailingWatchProvider" }

    init(values: [AbsoluteConfigKey: Configuration.ConfigValue]) { self.values = InMemoryProvider(values: values) }

    func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try values.value(forKey: key, type: type)
    }

    func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
        try values.value(forKey: key, type: type)
    }

    nonisolated(nonsending) func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey, type: ConfigType,
        updatesHandler:
            nonisolated(nonsending) (
                _ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>
            ) async throws -> Return
    ) async throws -> Return {
        throw WatchFailed()
    }

    func snapshot() -> any Configuration.ConfigSnapshot { values.snapshot() }

    nonisolated(nonsending) func watchSnapshot<Return: ~Copyable>(
        updatesHandler:
            nonisolated(nonsending) (
                _ updates: ConfigUpdatesAsyncSequence<any Configuration.ConfigSnapshot, Never>
            ) async throws -> Return
    ) async throws -> Return {
        throw WatchFailed()
    }
}

/// The override-source contract's subject: a ``ConfigProviderOverrideSource`` over a mutable provider
/// the contract's `update` hook can change.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
struct MutableProviderSource: OverrideSource {
    /// Every name the contract uses.
    static let names = ["contract_flag", "contract_count", "contract_label", "contract_unrequested"]

    let provider: MutableInMemoryProvider
    let source: ConfigProviderOverrideSource
    var name: String { source.name }

    /// A source holding the contract's text values, typed as its keys are.
    init(_ values: [String: String]) {
        provider = MutableInMemoryProvider(initialValues: [:])
        source = ConfigProviderOverrideSource(provider)
        replace(with: values)
    }

    /// Holds exactly `values`: every other contract name is removed.
    func replace(with values: [String: String]) {
        for name in Self.names {
            provider.setValue(
                values[name].map { Self.typed($0, for: name) }, forKey: AbsoluteConfigKey(Configuration.ConfigKey(name)))
        }
    }

    /// The contract's text as the type of its key: a bool for the flag, an int for the count, else a string.
    static func typed(_ text: String, for name: String) -> Configuration.ConfigValue {
        switch name {
        case "contract_flag": Configuration.ConfigValue(.bool(text == "true"), isSecret: false)
        case "contract_count": Configuration.ConfigValue(.int(Int(text) ?? 0), isSecret: false)
        default: Configuration.ConfigValue(.string(text), isSecret: false)
        }
    }

    func overrides(for keys: [KeyDescriptor]) -> OverrideSnapshot { source.overrides(for: keys) }
    func changes(for keys: [KeyDescriptor]) -> AsyncStream<OverrideSnapshot> { source.changes(for: keys) }
}
