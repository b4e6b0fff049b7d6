import Foundation

/// Reads an HTTP/1.1 response as its bytes arrive: the status, then the body, delimited by
/// `Content-Length`, by chunked encoding, or by the end of the connection. Chunk extensions and
/// trailers are skipped (etcd 3.4's gateway sends a trailer with every error answer).
struct HTTP1ResponseParser: Sendable {
    /// What the bytes fed so far said.
    enum Output: Sendable, Equatable {
        /// The status of the (final) response.
        case head(status: Int)
        /// Body bytes, de-chunked.
        case body(Data)
        /// The response is complete.
        case end
    }

    /// The bytes are not an HTTP/1.1 response.
    struct Malformed: Error, Sendable, Equatable {
        var reason: String
    }

    private enum Stage: Sendable {
        case head
        case body(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkEnd
        case trailers
        case untilClose
        case done
    }

    private var stage = Stage.head
    private var buffer: [UInt8] = []
    private var ended = false

    /// Whether the whole response has been read.
    var isComplete: Bool {
        if case .done = stage { return true }
        return false
    }

    /// Takes the next bytes and returns what they complete.
    mutating func feed(_ bytes: some Sequence<UInt8>) throws(Malformed) -> [Output] {
        buffer.append(contentsOf: bytes)
        var outputs: [Output] = []
        while let output = try step() {
            outputs.append(output)
            if case .end = output { break }
        }
        return outputs
    }

    /// The connection ended: completes a response delimited by the end of the connection, and
    /// throws for one cut short.
    mutating func finish() throws(Malformed) -> [Output] {
        switch stage {
        case .done: return []
        case .untilClose:
            stage = .done
            ended = true
            return [.end]
        default: throw Malformed(reason: "the connection closed before the response was complete")
        }
    }

    /// One step of parsing: an output, or `nil` when more bytes are needed (or the response has ended).
    private mutating func step() throws(Malformed) -> Output? {
        switch stage {
        case .head:
            guard let end = find([13, 10, 13, 10]) else { return nil }
            let head = String(decoding: buffer[..<end], as: UTF8.self)
            buffer.removeFirst(end + 4)
            return try parseHead(head)
        case .body(let remaining):
            guard let chunk = takeBytes(upTo: remaining) else { return nil }
            stage = remaining == chunk.count ? .done : .body(remaining: remaining - chunk.count)
            return .body(chunk)
        case .untilClose:
            guard !buffer.isEmpty else { return nil }
            defer { buffer.removeAll() }
            return .body(Data(buffer))
        case .chunkSize:
            guard let line = takeLine() else { return nil }
            let digits = line.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
            guard let size = Int(digits, radix: 16), size >= 0 else {
                throw Malformed(reason: "a chunk size is not hexadecimal: \(line.prefix(20))")
            }
            stage = size == 0 ? .trailers : .chunkData(remaining: size)
            return try step()
        case .chunkData(let remaining):
            guard let chunk = takeBytes(upTo: remaining) else { return nil }
            stage = remaining == chunk.count ? .chunkEnd : .chunkData(remaining: remaining - chunk.count)
            return .body(chunk)
        case .chunkEnd:
            guard let line = takeLine() else { return nil }
            guard line.isEmpty else { throw Malformed(reason: "a chunk is longer than its size") }
            stage = .chunkSize
            return try step()
        case .trailers:
            guard let line = takeLine() else { return nil }
            if !line.isEmpty { return try step() }
            stage = .done
            return try step()
        case .done:
            if ended { return nil }
            ended = true
            return .end
        }
    }

    /// Reads the status line and the headers, and decides how the body is delimited.
    private mutating func parseHead(_ head: String) throws(Malformed) -> Output? {
        let lines = head.components(separatedBy: "\r\n")
        let statusParts = (lines.first ?? "").split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            throw Malformed(reason: "not an HTTP/1.x status line: \((lines.first ?? "").prefix(40))")
        }
        // An informational answer (100 Continue) is followed by the real one.
        if (100..<200).contains(status) { return try step() }
        var length: Int?
        var chunked = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if name == "content-length" { length = Int(value) }
            if name == "transfer-encoding" && value.lowercased().contains("chunked") { chunked = true }
        }
        if status == 204 || status == 304 {
            stage = .done
        } else if chunked {
            stage = .chunkSize
        } else if let length {
            stage = length == 0 ? .done : .body(remaining: length)
        } else {
            stage = .untilClose
        }
        return .head(status: status)
    }

    /// The first index of `pattern` in the buffer.
    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for start in 0...(buffer.count - pattern.count) where buffer[start..<(start + pattern.count)].elementsEqual(pattern) {
            return start
        }
        return nil
    }

    /// Takes up to `limit` bytes from the buffer; `nil` when it is empty.
    private mutating func takeBytes(upTo limit: Int) -> Data? {
        guard !buffer.isEmpty else { return nil }
        let count = min(limit, buffer.count)
        let bytes = Data(buffer[..<count])
        buffer.removeFirst(count)
        return bytes
    }

    /// Takes one CRLF-terminated line from the buffer, without its CRLF.
    private mutating func takeLine() -> String? {
        guard let end = find([13, 10]) else { return nil }
        let line = String(decoding: buffer[..<end], as: UTF8.self)
        buffer.removeFirst(end + 2)
        return line
    }
}
