#if canImport(Glibc)
    import ConfigPorts
    import Foundation
    import FoundationNetworking
    import Glibc

    /// Plain-HTTP/1.1 unary calls over a TCP socket of their own, each on a thread of its own, for Linux.
    ///
    /// Why not `URLSession` there: swift-corelibs-foundation stops the process ("Transfer completed,
    /// but there's no response") when a response carries HTTP trailers, and etcd 3.4's gateway adds
    /// a trailer to every error answer of a unary call (no leader, invalid token, permission denied).
    /// This transport reads trailers and skips them. It speaks plain `http://` only; `https://` goes
    /// to `URLSession`, and so do watches, whose answers carry no trailers (``GatewayTransport``).
    ///
    /// Each request opens a connection (`Connection: close`), writes the request, and reads the
    /// response with ``HTTP1ResponseParser`` until it ends, the deadline passes, or it is cancelled
    /// (which shuts the socket down, so a blocked read returns at once).
    enum SocketTransport {
        /// The socket while it is open, and whether the request was cancelled.
        private struct Connection: Sendable {
            var descriptor: Int32?
            var cancelled = false
        }

        /// Starts `request` (an `http://` URL) and returns what happens to it, with a way to cancel it.
        static func start(_ request: URLRequest) -> (events: AsyncStream<HTTPEvent>, cancel: @Sendable () -> Void) {
            let (events, continuation) = AsyncStream.makeStream(of: HTTPEvent.self)
            let connection = Locked(Connection())
            let cancel: @Sendable () -> Void = {
                connection.withLock { state in
                    state.cancelled = true
                    if let descriptor = state.descriptor { shutdown(descriptor, Int32(SHUT_RDWR)) }
                }
            }
            continuation.onTermination = { _ in cancel() }
            Thread.detachNewThread {
                let failure = run(request, connection, continuation)
                continuation.yield(.finished(failure: failure))
                continuation.finish()
            }
            return (events, cancel)
        }

        /// Runs the request to its end; the failure, or `nil` when the response was read whole.
        private static func run(
            _ request: URLRequest, _ connection: Locked<Connection>, _ continuation: AsyncStream<HTTPEvent>.Continuation
        ) -> String? {
            guard let url = request.url, let host = url.host else { return "the request has no URL" }
            let deadline = Date().addingTimeInterval(request.timeoutInterval)
            let descriptor: Int32
            switch connect(host: host, port: url.port ?? 80, deadline: deadline, connection) {
            case .success(let opened): descriptor = opened
            case .failure(let failure): return failure.reason
            }
            defer {
                connection.withLock { $0.descriptor = nil }
                close(descriptor)
            }
            if let failure = send(head(of: request, url: url) + (request.httpBody ?? Data()), on: descriptor, deadline: deadline)
            {
                return connection.withLock { $0.cancelled } ? "cancelled" : failure
            }
            var parser = HTTP1ResponseParser()
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while !parser.isComplete {
                if let failure = wait(for: Int16(POLLIN), on: descriptor, deadline: deadline) { return failure }
                let count = recv(descriptor, &chunk, chunk.count, 0)
                if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                if connection.withLock({ $0.cancelled }) { return "cancelled" }
                do throws(HTTP1ResponseParser.Malformed) {
                    let outputs = count > 0 ? try parser.feed(chunk[0..<count]) : try parser.finish()
                    for output in outputs {
                        switch output {
                        case .head(let status): continuation.yield(.response(status: status))
                        case .body(let data): continuation.yield(.data(data))
                        case .end: return nil
                        }
                    }
                } catch {
                    return count < 0 ? describe(errno) : (count == 0 ? "connection lost" : error.reason)
                }
            }
            return nil
        }

        /// The request line and headers: the request's own, then `Host`, `Content-Length` and `Connection: close`.
        private static func head(of request: URLRequest, url: URL) -> Data {
            var target = url.path.isEmpty ? "/" : url.path
            if let query = url.query { target += "?" + query }
            var lines = ["\(request.httpMethod ?? "GET") \(target) HTTP/1.1", "Host: \(url.host ?? ""):\(url.port ?? 80)"]
            for (name, value) in request.allHTTPHeaderFields ?? [:] { lines.append("\(name): \(value)") }
            lines.append("Content-Length: \(request.httpBody?.count ?? 0)")
            lines.append("Connection: close")
            return Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        }

        private struct Failure: Error {
            var reason: String
        }

        /// A connected, non-blocking socket to `host:port`, trying each address in turn.
        private static func connect(
            host: String, port: Int, deadline: Date, _ connection: Locked<Connection>
        ) -> Result<Int32, Failure> {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
                return .failure(Failure(reason: "host not found"))
            }
            defer { freeaddrinfo(list) }
            var reason = "no address to connect to"
            var next: UnsafeMutablePointer<addrinfo>? = first
            while let address = next {
                next = address.pointee.ai_next
                let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
                guard descriptor >= 0 else { continue }
                let registered = connection.withLock { state in
                    if state.cancelled { return false }
                    state.descriptor = descriptor
                    return true
                }
                guard registered else {
                    close(descriptor)
                    return .failure(Failure(reason: "cancelled"))
                }
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
                var failure: String?
                if Glibc.connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) != 0 {
                    failure =
                        errno == EINPROGRESS ? wait(for: Int16(POLLOUT), on: descriptor, deadline: deadline) : describe(errno)
                    if failure == nil {
                        var error: Int32 = 0
                        var length = socklen_t(MemoryLayout<Int32>.size)
                        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
                        if error != 0 { failure = describe(error) }
                    }
                }
                guard let failure else { return .success(descriptor) }
                connection.withLock { $0.descriptor = nil }
                close(descriptor)
                reason = failure
            }
            return .failure(Failure(reason: reason))
        }

        /// Writes all of `data`; the failure, if any.
        private static func send(_ data: Data, on descriptor: Int32, deadline: Date) -> String? {
            let bytes = [UInt8](data)
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes {
                    Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if count > 0 {
                    sent += count
                } else if errno == EAGAIN || errno == EINTR {
                    if let failure = wait(for: Int16(POLLOUT), on: descriptor, deadline: deadline) { return failure }
                } else {
                    return describe(errno)
                }
            }
            return nil
        }

        /// Waits until the socket is ready for `events` (or closed); `timed out` when the deadline passes first.
        private static func wait(for events: Int16, on descriptor: Int32, deadline: Date) -> String? {
            while true {
                let remaining = deadline.timeIntervalSinceNow
                guard remaining > 0 else { return "timed out" }
                var poller = pollfd(fd: descriptor, events: events, revents: 0)
                let result = poll(&poller, 1, Int32(min(remaining * 1000, 3_600_000).rounded(.up)))
                if result > 0 { return nil }
                if result < 0 && errno != EINTR { return describe(errno) }
            }
        }

        /// A socket error in a few words.
        private static func describe(_ code: Int32) -> String {
            switch code {
            case ECONNREFUSED: "connection refused"
            case ECONNRESET: "connection reset"
            case ETIMEDOUT: "timed out"
            case EHOSTUNREACH, ENETUNREACH: "host unreachable"
            default: String(cString: strerror(code))
            }
        }
    }
#endif
