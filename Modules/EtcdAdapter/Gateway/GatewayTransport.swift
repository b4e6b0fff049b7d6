import ConfigPorts
import Foundation
import HTTPSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What happens to one HTTP request, in the order it happens.
package enum HTTPEvent: Sendable {
    /// The response head arrived with this status.
    case response(status: Int)
    /// Body bytes arrived.
    case data(Data)
    /// The request ended: cleanly (`nil`), or with this transport failure ("connection refused").
    case finished(failure: String?)
}

/// How the gateway's requests travel: on HTTPSupport's `StreamingSession`, except unary calls to `http://` on Linux.
///
/// Each request reports what happens to it as an `AsyncStream`, so a watch can be read while it streams. The unary
/// calls to `http://` on Linux go to ``SocketTransport``: swift-corelibs-foundation stops the process ("Transfer
/// completed, but there's no response") when a response carries HTTP trailers, and etcd 3.4's gateway adds one to
/// every error answer of a unary call (`Grpc-Trailer-Content-Type`). Its watch answers carry none (checked against
/// etcd 3.4.23: a created watch, events, a cancelled or compacted watch, a refused token, a member without a leader),
/// so watches stream on the `URLSession` everywhere.
///
/// It has `package` access for the integration tests' own etcd client, which needs the same way around that crash.
package final class GatewayTransport: Sendable {
    private let session = HTTPSupport.StreamingSession()

    /// Creates the transport; its session is ephemeral, with no URL cache, cookies or stored credentials.
    package init() {}

    /// Starts the unary call `request` and returns what happens to it.
    package func send(_ request: URLRequest) -> AsyncStream<HTTPEvent> { start(request).events }

    /// Starts the unary call `request` and returns what happens to it, with a way to cancel it from elsewhere.
    ///
    /// A cancelled stream ends with `.finished(failure: "cancelled")`.
    func start(_ request: URLRequest) -> (events: AsyncStream<HTTPEvent>, cancel: @Sendable () -> Void) {
        #if canImport(Glibc)
            if request.url?.scheme?.lowercased() == "http" { return SocketTransport.start(request) }
        #endif
        return stream(request)
    }

    /// Starts `request` on the streaming session and returns what happens to it, with a way to cancel it from elsewhere.
    ///
    /// A cancelled stream ends with `.finished(failure: "cancelled")`; ending the stream cancels the request.
    func stream(_ request: URLRequest) -> (events: AsyncStream<HTTPEvent>, cancel: @Sendable () -> Void) {
        let (events, continuation) = AsyncStream.makeStream(of: HTTPEvent.self)
        let stop = session.start(request) { part in
            let event: HTTPEvent
            switch part {
            case .response(let status, _): event = .response(status: status)
            case .data(let chunk): event = .data(chunk)
            case .completed(let code):
                continuation.yield(.finished(failure: code.map(StreamPart.failureText(errorCode:))))
                continuation.finish()
                return false
            }
            if case .terminated = continuation.yield(event) { return false }
            return true
        }
        continuation.onTermination = { _ in stop() }
        let cancel: @Sendable () -> Void = {
            stop()
            continuation.yield(.finished(failure: "cancelled"))
            continuation.finish()
        }
        return (events, cancel)
    }
}
