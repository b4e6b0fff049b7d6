import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import EtcdAdapter

@Suite("Gateway statuses, errors and messages")
struct GatewayTypesTests {
    @Test("statuses are sorted into: another member may serve, a new token may help, or a final error")
    func statuses() {
        #expect(GatewayStatus(code: 14, message: "etcdserver: no leader").isMemberUnavailable)
        #expect(GatewayStatus(code: 4, message: "etcdserver: request timed out").isMemberUnavailable)
        #expect(GatewayStatus(code: 16, message: "etcdserver: invalid auth token").needsToken)
        #expect(GatewayStatus(code: 3, message: "etcdserver: user name is empty").needsToken)
        #expect(!GatewayStatus(code: 3, message: "etcdserver: authentication failed, invalid user ID or password").needsToken)

        let permission = GatewayStatus(code: 7, message: "etcdserver: permission denied").error(user: "app")
        #expect(permission.kind == .permissionDenied)
        #expect(permission.message.contains("user \"app\" has no permission"))
        #expect(
            GatewayStatus(code: 11, message: "mvcc: required revision has been compacted").error(user: nil).kind == .compacted)
        let other = GatewayStatus(code: 8, message: "etcdserver: too many requests").error(user: nil)
        #expect(other.kind == .rejected)
        #expect(other.message == "etcd refused the request: etcdserver: too many requests (gRPC code 8)")
    }

    @Test("each EtcdError kind becomes the FetchError the client's scheduler needs")
    func fetchErrors() {
        let cases: [(EtcdError.Kind, FetchError.Kind, RetryAdvice)] = [
            (.unreachable, .transport, .backoff), (.authenticationFailed, .other, .doNotRetry),
            (.permissionDenied, .other, .doNotRetry), (.keyMissing, .other, .doNotRetry),
            (.invalidJSON, .invalidPayload, .doNotRetry), (.compacted, .other, .backoff), (.rejected, .other, .backoff),
        ]
        for (kind, fetchKind, retry) in cases {
            let error = EtcdError(kind, "what happened").fetchError
            #expect(error.kind == fetchKind && error.retry == retry, "\(kind)")
            #expect(error.message == "etcd: what happened")
        }
        #expect(EtcdError.cancelled.fetchError == FetchError.cancelled)
    }

    @Test("64-bit integers are read from strings or numbers and written as strings; snake_case names map")
    func messages() throws {
        let line = Data(
            #"{"result":{"header":{"revision":"42"},"compact_revision":7,"events":[{"type":"DELETE","kv":{"key":"YQ==","mod_revision":"41"}}]}}"#
                .utf8)
        let decoded = try JSONDecoder.gateway.decode(WatchStreamLine.self, from: line)
        #expect(decoded.result?.header?.revision?.value == 42)
        #expect(decoded.result?.compactRevision?.value == 7)
        #expect(decoded.result?.events?.first?.isDelete == true)
        #expect(decoded.result?.events?.first?.kv?.value == nil)

        let request = WatchRequest(createRequest: .init(key: "YQ==", rangeEnd: nil, startRevision: GatewayInt(43)))
        let encoded = String(decoding: try JSONEncoder.gateway.encode(request), as: UTF8.self)
        #expect(encoded.contains(#""start_revision":"43""#) && encoded.contains(#""create_request""#))
        #expect(throws: DecodingError.self) { try JSONDecoder.gateway.decode(GatewayInt.self, from: Data(#""4x""#.utf8)) }
    }

    @Test("the reconnect wait is a random share of a cap that doubles each round, up to the longest")
    func backoff() {
        let backoff = EtcdConnection(endpoints: [], reconnectDelay: 0.5...4).reconnectBackoff
        #expect((1...6).map { backoff.delay(afterFailures: $0, random: 1) } == [0.5, 1, 2, 4, 4, 4])
        #expect(backoff.delay(afterFailures: 3, random: 0.5) == 1)
        #expect(backoff.delay(afterFailures: 1, random: 7) == 0.5, "random is clamped to 0...1")
    }
}
