import FlyingFox
import Foundation

extension TestHTTPServer {
    /// A misbehaviour for the next request(s), injected with ``TestHTTPServer/inject(_:count:)``.
    package enum Fault: Sendable, Hashable, CustomStringConvertible {
        /// Answer with this status (and `Retry-After` when given) and a short text body.
        case status(Int, retryAfter: String? = nil)
        /// Answer normally, but only after this many seconds (a server slower than the client's timeout).
        case delay(TimeInterval)
        /// Never answer until ``TestHTTPServer/releaseHangs()`` or ``TestHTTPServer/stop()``.
        case hang
        /// Announce `extra` more bytes than the body has, send the body, then close the connection.
        case wrongContentLength(extra: Int)
        /// Send half of the body without a length (chunked), then close the connection.
        case closeMidBody
        /// Stream a JSON-typed body of this many bytes (declared with `Content-Length` or not).
        case oversized(bytes: Int, declared: Bool)
        /// Serve the document with this `Content-Type` (`nil`: none).
        case contentType(String?)
        /// Redirect between two paths forever.
        case redirectLoop
        /// Answer `200` with a JSON type and no body.
        case emptyBody
        /// Serve these bytes as JSON instead of the document (for a payload that does not decode).
        case body(Data)

        /// The fault, as a test argument names it.
        package var description: String {
            switch self {
            case .status(let code, let retryAfter): "status \(code)" + (retryAfter.map { " Retry-After \($0)" } ?? "")
            case .delay(let seconds): "delay \(seconds) s"
            case .hang: "hang"
            case .wrongContentLength(let extra): "Content-Length \(extra) too large, then close"
            case .closeMidBody: "close mid-body"
            case .oversized(let bytes, let declared): "\(bytes)-byte body\(declared ? "" : " without length")"
            case .contentType(let type): "content type \(type ?? "none")"
            case .redirectLoop: "redirect loop"
            case .emptyBody: "empty body"
            case .body(let data): "\(data.count) other bytes"
            }
        }

        /// The paths the redirect loop bounces between; requests to them never take a fault.
        static let loopPaths = ["/__loop/a": "/__loop/b", "/__loop/b": "/__loop/a"]

        /// The faulty answer. `body` is the document the request would have got (`{}` when there
        /// is none), `normal` the answer without the fault, and `hangs` what a hang waits for.
        func answer(
            body: Data?, hangs: Gate, normal: () async throws -> HTTPResponse
        ) async throws -> HTTPResponse {
            let body = body ?? Data("{}".utf8)
            switch self {
            case .status(let code, let retryAfter):
                var headers = ["Content-Type": "text/plain"]
                if let retryAfter { headers["Retry-After"] = retryAfter }
                return Reply.make(code, headers, body: Data("injected \(code)".utf8))
            case .delay(let seconds):
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                return try await normal()
            case .hang:
                await hangs.wait()
                return Reply.make(503)
            case .wrongContentLength(let extra):
                return Reply.streamed(FailingBytes(prefix: body), declared: body.count + extra)
            case .closeMidBody:
                return Reply.droppedChunked(sent: body.prefix(body.count / 2))
            case .oversized(let bytes, let declared):
                return Reply.large(bytes, declareLength: declared)
            case .contentType(let type):
                return Reply.make(200, type.map { ["Content-Type": $0] } ?? [:], body: body)
            case .redirectLoop:
                return Reply.make(302, ["Location": "/__loop/a"])
            case .emptyBody:
                return Reply.make(200, ["Content-Type": "application/json"])
            case .body(let data):
                return Reply.make(200, ["Content-Type": "application/json"], body: data)
            }
        }
    }
}
