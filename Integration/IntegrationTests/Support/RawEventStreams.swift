import ConfigPorts
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Many plain TCP connections reading one event stream each, read with `poll()` on one thread:
/// cheap enough to open thousands, to measure how many a server holds and feeds at once.
final class RawEventStreams: Sendable {
    private struct State {
        /// The open connections; empty once closed.
        var sockets: [Int32]
        /// What each connection has read so far, by the connection's index.
        var received: [[UInt8]]
    }

    private let state: Locked<State>

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Opens `count` connections to `127.0.0.1:port` and sends each `GET path`.
    init(count: Int, port: UInt16, path: String) throws {
        let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8)
        var sockets: [Int32] = []
        for _ in 0..<count {
            #if canImport(Glibc)
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                let fd = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            guard fd >= 0 else { throw Self.failure("socket()", closing: sockets) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            sockets.append(fd)
            guard connected == 0 else { throw Self.failure("connect()", closing: sockets) }
            guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count else {
                throw Self.failure("send()", closing: sockets)
            }
        }
        state = Locked(State(sockets: sockets, received: Array(repeating: [], count: sockets.count)))
    }

    /// Closes `sockets` and describes the failed call (with `errno`, read first).
    private static func failure(_ call: String, closing sockets: [Int32]) -> Failure {
        let code = errno
        closeAll(sockets)
        return Failure(description: "\(call) failed with errno \(code) after \(sockets.count) connections were opened")
    }

    /// Reads until every connection's bytes contain `text`; returns the seconds it took, or nil after `limit` seconds.
    func waitUntilEveryStreamContains(_ text: String, limit: TimeInterval) -> TimeInterval? {
        let needle = Array(text.utf8)
        let start = Date()
        let (sockets, pendingAtStart) = state.withLock { state in
            (state.sockets, state.sockets.indices.filter { !Self.contains(state.received[$0], needle) })
        }
        var pending = Set(pendingAtStart)
        var descriptors = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !pending.isEmpty {
            let elapsed = Date().timeIntervalSince(start)
            if elapsed > limit { return nil }
            let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(max(1, (limit - elapsed) * 1000)))
            if ready <= 0 { continue }
            for index in descriptors.indices where descriptors[index].revents != 0 {
                descriptors[index].revents = 0
                let count = recv(sockets[index], &buffer, buffer.count, 0)
                guard count > 0 else { continue }
                let wanted = pending.contains(index)
                let found = state.withLock { state in
                    state.received[index] += buffer[0..<count]
                    return wanted && Self.contains(state.received[index], needle)
                }
                if found { pending.remove(index) }
            }
        }
        return Date().timeIntervalSince(start)
    }

    /// Forgets what was read so far.
    func clearReceived() {
        state.withLock { state in
            for index in state.received.indices { state.received[index].removeAll() }
        }
    }

    /// Closes every connection.
    func close() {
        let sockets = state.withLock { state in
            defer { state.sockets = [] }
            return state.sockets
        }
        Self.closeAll(sockets)
    }

    private static func closeAll(_ sockets: [Int32]) {
        for fd in sockets {
            #if canImport(Glibc)
                _ = Glibc.close(fd)
            #else
                _ = Darwin.close(fd)
            #endif
        }
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
