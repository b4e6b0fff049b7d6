import ConfigDomain
import ConfigPorts
import Foundation

/// A remote provider added next to the builder's own fetcher: its fetcher, name and precedence.
///
/// Each provider has its own cache name (its `name`), scheduler, validators and provenance, and
/// refreshes on its own: one failing or hanging never holds back the others.
struct RemoteProvider: Sendable {
    var fetcher: any ConfigFetcher
    var name: String
    var precedence: Int
    var format: (any PayloadFormat)?
}

extension RemoteConfigBuilder {
    /// Adds another remote provider. Where several snapshots have a valid value for a key, the
    /// provider with the highest `precedence` wins; the builder's own fetcher has precedence 0.
    ///
    /// ```swift
    /// RemoteConfigClient.builder(fetcher: mainFetcher)                                   // precedence 0
    ///     .fetcher(experimentsFetcher, name: "experiments", precedence: 10)               // wins over main
    ///     .fetcher(regionalFetcher, name: "regional", precedence: -10)                     // fills the gaps
    /// ```
    ///
    /// - Parameters:
    ///   - fetcher: fetches this provider's payload.
    ///   - name: the provider's name in provenance and status, and its configuration name in the
    ///     cache; unique among the client's providers (the builder's own fetcher is named by
    ///     `cache(_:name:)`, `default` unless set).
    ///   - precedence: unique among the client's providers; higher wins.
    ///   - format: this provider's payload format (default: the builder's).
    public func fetcher(
        _ fetcher: any ConfigFetcher, name: String, precedence: Int, format: (any PayloadFormat)? = nil
    ) -> Self {
        with {
            $0.additionalProviders.append(RemoteProvider(fetcher: fetcher, name: name, precedence: precedence, format: format))
        }
    }

    /// Each provider's settings (the builder's own fetcher first), and the providers in precedence order.
    ///
    /// - Throws: `.conflictingProvider` when two providers share a name or a precedence.
    func providerSettings() throws(ConfigError) -> (settings: [ClientSettings], precedence: [Int]) {
        let main = RemoteProvider(fetcher: settings.fetcher, name: settings.configurationName, precedence: 0, format: nil)
        let providers = [main] + additionalProviders
        for (index, provider) in providers.enumerated() {
            for earlier in providers[..<index] {
                if earlier.name == provider.name {
                    throw .configuration(
                        ConfigurationError(
                            .conflictingProvider,
                            "two providers are named \"\(provider.name)\"; give each fetcher its own name (it is also its cache name)"
                        ))
                }
                if earlier.precedence == provider.precedence {
                    throw .configuration(
                        ConfigurationError(
                            .conflictingProvider,
                            "the providers \"\(earlier.name)\" and \"\(provider.name)\" both have precedence "
                                + "\(provider.precedence); give each a different one (higher wins, the main fetcher has 0)"))
                }
            }
        }
        let each = providers.map { provider in
            var own = settings
            own.fetcher = provider.fetcher
            own.configurationName = provider.name
            if let format = provider.format { own.format = format }
            return own
        }
        let precedence = providers.indices.sorted { providers[$0].precedence > providers[$1].precedence }
        return (each, precedence)
    }
}
