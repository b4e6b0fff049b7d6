import Foundation

/// Fans values out to any number of `AsyncStream` subscribers and closure handlers.
///
/// Each subscriber has its own buffer policy; a cancelled consumer is removed by `onTermination`.
final class Broadcaster<Element: Sendable>: Sendable {
    private struct Subscribers {
        var next = 0
        var streams: [Int: AsyncStream<Element>.Continuation] = [:]
        var handlers: [Int: @Sendable (Element) -> Void] = [:]
        var finished = false
    }

    private let subscribers = Locked(Subscribers())

    /// A new stream of every later element.
    func stream(bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded, initial: Element? = nil)
        -> AsyncStream<Element>
    {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: bufferingPolicy)
        let id: Int? = subscribers.withLock { s in
            if s.finished { return nil }
            let id = s.next
            s.next += 1
            s.streams[id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        if let initial { continuation.yield(initial) }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Registers a handler; returns its id for ``removeHandler(_:)``.
    func addHandler(_ handler: @escaping @Sendable (Element) -> Void) -> Int {
        subscribers.withLock { s in
            let id = s.next
            s.next += 1
            s.handlers[id] = handler
            return id
        }
    }

    /// Removes a handler.
    func removeHandler(_ id: Int) {
        _ = subscribers.withLock { $0.handlers.removeValue(forKey: id) }
    }

    /// Sends `element` to every subscriber and handler.
    func send(_ element: Element) {
        let (streams, handlers) = subscribers.withLock { s in (Array(s.streams.values), Array(s.handlers.values)) }
        for continuation in streams { continuation.yield(element) }
        for handler in handlers { handler(element) }
    }

    /// Ends every stream; later subscribers get a finished stream.
    func finish() {
        let streams = subscribers.withLock { s in
            s.finished = true
            let all = Array(s.streams.values)
            s.streams.removeAll()
            s.handlers.removeAll()
            return all
        }
        for continuation in streams { continuation.finish() }
    }
}
