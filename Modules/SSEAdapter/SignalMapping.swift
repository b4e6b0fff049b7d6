import ConfigDomain
import ConfigPorts
import Foundation

/// How an event of the stream becomes a ``ChangeSignal`` (or nothing).
public struct SignalMapping: Sendable {
    private let map: @Sendable (ServerSentEvent, _ source: String) -> ChangeSignal?

    /// A mapping of your own: return `nil` for events that announce nothing.
    public init(_ map: @escaping @Sendable (_ event: ServerSentEvent, _ source: String) -> ChangeSignal?) {
        self.map = map
    }

    /// The signal `event` means, from the stream called `source`.
    public func signal(for event: ServerSentEvent, source: String) -> ChangeSignal? { map(event, source) }

    /// Each event of these types carries the new version (an ETag) as its data; empty data means "changed".
    ///
    /// This is what `remote-config serve`'s `/events` stream sends.
    public static func version(eventTypes: Set<String> = ["message"]) -> SignalMapping {
        SignalMapping { event, _ in
            guard eventTypes.contains(event.type) else { return nil }
            let version = event.data.trimmingCharacters(in: .whitespacesAndNewlines)
            return .changed(version: version.isEmpty ? nil : version)
        }
    }

    /// Each event of these types carries the whole new payload as its data; its event ID is the version (ETag).
    public static func payload(eventTypes: Set<String> = ["message"]) -> SignalMapping {
        SignalMapping { event, source in
            guard eventTypes.contains(event.type) else { return nil }
            return .payload(
                FetchedPayload(
                    bytes: Data(event.data.utf8), validators: Validators(etag: event.lastEventID), source: source))
        }
    }

    /// Any event of these types means "something changed", with no version.
    public static func anyEvent(eventTypes: Set<String> = ["message"]) -> SignalMapping {
        SignalMapping { event, _ in eventTypes.contains(event.type) ? .changed(version: nil) : nil }
    }
}
