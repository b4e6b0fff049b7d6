import Foundation

/// Fans values out to any number of `AsyncStream` subscribers and closure handlers.
///
/// Each subscriber has its own buffer policy; a cancelled consumer is removed by `onTermination`.
///
/// The subscriber table is made by the first subscription: a client has two broadcasters from
/// its build on, and most events of a launch (the cache load, say) have no subscriber yet. A
/// table of continuations and handlers is made of generic types whose metadata the runtime builds
/// from mangled names on first use, a few microseconds each, which a client built at launch
/// would otherwise pay before its first read.
///
/// `@unchecked Sendable`: `table` and `finished` are only read or written while holding `lock`.
final class Broadcaster<Element: Sendable>: @unchecked Sendable {
    /// The subscribers so far.
    private final class Table {
        var next = 0
        var streams: [Int: AsyncStream<Element>.Continuation] = [:]
        var handlers: [Int: @Sendable (Element) -> Void] = [:]

        /// A new id.
        func take() -> Int {
            defer { next += 1 }
            return next
        }
    }

    private let lock = NSLock()
    private var table: Table?
    private var finished = false

    /// The table, made on first use; nil once finished. Call while holding `lock`.
    private func tableForAdding() -> Table? {
        if finished { return nil }
        if let table { return table }
        let made = Table()
        table = made
        return made
    }

    /// A new stream of every later element.
    func stream(bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded, initial: Element? = nil)
        -> AsyncStream<Element>
    {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: bufferingPolicy)
        lock.lock()
        let id: Int? = tableForAdding().map { table in
            let id = table.take()
            table.streams[id] = continuation
            return id
        }
        lock.unlock()
        guard let id else {
            continuation.finish()
            return stream
        }
        if let initial { continuation.yield(initial) }
        continuation.onTermination = { [weak self] _ in self?.removeStream(id) }
        return stream
    }

    /// Registers a handler; returns its id for ``removeHandler(_:)``. After ``finish()`` the
    /// handler is never called.
    func addHandler(_ handler: @escaping @Sendable (Element) -> Void) -> Int {
        lock.lock()
        defer { lock.unlock() }
        guard let table = tableForAdding() else { return -1 }
        let id = table.take()
        table.handlers[id] = handler
        return id
    }

    /// Removes a handler.
    func removeHandler(_ id: Int) {
        lock.lock()
        let removed = table?.handlers.removeValue(forKey: id)
        lock.unlock()
        // Released outside the lock: a handler's captures may run code when they are released.
        withExtendedLifetime(removed) {}
    }

    private func removeStream(_ id: Int) {
        lock.lock()
        let removed = table?.streams.removeValue(forKey: id)
        lock.unlock()
        withExtendedLifetime(removed) {}
    }

    /// Sends `element` to every subscriber and handler.
    func send(_ element: Element) {
        lock.lock()
        let table = self.table
        lock.unlock()
        guard let table else { return }
        deliver(element, to: table)
    }

    /// Hands `element` to the subscribers in `table`.
    ///
    /// Not inlined: a stream's continuation is a type whose size the compiler does not know, so a
    /// function that holds one asks the runtime for its metadata on entry. Inlined into `send`, and
    /// `send` into the client's build, that would be paid by every build, subscriber or not.
    @inline(never)
    private func deliver(_ element: Element, to table: Table) {
        lock.lock()
        let streams = Array(table.streams.values)
        let handlers = Array(table.handlers.values)
        lock.unlock()
        for continuation in streams { continuation.yield(element) }
        for handler in handlers { handler(element) }
    }

    /// Ends every stream; later subscribers get a finished stream.
    func finish() {
        lock.lock()
        finished = true
        let ended = table
        table = nil
        lock.unlock()
        guard let ended else { return }
        for continuation in ended.streams.values { continuation.finish() }
    }
}
