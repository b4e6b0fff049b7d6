import ConfigDomain
import ConfigPorts
import Foundation

/// What a fetcher and its ``OFREPEventSource`` share: the event-stream URLs the latest bulk
/// evaluation named (`eventStreams`), and the change metadata of the last `refetchEvaluation`
/// event, which the next fetch sends as `flagConfigEtag` and `flagConfigLastModified`.
///
/// `@unchecked Sendable`: every stored property is a `Locked` (or immutable).
final class StreamLinks: @unchecked Sendable {
    /// An event's change metadata, for the re-fetch it triggers.
    struct Hint: Sendable, Hashable {
        var etag: String?
        var lastModified: String?
    }

    private struct State {
        var urls: [URL]?
        var hint: Hint?
        var nextID = 0
        var watchers: [Int: AsyncStream<[URL]>.Continuation] = [:]
    }

    private let state = Locked(State())

    /// Records the event-stream URLs a 200 named (empty: none); watchers hear of a change.
    func record(_ urls: [URL]) {
        let watchers = state.withLock { s -> [AsyncStream<[URL]>.Continuation] in
            guard s.urls != urls else { return [] }
            s.urls = urls
            return Array(s.watchers.values)
        }
        for watcher in watchers { watcher.yield(urls) }
    }

    /// The URLs known now (if any 200 said), then each new set, until the consumer cancels.
    func updates() -> AsyncStream<[URL]> {
        let (stream, continuation) = AsyncStream<[URL]>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { s -> Int in
            s.nextID += 1
            s.watchers[s.nextID] = continuation
            if let urls = s.urls { continuation.yield(urls) }
            return s.nextID
        }
        continuation.onTermination = { [state] _ in _ = state.withLock { $0.watchers.removeValue(forKey: id) } }
        return stream
    }

    /// Keeps an event's change metadata for the next fetch.
    func hint(_ hint: Hint) { state.withLock { $0.hint = hint } }

    /// The metadata of the event that asked for this fetch, if any, taken once.
    func takeHint() -> Hint? {
        state.withLock { s in
            defer { s.hint = nil }; return s.hint
        }
    }
}
