import ConfigDomain
import ConfigPorts
import Foundation

/// Where a provider keeps its payloads in the cache: under its name, or, when its fetcher's server
/// evaluates the flags for the client's context (`ConfigFetcher.evaluatesContext`), under its name
/// and a hash of the context's targeting key, one slot per user.
///
/// The slot's name never contains the targeting key itself (it may be an e-mail address): only a
/// 64-bit FNV-1a hash of the provider's name and the key. That keeps users apart in one cache; it is
/// not a secret-keeping hash, and an id someone can guess can be tested against it.
enum ContextSlot {
    /// The cache name of `settings`' provider for the client's first context.
    static func cacheName(of settings: ClientSettings) -> String {
        cacheName(
            base: settings.configurationName, targetingKey: settings.context.targetingKey,
            evaluatesContext: settings.fetcher.evaluatesContext)
    }

    /// The cache name of the provider named `base` for a context with `targetingKey`: `base` itself
    /// unless the provider's payloads are evaluated remotely; then `base.user-<16 hex digits>`, or
    /// `base.anonymous` for a context without a targeting key.
    static func cacheName(base: String, targetingKey: String?, evaluatesContext: Bool) -> String {
        guard evaluatesContext else { return base }
        guard let targetingKey else { return base + ".anonymous" }
        let hash = ContentHash(of: Array((base + "\u{0}" + targetingKey).utf8)).value
        let hex = String(hash, radix: 16)
        return base + ".user-" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
