import ConfigDomain
import ConfigPorts

/// The events `build()` raised (the cache loaded or missed, cached values rejected, override
/// problems), kept so that each `events()` stream starts with them.
final class StartupEvents: ConfigObserver {
    private let recorded = Locked<[ConfigEvent]>([])

    /// Keeps `event`.
    func receive(_ event: ConfigEvent) { recorded.withLock { $0.append(event) } }

    /// The events kept, in order.
    var events: [ConfigEvent] { recorded.current }
}
