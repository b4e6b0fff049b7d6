import ConfigDomain
import ConfigPorts
import Foundation

/// Collects a client's events (the observer is called synchronously, from any thread).
final class EventLog: ConfigObserver {
    private let events = Locked<[ConfigEvent]>([])

    /// The events so far, oldest first.
    var all: [ConfigEvent] { events.current }

    func receive(_ event: ConfigEvent) {
        events.withLock { $0.append(event) }
    }
}
