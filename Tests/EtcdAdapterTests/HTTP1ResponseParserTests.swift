import Foundation
import Testing

@testable import EtcdAdapter

@Suite("HTTP1ResponseParser")
struct HTTP1ResponseParserTests {
    private typealias Output = HTTP1ResponseParser.Output

    /// Feeds `text` in pieces of `size` bytes and collects every output.
    private func parse(_ text: String, pieces size: Int) throws -> [Output] {
        var parser = HTTP1ResponseParser()
        let bytes = Array(text.utf8)
        var outputs: [Output] = []
        var start = 0
        while start < bytes.count {
            outputs += try parser.feed(bytes[start..<min(start + size, bytes.count)])
            start += size
        }
        return outputs
    }

    /// The body bytes of `outputs`, joined.
    private func body(_ outputs: [Output]) -> String {
        outputs.reduce(into: "") { text, output in
            if case .body(let data) = output { text += String(decoding: data, as: UTF8.self) }
        }
    }

    /// etcd 3.4's answer to a request with an invalid token, as it sends it: chunked, with a trailer.
    private static let etcdError =
        "HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nTrailer: Grpc-Trailer-Content-Type\r\n"
        + "Transfer-Encoding: chunked\r\n\r\n5f\r\n"
        + #"{"error":"etcdserver: invalid auth token","message":"etcdserver: invalid auth token","code":16}"#
        + "\r\n0\r\nGrpc-Trailer-Content-Type: application/grpc\r\n\r\n"

    @Test("a chunked answer with a trailer (etcd 3.4's errors) is read whole, byte by byte or at once", arguments: [1, 7, 4096])
    func trailers(pieces: Int) throws {
        let outputs = try parse(Self.etcdError, pieces: pieces)
        #expect(outputs.first == .head(status: 401))
        #expect(outputs.last == .end)
        #expect(body(outputs).hasSuffix(#""code":16}"#))
        #expect(body(outputs).hasPrefix(#"{"error""#))
    }

    @Test("a Content-Length body ends at its length; bytes after it are not read")
    func contentLength() throws {
        let outputs = try parse("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello, extra", pieces: 3)
        #expect(outputs.first == .head(status: 200))
        #expect(body(outputs) == "hello")
        #expect(outputs.last == .end)
    }

    @Test("chunk extensions are skipped; a body without length ends with the connection")
    func extensionsAndClose() throws {
        let chunked = try parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n0\r\n\r\n", pieces: 2)
        #expect(body(chunked) == "abc")
        #expect(chunked.last == .end)

        var parser = HTTP1ResponseParser()
        let open = try parser.feed(Array("HTTP/1.0 200 OK\r\n\r\nstreamed".utf8))
        #expect(body(open) == "streamed")
        #expect(!parser.isComplete)
        #expect(try parser.finish() == [.end])
    }

    @Test("an informational answer is skipped; 204 has no body")
    func statusesWithoutBody() throws {
        let outputs = try parse("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n", pieces: 5)
        #expect(outputs == [.head(status: 204), .end])
    }

    @Test("a watch stream's chunks arrive as they come, before the answer ends")
    func streaming() throws {
        var parser = HTTP1ResponseParser()
        let head = try parser.feed(Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n".utf8))
        #expect(head == [.head(status: 200)])
        let first = try parser.feed(Array("6\r\nline1\n\r\n".utf8))
        #expect(body(first) == "line1\n")
        #expect(!parser.isComplete)
    }

    @Test("not HTTP, a bad chunk size, a chunk longer than announced, or an answer cut short are errors")
    func malformed() throws {
        #expect(throws: HTTP1ResponseParser.Malformed.self) { try parse("SSH-2.0-OpenSSH\r\n\r\n", pieces: 100) }
        #expect(throws: HTTP1ResponseParser.Malformed.self) {
            try parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", pieces: 100)
        }
        #expect(throws: HTTP1ResponseParser.Malformed.self) {
            try parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n", pieces: 100)
        }
        var parser = HTTP1ResponseParser()
        _ = try parser.feed(Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".utf8))
        #expect(throws: HTTP1ResponseParser.Malformed.self) { try parser.finish() }
    }
}
