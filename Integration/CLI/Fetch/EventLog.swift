import ConfigDomain
import ConfigPorts
import Foundation

/// Collects a client's events (the observer is called synchronously, from any thread).
final class EventLog: ConfigObserver, @unchecked Sendable {
    // @unchecked Sendable: `events` is only read or written while holding `lock`.
    private let lock = NSLock()
    private var events: [ConfigEvent] = []

    /// The events so far, oldest first.
    var all: [ConfigEvent] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }

    func receive(_ event: ConfigEvent) {
        lock.lock()
        events.append(event)
        lock.unlock()
    }
}
