import FlyingSocks
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// FlyingFox's socket pool with `TCP_NODELAY` turned on for every socket it waits on.
///
/// Why it exists: FlyingFox writes a response's header and body in two writes. With Nagle's
/// algorithm on, the body waits for the client to acknowledge the header, and a client that delays
/// its ACK (40 ms on Linux) stalls every answer on a kept-alive connection. The listening socket is
/// the first one the pool waits on, and accepted sockets inherit the option from it; connection
/// sockets get it again whenever they wait. The CLI's server has the same wrapper
/// (`Integration/CLI/Server/NoDelaySocketPool.swift`); tests cannot import an executable target,
/// so these few lines are repeated here rather than shared.
package struct NoDelaySocketPool: AsyncSocketPool {
    /// The pool that does the work.
    package let inner: any AsyncSocketPool

    /// A pool that sets `TCP_NODELAY` and hands every call on to `inner`.
    package init(inner: any AsyncSocketPool) { self.inner = inner }

    /// Prepares the inner pool.
    package func prepare() async throws { try await inner.prepare() }

    /// Runs the inner pool.
    package func run() async throws { try await inner.run() }

    /// Sets `TCP_NODELAY` on `socket`, then waits on the inner pool.
    package func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        try? socket.setValue(true, for: BoolSocketOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY))
        try await inner.suspendSocket(socket, untilReadyFor: events)
    }
}
