import ConfigPorts
import Foundation

/// Fans values out to any number of `AsyncStream` subscribers and closure handlers.
///
/// Each stream has its own buffering policy; a cancelled consumer is removed by `onTermination`.
final class Broadcaster<Element: Sendable>: Sendable {
    private struct Subscribers {
        var next = 0
        var streams: [Int: AsyncStream<Element>.Continuation] = [:]
        var handlers: [Int: (receive: @Sendable (Element) -> Void, finish: (@Sendable () -> Void)?)] = [:]
        var finished = false
    }

    private let subscribers = Locked(Subscribers())

    /// A new stream of `earlier`, then every later element.
    func stream(
        startingWith earlier: [Element] = [], bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: bufferingPolicy)
        let id: Int? = subscribers.withLock { s in
            // Under the lock, so that no element sent meanwhile comes before them.
            for element in earlier { continuation.yield(element) }
            if s.finished { return nil }
            s.next += 1
            s.streams[s.next] = continuation
            return s.next
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.streams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Registers a handler, and what to do when the broadcaster finishes; returns its id for
    /// ``removeHandler(_:)``. After ``finish()`` it is never called (and `finish` runs at once).
    func addHandler(_ handler: @escaping @Sendable (Element) -> Void, finish: (@Sendable () -> Void)? = nil) -> Int {
        let added = subscribers.withLock { s -> Int? in
            if s.finished { return nil }
            s.next += 1
            s.handlers[s.next] = (handler, finish)
            return s.next
        }
        guard let added else {
            finish?()
            return -1
        }
        return added
    }

    /// Removes a handler.
    func removeHandler(_ id: Int) {
        let removed = subscribers.withLock { $0.handlers.removeValue(forKey: id) }
        withExtendedLifetime(removed) {}  // released outside the lock: its captures may run code then
    }

    /// Sends `element` to every stream and handler.
    func send(_ element: Element) {
        let (streams, handlers) = subscribers.withLock { (Array($0.streams.values), Array($0.handlers.values)) }
        for continuation in streams { continuation.yield(element) }
        for handler in handlers { handler.receive(element) }
    }

    /// Ends every stream; later subscribers get a finished stream and handlers are dropped.
    func finish() {
        let (streams, handlers) = subscribers.withLock { s in
            s.finished = true
            defer { s.streams = [:]; s.handlers = [:] }
            return (Array(s.streams.values), Array(s.handlers.values))
        }
        for continuation in streams { continuation.finish() }
        for handler in handlers { handler.finish?() }
    }
}
