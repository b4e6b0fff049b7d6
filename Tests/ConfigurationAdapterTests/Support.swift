import ConfigDomain
import Configuration
import ConfigurationAdapter
import Foundation
import RemoteConfig
import TestDoubles

/// A client over an in-memory payload, refreshed once, on a manual clock (fresh for an hour).
func refreshedClient(
    _ json: String, keys: [any ConfigKeyRepresentable] = [], fetcher: InMemoryFetcher? = nil,
    clock: ManualClock = ManualClock(), overrides: [any OverrideSource] = [], observer: RecordingObserver? = nil
) async throws -> (client: RemoteConfigClient, fetcher: InMemoryFetcher) {
    let fetcher = fetcher ?? InMemoryFetcher(json: json)
    var builder = RemoteConfigClient.builder(fetcher: fetcher)
        .clock(clock)
        .freshness(FreshnessPolicy(ttl: 3600, maxStale: .seconds(86_400)))
        .register(keys)
    for source in overrides { builder = builder.override(source) }
    if let observer { builder = builder.observer(observer) }
    let client = try builder.build()
    _ = try await client.refresh()
    return (client, fetcher)
}

/// The first element of `updates`.
func first<Element: Sendable>(_ updates: ConfigUpdatesAsyncSequence<Element, Never>) async -> Element? {
    for await element in updates { return element }
    return nil
}

/// `ConfigValue` content of `type` for `key`, read through `provider`, or the error it threw.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
func content(
    _ provider: some ConfigProvider, _ key: AbsoluteConfigKey, _ type: ConfigType
) -> Result<ConfigContent?, ProviderValueError> {
    do {
        return .success(try provider.value(forKey: key, type: type).value?.content)
    } catch let error as ProviderValueError {
        return .failure(error)
    } catch {
        return .failure(ProviderValueError(key: "\(key)", requestedType: type.rawValue, reason: "unexpected \(error)"))
    }
}
