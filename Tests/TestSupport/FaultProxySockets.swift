import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The few POSIX socket calls the ``FaultProxy`` makes, on 127.0.0.1, every descriptor non-blocking.
enum ProxySockets {
    /// What a non-blocking read or write did.
    enum Transfer {
        /// This many bytes moved.
        case moved(Int)
        /// Nothing can move now; poll again.
        case wouldBlock
        /// The peer closed its end (a read of 0 bytes).
        case closed
        /// The connection failed (reset, broken pipe), with `errno`.
        case failed(Int32)
    }

    /// The event `poll()` reports when the peer closed its end, even while the proxy does not read.
    #if os(Linux)
        static let peerClosed: Int16 = 0x2000  // POLLRDHUP, which Glibc's module hides behind _GNU_SOURCE
    #else
        static let peerClosed = Int16(POLLHUP)
    #endif

    /// A non-blocking TCP socket, or an error naming `errno`.
    private static func makeSocket() throws(FaultProxyError) -> Int32 {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw FaultProxyError("socket() failed with errno \(errno)") }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        #if canImport(Darwin)
            var on: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        return fd
    }

    /// The address `127.0.0.1:port`.
    private static func loopback(_ port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A listening socket on `127.0.0.1:port` (0: a free port) and the port it got.
    static func listening(port: UInt16) throws(FaultProxyError) -> (fd: Int32, port: UInt16) {
        let fd = try makeSocket()
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else {
            let code = errno
            close(fd)
            throw FaultProxyError("could not listen on 127.0.0.1:\(port) (errno \(code))")
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, UInt16(bigEndian: actual.sin_port))
    }

    /// Accepts a pending connection (non-blocking), or nil when none is pending.
    static func acceptPending(_ listener: Int32) -> Int32? {
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        return fd
    }

    /// Starts connecting to `127.0.0.1:port` (finish with ``connectResult(_:)`` once writable).
    static func connecting(to port: UInt16) throws(FaultProxyError) -> Int32 {
        let fd = try makeSocket()
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        var address = loopback(port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if result != 0 && errno != EINPROGRESS {
            let code = errno
            close(fd)
            throw FaultProxyError("connect() to 127.0.0.1:\(port) failed with errno \(code)")
        }
        return fd
    }

    /// Whether a non-blocking connect succeeded (0) or its `errno`.
    static func connectResult(_ fd: Int32) -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
        return code
    }

    /// Reads up to `count` bytes.
    static func receive(_ fd: Int32, into buffer: inout [UInt8], count: Int = 64 * 1024) -> Transfer {
        var chunk = [UInt8](repeating: 0, count: count)
        let result = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, count, 0) }
        if result > 0 {
            buffer.append(contentsOf: chunk[0..<result])
            return .moved(result)
        }
        if result == 0 { return .closed }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .wouldBlock : .failed(errno)
    }

    /// Writes up to `limit` bytes of `bytes` from `offset`.
    static func transmit(_ fd: Int32, _ bytes: [UInt8], from offset: Int, limit: Int = .max) -> Transfer {
        let count = min(bytes.count - offset, limit)
        guard count > 0 else { return .moved(0) }
        #if os(Linux)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        let result = bytes.withUnsafeBytes { send(fd, $0.baseAddress.map { $0 + offset }, count, flags) }
        if result >= 0 { return .moved(result) }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .wouldBlock : .failed(errno)
    }

    /// Closes `fd` so that the peer gets a reset (RST) rather than an orderly end (FIN).
    static func reset(_ fd: Int32) {
        var abortive = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &abortive, socklen_t(MemoryLayout<linger>.size))
        close(fd)
    }

    /// Closes `fd`.
    static func release(_ fd: Int32) { close(fd) }

    /// A non-blocking pipe: the proxy's thread polls its read end; other threads write a byte to wake it.
    static func makePipe() throws(FaultProxyError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw FaultProxyError("pipe() failed with errno \(errno)") }
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        return (ends[0], ends[1])
    }

    /// Wakes the thread polling the pipe whose write end is `fd` (a full pipe is awake already).
    static func wake(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }

    /// Empties the pipe's read end `fd`.
    static func drain(_ fd: Int32) {
        var bytes = [UInt8](repeating: 0, count: 256)
        while bytes.withUnsafeMutableBytes({ read(fd, $0.baseAddress, 256) }) > 0 {}
    }
}
