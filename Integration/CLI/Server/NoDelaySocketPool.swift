import FlyingSocks
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// FlyingFox's socket pool with `TCP_NODELAY` turned on for every socket it waits on.
///
/// FlyingFox writes a response's header and body in two writes. With Nagle's algorithm on, the
/// body waits for the client to acknowledge the header, and a client that delays its ACK (40 ms
/// on Linux) stalls every answer on a kept-alive connection: 22 requests a second instead of
/// thousands. The listening socket is the first one the pool waits on, and accepted sockets
/// inherit the option from it; connection sockets get it again whenever they wait.
struct NoDelaySocketPool: AsyncSocketPool {
    /// The pool that does the work.
    let inner: any AsyncSocketPool

    func prepare() async throws { try await inner.prepare() }

    func run() async throws { try await inner.run() }

    func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
        try? socket.setValue(true, for: BoolSocketOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY))
        try await inner.suspendSocket(socket, untilReadyFor: events)
    }
}
