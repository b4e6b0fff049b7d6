import FlyingFox
import FlyingSocks
import Foundation

/// Makes FlyingFox responses, well-formed or with the faults tests need.
package enum Reply {
    /// A response with this status, these headers and body.
    package static func make(_ status: Int, _ headers: [String: String] = [:], body: Data = Data()) -> HTTPResponse {
        var httpHeaders = HTTPHeaders()
        for (name, value) in headers { httpHeaders[HTTPHeader(name)] = value }
        return HTTPResponse(statusCode: HTTPStatusCode(status, phrase: "Status"), headers: httpHeaders, body: body)
    }

    /// A JSON `200`.
    package static func json(_ text: String, _ headers: [String: String] = [:]) -> HTTPResponse {
        var all = ["Content-Type": "application/json"]
        all.merge(headers) { _, new in new }
        return make(200, all, body: Data(text.utf8))
    }

    /// A `200` that announces `declared` bytes, sends `sent` of them, then drops the connection.
    package static func truncated(declared: Int, sent: Data) -> HTTPResponse {
        streamed(FailingBytes(prefix: sent), declared: declared)
    }

    /// A `200` that announces `declared` bytes, sends `prefix`, then stalls until `gate` releases it.
    package static func stalling(declared: Int, prefix: Data, gate: Gate) -> HTTPResponse {
        streamed(StallingBytes(prefix: prefix, gate: gate), declared: declared)
    }

    /// A chunked `200` that sends `sent` and then drops the connection (no length to compare with).
    package static func droppedChunked(sent: Data) -> HTTPResponse {
        streamed(FailingBytes(prefix: sent), declared: nil)
    }

    /// A `200` that streams `count` bytes of filler, with or without `Content-Length`, counting what
    /// it hands over in `counter`.
    package static func large(_ count: Int, declareLength: Bool, counter: ByteCounter? = nil) -> HTTPResponse {
        streamed(
            FailingBytes(fillerCount: count, failAtEnd: false, counter: counter), declared: declareLength ? count : nil)
    }

    /// A JSON-typed `200` whose body is `bytes`, with `Content-Length: declared` or chunked when nil.
    package static func streamed(_ bytes: some AsyncBufferedSequence<UInt8> & Sendable, declared: Int?) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers[.contentType] = "application/json"
        let body =
            declared.map { HTTPBodySequence(from: bytes, count: $0, suggestedBufferSize: 16_384) }
            ?? HTTPBodySequence(from: bytes, suggestedBufferSize: 16_384)
        return HTTPResponse(statusCode: .ok, headers: headers, body: body)
    }
}
