import FlyingFox
import Foundation
import TestSupport
import Testing

@testable import EtcdAdapter

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The gateway's two ways to travel, against a loopback server: HTTPSupport's streaming session (watches, and
/// everything off Linux) and the socket transport (unary calls to `http://` on Linux).
@Suite("GatewayTransport")
struct GatewayTransportTests {
    /// Everything `events` delivers until it ends.
    private func collect(_ events: AsyncStream<HTTPEvent>) async -> (status: Int, body: Data, failure: String??) {
        var status = 0
        var body = Data()
        var failure: String??
        for await event in events {
            switch event {
            case .response(let code): status = code
            case .data(let chunk): body.append(chunk)
            case .finished(let reason): failure = .some(reason)
            }
        }
        return (status, body, failure)
    }

    private func post(_ url: URL) -> URLRequest {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 30)
        request.httpMethod = "POST"
        request.httpBody = Data("{}".utf8)
        return request
    }

    @Test("a request on the streaming session reports its status, its body and a clean end, as the socket transport does")
    func bothWaysReportTheSame() async throws {
        try await TestHTTPServer.with({ _ in
            Reply.make(503, ["Content-Type": "application/json"], body: Data(#"{"code":14}"#.utf8))
        }) {
            server in
            let transport = GatewayTransport()
            let streamed = await collect(transport.stream(post(server.url("/v3/watch"))).events)
            let unary = await collect(transport.send(post(server.url("/v3/kv/range"))))
            for answer in [streamed, unary] {
                #expect(answer.status == 503)
                #expect(answer.body == Data(#"{"code":14}"#.utf8))
                #expect(answer.failure == .some(nil))
            }
        }
    }

    @Test("cancelling a stream from elsewhere ends it with the failure \"cancelled\"")
    func cancelFromElsewhere() async throws {
        let gate = Gate()
        try await TestHTTPServer.with({ _ in
            await gate.wait()
            return Reply.json("{}")
        }) { server in
            let (events, cancel) = GatewayTransport().stream(post(server.url("/v3/watch")))
            let reader = Task { await collect(events) }
            try await Task.sleep(nanoseconds: 100_000_000)
            cancel()
            #expect(await reader.value.failure == .some("cancelled"))
            gate.open()
        }
    }

    @Test("a refused connection is \"connection refused\" on the streaming session and on the socket transport")
    func refused() async throws {
        let port = try #require(unusedLoopbackPort())
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/v3/watch"))
        let transport = GatewayTransport()
        let streamed = await collect(transport.stream(post(url)).events)
        let unary = await collect(transport.send(post(url)))
        #expect(streamed.failure == .some("connection refused"))
        #expect(unary.failure == .some("connection refused"))
    }
}

/// A loopback TCP port with no listener: bound to port 0, read back, closed (a stopped in-process server may still
/// reset a connection it half-accepted).
private func unusedLoopbackPort() -> UInt16? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard bound == 0 else { return nil }
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard named == 0 else { return nil }
    return UInt16(bigEndian: address.sin_port)
}
