import ConfigDomain
import ConfigPorts

/// Where a client's events go: every observer given to the builder, then every `events()` stream.
///
/// One value shared by the builder (events raised while building) and the engine (events after).
struct EventSink: Sendable {
    let observers: [any ConfigObserver]
    let streams: Broadcaster<ConfigEvent>

    /// Hands `event` to each observer, then to each stream.
    func emit(_ event: ConfigEvent) {
        for observer in observers { observer.receive(event) }
        streams.send(event)
    }
}
