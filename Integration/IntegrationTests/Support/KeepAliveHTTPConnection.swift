import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One keep-alive HTTP/1.1 connection to `127.0.0.1:port` with blocking socket calls: a load
/// generator's connection, for a thread of its own (never a cooperative-pool thread), sending one
/// request at a time and reading its `Content-Length` answer.
///
/// Every call is bounded by the socket's send and receive timeouts (a safety net of the harness).
/// Not `Sendable`: one thread owns a connection.
final class KeepAliveHTTPConnection {
    /// A failure of the connection or an answer it cannot read.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// An answer: the status and the body.
    struct Answer {
        var status: Int
        var body: [UInt8]
    }

    private let fd: Int32
    /// Bytes received past the previous answer.
    private var buffer: [UInt8] = []

    /// Connects to `127.0.0.1:port`; every send and receive gives up after `timeout` seconds.
    init(port: UInt16, timeout: Int = 20) throws {
        #if canImport(Glibc)
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw Failure(description: "socket(): errno \(errno)") }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(fd)
            throw Failure(description: "connect(127.0.0.1:\(port)): errno \(code)")
        }
    }

    deinit { close(fd) }

    /// Sends `method path` with `headers` and reads the answer.
    func send(_ method: String = "GET", _ path: String, headers: [String: String] = [:]) throws -> Answer {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        try write(Array(head.utf8))
        return try readAnswer()
    }

    private func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { socketSend(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure(description: "send(): errno \(errno)") }
            sent += count
        }
    }

    /// Reads more bytes into the buffer; throws at end of stream or on a timeout.
    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else {
            throw Failure(description: count == 0 ? "the server closed the connection" : "recv(): errno \(errno)")
        }
        buffer.append(contentsOf: chunk[0..<count])
    }

    private func readAnswer() throws -> Answer {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            if buffer.count >= 4 {
                headEnd = (0...(buffer.count - 4)).first { buffer[$0..<($0 + 4)].elementsEqual(separator) }
            }
            if headEnd == nil { try fill() }
        }
        guard let headEnd else { throw Failure(description: "no end of the head") }
        let head = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let statusWords = lines.first?.split(separator: " ") ?? []
        guard statusWords.count >= 2, let status = Int(statusWords[1]) else {
            throw Failure(description: "not an HTTP status line: \(lines.first ?? "")")
        }
        var length = 0
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length" {
                guard let value = Int(parts[1].trimmingCharacters(in: .whitespaces)) else {
                    throw Failure(description: "a bad Content-Length: \(line)")
                }
                length = value
            }
            if parts.count == 2, parts[0].lowercased() == "transfer-encoding" {
                throw Failure(description: "a chunked answer; this client reads Content-Length only")
            }
        }
        let bodyStart = headEnd + 4
        while buffer.count < bodyStart + length { try fill() }
        let body = Array(buffer[bodyStart..<(bodyStart + length)])
        buffer.removeFirst(bodyStart + length)
        return Answer(status: status, body: body)
    }
}

/// `send(2)`, named apart from the method.
private func socketSend(_ fd: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.send(fd, pointer, count, Int32(MSG_NOSIGNAL))
    #else
        Darwin.send(fd, pointer, count, 0)
    #endif
}
