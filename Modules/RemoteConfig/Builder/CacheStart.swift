import ConfigDomain
import ConfigPorts
import Foundation

/// What a client starts from: the cache's snapshot, decoded, and the engine status that says how
/// the cache answered.
struct CacheStart {
    private let settings: ClientSettings
    /// The engine's status at start (its cache part set by ``take(_:_:)``).
    private(set) var status = EngineStatus()
    /// The decoded snapshot of a cache hit.
    private(set) var snapshot: ConfigSnapshot?

    /// A start with no cache answer yet: `.empty` cache status when the client has a cache.
    init(_ settings: ClientSettings) {
        self.settings = settings
        if settings.cache != nil { status.cache = .empty }
    }

    /// Takes the cache's answer: decodes a hit, and reports the hit, the miss or why it is unusable.
    mutating func take(_ result: CacheLoadResult, _ assembly: ClientAssembly) {
        let name = settings.configurationName
        switch result {
        case .hit(let cached):
            do throws(PayloadError) {
                let values = try settings.format.decode(cached.payload)
                snapshot = ConfigSnapshot(values: values, metadata: cached.metadata)
                status.cache = .inSync
                let freshness = settings.freshness.freshness(fetchedAt: cached.metadata.fetchedAt, now: settings.clock.now())
                assembly.emit(.cacheLoaded(name: name, fetchedAt: cached.metadata.fetchedAt, freshness: freshness))
            } catch {
                let cacheError = CacheError(
                    .corrupt(.badMetadata),
                    message:
                        "the cached payload for \"\(name)\" no longer decodes (\(error)); serving defaults until the next refresh"
                )
                status.cache = .unreadable(cacheError)
                assembly.emit(.cacheUnreadable(cacheError))
            }
        case .miss:
            assembly.emit(.cacheMiss(name: name))
        case .unreadable(let error):
            status.cache = .unreadable(error)
            assembly.emit(.cacheUnreadable(error))
        }
    }
}
