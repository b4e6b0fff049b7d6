import ConfigDomain
import ConfigPorts
import Configuration
import Foundation

/// A swift-configuration `ConfigProvider` backed by a resolved configuration, such as a
/// `RemoteConfigClient`: a `ConfigReader` reads remote values, and its watches follow each activation.
///
/// ```swift
/// let config = ConfigReader(providers: [EnvironmentVariablesProvider(), RemoteConfigProvider(client)])
/// let enabled = config.bool(forKey: "new_checkout", default: false)
/// ```
///
/// - Values: what the client's reads see (overrides, snapshot, last good value), so a value a
///   key's rules reject never reaches the reader. A registered key at its default has no value
///   here: the reader's default, or a later provider, applies.
/// - Keys: `http.timeout` reads the value named `http.timeout`, else the member `timeout` of the
///   object named `http`.
/// - Types, by this library's strict rules: an int reads as int or double, a double as double (or
///   int when integral), a bool only as bool, a string as string or as bytes (base64 by default).
///   Any other pairing throws ``ProviderValueError``.
/// - Secrets: a value is secret when its key is registered `secret: true`, or when
///   `secretsSpecifier` says so.
/// - Context: a key's swift-configuration context is the evaluation context its targeting rules
///   are evaluated for (``EvaluationContextMapping``); a key without one reads the client's own context.
///   Watches and snapshots follow the client's own context.
/// - `fetchValue` refreshes first when the snapshot is not fresh; a failed refresh keeps the last
///   good values (the failure reaches the client's events, not the reader).
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
public struct RemoteConfigProvider: ConfigProvider {
    /// The provider's name in access reports, `RemoteConfigProvider` unless given.
    public let providerName: String
    private let source: Source
    private let lookup: ValueLookup

    /// Creates a provider that reads `source`.
    ///
    /// - Parameters:
    ///   - source: the resolved configuration, usually a `RemoteConfigClient`.
    ///   - name: the provider's name in access reports.
    ///   - bytesDecoder: how a string value reads as bytes.
    ///   - secretsSpecifier: marks further values secret by their dotted name (registered secret keys always are).
    public init(
        _ source: some ResolvedConfiguration, name: String = "RemoteConfigProvider",
        bytesDecoder: some ConfigBytesFromStringDecoder = .base64,
        secretsSpecifier: SecretsSpecifier<String, ConfigDomain.ConfigValue> = .none
    ) {
        self.providerName = name
        self.source = Source(source)
        self.lookup = ValueLookup(conversion: ContentConversion(bytesDecoder: bytesDecoder), secrets: secretsSpecifier)
    }

    /// The current value for `key` as `type`; throws ``ProviderValueError`` when it is of another type.
    ///
    /// A key with a context (`ConfigKey("new_checkout", context: ["targetingKey": "u1", "country": "DE"])`)
    /// reads the value the targeting rules serve that context; see ``EvaluationContextMapping``.
    public func value(forKey key: AbsoluteConfigKey, type: ConfigType) throws -> LookupResult {
        try lookup.lookup(key, as: type, in: values(for: key))
    }

    /// The value after a refresh when the snapshot was not fresh.
    public func fetchValue(forKey key: AbsoluteConfigKey, type: ConfigType) async throws -> LookupResult {
        let fresh = await source.fetch(Self.context(of: key))
        return try lookup.lookup(key, as: type, in: fresh)
    }

    /// The values `key` reads: for its context when it has one, else the client's own.
    private func values(for key: AbsoluteConfigKey) -> any ResolvedValues { source.view(Self.context(of: key)) }

    /// The evaluation context of `key`'s context, or nil when it has none (the configuration's own applies).
    private static func context(of key: AbsoluteConfigKey) -> EvaluationContext? {
        key.context.isEmpty ? nil : EvaluationContextMapping.evaluationContext(of: key.context)
    }

    /// The current value first, then the value after each activation that changed it.
    public nonisolated(nonsending) func watchValue<Return: ~Copyable>(
        forKey key: AbsoluteConfigKey, type: ConfigType,
        updatesHandler:
            nonisolated(nonsending) (
                _ updates: ConfigUpdatesAsyncSequence<Result<LookupResult, any Error>, Never>
            ) async throws -> Return
    ) async throws -> Return {
        let (stream, continuation) = AsyncStream<Result<LookupResult, any Error>>.makeStream(
            bufferingPolicy: .bufferingNewest(1))
        let follower = Task { [source, lookup] in
            var last: Result<LookupResult, ProviderValueError>?
            for await values in source.watch() {
                let result = Result { () throws(ProviderValueError) in try lookup.lookup(key, as: type, in: values) }
                guard result != last else { continue }
                last = result
                continuation.yield(result.mapError { $0 })
            }
            continuation.finish()
        }
        defer { follower.cancel() }
        return try await updatesHandler(ConfigUpdatesAsyncSequence(stream))
    }

    /// One state of the configuration: several reads through it see the same values.
    public func snapshot() -> any Configuration.ConfigSnapshot {
        RemoteConfigProviderSnapshot(providerName: providerName, values: source.view(nil), lookup: lookup)
    }

    /// The current snapshot first, then a snapshot after each activation.
    public nonisolated(nonsending) func watchSnapshot<Return: ~Copyable>(
        updatesHandler:
            nonisolated(nonsending) (
                _ updates: ConfigUpdatesAsyncSequence<any Configuration.ConfigSnapshot, Never>
            ) async throws -> Return
    ) async throws -> Return {
        let (stream, continuation) = AsyncStream<any Configuration.ConfigSnapshot>.makeStream(
            bufferingPolicy: .bufferingNewest(1))
        let follower = Task { [source, lookup, providerName] in
            for await values in source.watch() {
                continuation.yield(RemoteConfigProviderSnapshot(providerName: providerName, values: values, lookup: lookup))
            }
            continuation.finish()
        }
        defer { follower.cancel() }
        return try await updatesHandler(ConfigUpdatesAsyncSequence(stream))
    }
}

/// A resolved configuration's reads, with its view type erased, so the provider is not generic over its source.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
private struct Source: Sendable {
    let view: @Sendable (EvaluationContext?) -> any ResolvedValues
    let fetch: @Sendable (EvaluationContext?) async -> any ResolvedValues
    let watch: @Sendable () -> AsyncStream<any ResolvedValues>

    init<Configuration: ResolvedConfiguration>(_ configuration: Configuration) {
        view = { configuration.view(for: $0) }
        fetch = { await configuration.fetch(.refreshBeforeReturning, for: $0) }
        watch = {
            let (stream, continuation) = AsyncStream<any ResolvedValues>.makeStream(bufferingPolicy: .bufferingNewest(1))
            let forwarding = Task {
                for await values in configuration.watch() { continuation.yield(values) }
                continuation.finish()
            }
            continuation.onTermination = { _ in forwarding.cancel() }
            return stream
        }
    }
}
