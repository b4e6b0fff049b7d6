import DefaultsAdapter
import FileCacheAdapter
import Foundation
import HTTPAdapter
import RemoteConfigApp

/// Builds the app's one client: two remote providers, the values shipped with the app, the
/// user's Settings-app choices, and the settings the app itself writes.
enum AppConfig {
    /// What the user sets in the app (the theme), kept in the app's cache folder; it works in release builds too.
    static func userSettings(cacheDirectory: URL) -> LocalOverrideStore {
        LocalOverrideStore(
            name: "user settings",
            persistence: .init(cache: FileSnapshotCache(directory: cacheDirectory), name: "user-settings"),
            allowedInRelease: true)
    }

    /// No `await`: `App.init` calls it. The first read already sees the last run's values, or, on a
    /// first launch offline, the shipped defaults.
    static func makeClient(
        main: URL, experiments: URL, cacheDirectory: URL, bundle: Bundle, userSettings: LocalOverrideStore
    ) throws -> RemoteConfigClient {
        try RemoteConfigClient.builder(fetcher: HTTPFetcher(url: main))
            .fetcher(try HTTPFetcher(url: experiments), name: "experiments", precedence: 10)
            .cache(FileSnapshotCache(directory: cacheDirectory))
            .override(try UserDefaultsOverrideSource(keyPrefix: "override."))
            .override(userSettings)
            .register {
                Flags.newCheckout
                Flags.maxRetries
                Flags.bannerText
                Flags.theme
                Flags.serverURL
            }
            .bundledDefaults(try BundledDefaults(resource: "defaults", withExtension: "plist", in: bundle))
            .bundledDefaults(try BundledDefaults(settingsBundleOf: bundle))
            .build()
    }
}
