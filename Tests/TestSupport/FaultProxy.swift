import ConfigPorts
import Foundation

/// A TCP proxy on 127.0.0.1 that a test puts between a client and a real server, to break the
/// connection in the ways networks and servers break it.
///
/// The proxy listens on a free port of its own and forwards every connection to the server's port.
/// ``apply(_:)`` changes what it does, at once, for the connections open now and those to come:
///
/// | fault | what the client sees |
/// |---|---|
/// | ``Fault/pass`` | a healthy connection |
/// | ``Fault/refuse`` | the server is down: open connections are reset, new ones refused (`ECONNREFUSED`) |
/// | ``Fault/reset`` | every open connection is reset (RST) mid-stream; new ones pass |
/// | ``Fault/stall`` | connections stay open and nothing moves either way, until the next fault |
/// | ``Fault/halfOpen`` | the peer vanished without a FIN: nothing moves and the proxy never closes those connections, even after the next fault |
/// | ``Fault/trickle(interval:)`` | the server's bytes arrive one at a time |
/// | ``Fault/halfEvent`` | on each open connection, the server's next HTTP chunk arrives half, then the connection is reset |
/// | ``Fault/replay`` | on each open connection, the HTTP chunks already sent arrive again, whole, between two chunks |
///
/// `halfEvent` and `replay` act once per connection open when applied (a later ``apply(_:)`` does
/// not disarm them), and on the next connection opened until one of them has acted (so a client that
/// drops its connection just then still meets the fault); the others last until the next ``apply(_:)``. The proxy reads the server's
/// HTTP/1.1 responses (`Transfer-Encoding: chunked`, `Content-Length`, or until close) to find the
/// chunk boundaries: an event stream sends one chunk per event, so those two faults cut or repeat
/// whole events. A response to a `HEAD` request is not told apart: do not send one through it.
///
/// ``Fault/random(using:)`` picks a fault from a seeded generator, for soaks. ``counters`` say what
/// the proxy did, and ``waitUntil(within:_:)`` waits for it (never a sleep). ``stop()`` closes every
/// socket it opened; ``with(upstreamPort:_:)`` stops it whatever happens.
///
/// ```swift
/// try await FaultProxy.with(upstreamPort: server.port) { proxy in
///     let events = try SSEChangeSignalSource(url: proxy.url("/events"))
///     …
///     await proxy.apply(.halfOpen)
///     …
///     await proxy.apply(.pass)
/// }
/// ```
///
/// It runs on one thread of its own (`poll()` over non-blocking sockets), so a stalled or trickling
/// connection never holds a thread of Swift's cooperative pool.
package final class FaultProxy: Sendable {
    /// A way to break the connections; see the table on ``FaultProxy``.
    package enum Fault: Sendable, Hashable, CustomStringConvertible {
        /// Forward everything.
        case pass
        /// Reset the open connections and refuse new ones (the listening socket is closed, then opened again on the same port).
        case refuse
        /// Reset every open connection (RST), once; new connections pass.
        case reset
        /// Forward nothing either way on any connection, open or new, and close none, until the next fault.
        case stall
        /// Every open or new connection goes dead: nothing forwarded, never closed by the proxy until it stops.
        case halfOpen
        /// Forward the server's bytes one at a time, `interval` seconds apart.
        case trickle(interval: TimeInterval)
        /// On each open connection: forward half of the server's next HTTP chunk, then reset.
        case halfEvent
        /// On each open connection: send again, at the next chunk boundary, the chunks already forwarded (the last 64).
        case replay

        /// Every kind of fault, the trickle at 2 ms a byte.
        package static let all: [Fault] = [.refuse, .reset, .stall, .halfOpen, .trickle(interval: 0.002), .halfEvent, .replay]

        /// A fault drawn from `generator`, each of `kinds` (every kind by default) equally likely.
        package static func random(using generator: inout some RandomNumberGenerator, among kinds: [Fault] = all) -> Fault {
            kinds.isEmpty ? .pass : kinds[Int(generator.next() % UInt64(kinds.count))]
        }

        /// `trickle 2 ms`, `half-open`.
        package var description: String {
            switch self {
            case .pass: "pass"
            case .refuse: "refuse"
            case .reset: "reset"
            case .stall: "stall"
            case .halfOpen: "half-open"
            case .trickle(let interval): "trickle \(Int((interval * 1000).rounded())) ms"
            case .halfEvent: "half event"
            case .replay: "replay"
            }
        }

        /// The name without parameters, for tallies: `trickle`.
        package var kind: String {
            if case .trickle = self { return "trickle" }
            return description
        }
    }

    /// What the proxy did so far.
    package struct Counters: Sendable, Hashable {
        /// Connections accepted.
        package var accepted = 0
        /// Connections whose client side is still open (dead ones included, until the client closes them).
        package var open = 0
        /// Connections dead now (``Fault/halfOpen``) whose client has not closed them yet (counted in ``open`` too).
        package var dead = 0
        /// Connections that went dead (``Fault/halfOpen``), in all.
        package var killed = 0
        /// Connections reset by a fault (``Fault/refuse``, ``Fault/reset``, ``Fault/halfEvent``).
        package var resets = 0
        /// Chunks cut in half (``Fault/halfEvent``).
        package var cuts = 0
        /// Connections on which chunks were sent again (``Fault/replay``).
        package var replays = 0
        /// Chunks sent again.
        package var replayedChunks = 0
        /// Bytes forwarded to clients (replays included).
        package var bytesToClients = 0
        /// Bytes forwarded to the server.
        package var bytesToServer = 0
        /// Connections to the server that failed (the client's was then reset).
        package var upstreamFailures = 0
        /// Sockets the proxy holds now (listener and wake pipe included); 0 once stopped.
        package var sockets = 0
        /// Calls to ``apply(_:)``.
        package var faultsApplied = 0
    }

    /// The port the proxy listens on.
    package let port: UInt16
    /// The server's port on 127.0.0.1.
    package let upstreamPort: UInt16
    private let shared: ProxyShared
    private let finished: Eventual<Void>

    private init(port: UInt16, upstreamPort: UInt16, shared: ProxyShared, finished: Eventual<Void>) {
        self.port = port
        self.upstreamPort = upstreamPort
        self.shared = shared
        self.finished = finished
    }

    /// Starts a proxy to `127.0.0.1:upstreamPort`, forwarding (``Fault/pass``), on a free port.
    ///
    /// - Throws: ``FaultProxyError`` when a socket, the port or the thread cannot be had.
    package static func start(upstreamPort: UInt16) throws -> FaultProxy {
        let listener = try ProxySockets.listening(port: 0)
        let wake: (read: Int32, write: Int32)
        do {
            wake = try ProxySockets.makePipe()
        } catch {
            ProxySockets.release(listener.fd)
            throw error
        }
        let shared = ProxyShared(wakeFD: wake.write)
        let finished = Eventual<Void>()
        let settings = ProxyLoop.Settings(
            listener: listener.fd, port: listener.port, upstreamPort: upstreamPort, wakeRead: wake.read, wakeWrite: wake.write)
        let thread = Thread {
            ProxyLoop(settings: settings, shared: shared).run()
            finished.set(())
        }
        thread.name = "FaultProxy :\(listener.port) -> :\(upstreamPort)"
        thread.start()
        return FaultProxy(port: listener.port, upstreamPort: upstreamPort, shared: shared, finished: finished)
    }

    /// Runs `body` with a started proxy to `upstreamPort`, and stops it afterwards, whatever happens.
    package static func with<T: Sendable>(upstreamPort: UInt16, _ body: (FaultProxy) async throws -> T) async throws -> T {
        let proxy = try start(upstreamPort: upstreamPort)
        do {
            let result = try await body(proxy)
            await proxy.stop()
            return result
        } catch {
            await proxy.stop()
            throw error
        }
    }

    /// `http://127.0.0.1:<proxy port><path>`.
    package func url(_ path: String = "/") -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// Applies `fault` to the open connections and those to come; returns once the proxy's thread has.
    package func apply(_ fault: Fault) async {
        let done = Eventual<Void>()
        shared.send(.apply(fault, done))
        await done.value()
    }

    /// The fault applied last.
    package var fault: Fault { shared.published.withLock { $0.fault } }

    /// What the proxy did so far.
    package var counters: Counters { shared.published.withLock { $0.counters } }

    /// Waits until `predicate` holds for the counters; false when `seconds` pass first (a safety net).
    package func waitUntil(within seconds: TimeInterval, _ predicate: @escaping @Sendable (Counters) -> Bool) async -> Bool {
        let reached = Eventual<Void>()
        shared.watch(predicate, reached)
        return await reached.value(within: seconds) != nil
    }

    /// Closes every socket the proxy opened (the client's connections are reset) and ends its thread.
    package func stop() async {
        shared.send(.stop)
        await finished.value()
    }
}

/// A proxy could not be started.
package struct FaultProxyError: Error, CustomStringConvertible {
    /// What failed, with `errno`.
    package var description: String

    init(_ description: String) { self.description = description }
}

/// What the proxy's thread and the tasks that drive it share: commands in, counters out.
final class ProxyShared: Sendable {
    /// A request to the proxy's thread.
    enum Command: Sendable {
        case apply(FaultProxy.Fault, Eventual<Void>)
        case stop
    }

    struct Published: Sendable {
        var fault = FaultProxy.Fault.pass
        var counters = FaultProxy.Counters()
        var watchers: [(predicate: @Sendable (FaultProxy.Counters) -> Bool, reached: Eventual<Void>)] = []
    }

    /// Commands not yet taken, and whether the proxy's thread has ended (its wake-up pipe is closed then).
    private let inbox = Locked((commands: [Command](), closed: false))
    let published = Locked(Published())
    private let wakeFD: Int32

    init(wakeFD: Int32) { self.wakeFD = wakeFD }

    /// Queues `command` and wakes the proxy's thread; a command sent after the thread ended is done at once.
    func send(_ command: Command) {
        let queued = inbox.withLock { inbox -> Bool in
            guard !inbox.closed else { return false }
            inbox.commands.append(command)
            ProxySockets.wake(wakeFD)  // under the lock, so the pipe cannot be closed in between
            return true
        }
        if !queued, case .apply(_, let done) = command { done.set(()) }
    }

    /// The commands queued so far (on the proxy's thread).
    func takeInbox() -> [Command] {
        inbox.withLock { inbox in
            defer { inbox.commands = [] }
            return inbox.commands
        }
    }

    /// Marks the thread ended and closes the wake-up pipe's write end `wakeWrite`; returns the commands left.
    func closeInbox(closing wakeWrite: Int32) -> [Command] {
        inbox.withLock { inbox in
            inbox.closed = true
            ProxySockets.release(wakeWrite)
            defer { inbox.commands = [] }
            return inbox.commands
        }
    }

    /// Sets `reached` once `predicate` holds (now, or after a later ``publish(_:counters:)``).
    func watch(_ predicate: @escaping @Sendable (FaultProxy.Counters) -> Bool, _ reached: Eventual<Void>) {
        let now = published.withLock { published -> Bool in
            if predicate(published.counters) { return true }
            published.watchers.append((predicate, reached))
            return false
        }
        if now { reached.set(()) }
    }

    /// Publishes the proxy's state and sets the watchers whose predicate now holds.
    func publish(_ fault: FaultProxy.Fault, counters: FaultProxy.Counters) {
        let ready = published.withLock { published -> [Eventual<Void>] in
            published.fault = fault
            published.counters = counters
            let ready = published.watchers.filter { $0.predicate(counters) }.map(\.reached)
            published.watchers.removeAll { $0.predicate(counters) }
            return ready
        }
        for reached in ready { reached.set(()) }
    }
}
