import DefaultsAdapter
import FileCacheAdapter
import Foundation
import HTTPAdapter
import RemoteConfig

/// Builds the app's one client: two remote providers, the values shipped with the app, the
/// user's Settings-app choices, and the settings the app itself writes.
enum AppConfig {
    /// Where the app keeps what the user sets in the app (an App Group, shared with extensions).
    static let settingsSuite = "group.com.example.remote-config-example"

    /// No `await`: `App.init` calls it. The first read already sees the last run's values, or, on a
    /// first launch offline, the shipped defaults.
    static func makeClient(main: URL, experiments: URL, cacheDirectory: URL, bundle: Bundle) throws -> RemoteConfigClient {
        try RemoteConfigClient.builder(fetcher: HTTPFetcher(url: main))
            .fetcher(try HTTPFetcher(url: experiments), name: "experiments", precedence: 10)
            .cache(FileSnapshotCache(directory: cacheDirectory))
            .override(try UserDefaultsOverrideSource(keyPrefix: "override."))
            .settingsStore(try UserDefaultsSettingsStore(suiteName: settingsSuite))
            .register {
                Flags.newCheckout
                Flags.maxRetries
                Flags.bannerText
                Flags.theme.writable(inRelease: true)
                Flags.serverURL.writable()
            }
            .bundledDefaults(try BundledDefaults(resource: "defaults", withExtension: "plist", in: bundle))
            .bundledDefaults(try BundledDefaults(settingsBundleOf: bundle))
            .build()
    }
}
