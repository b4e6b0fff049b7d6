import ConfigPorts
import FlyingFox
import Foundation
import TestDoubles
import TestSupport

/// A stand-in for etcd's JSON gateway, scripted by the tests: one key (``key``) with a document and
/// its revision, optional authentication, faults, holds, and scripted watch streams. Every request
/// is counted by path; watch requests are kept with their body and token.
final class FakeGateway: Sendable {
    /// The key the fake serves.
    static let key = "/app/config"

    /// A watch request as the fake received it.
    struct WatchCall: Sendable {
        var startRevision: Int64
        var token: String?
    }

    /// How the fake answers the next watch request.
    enum WatchReply: Sendable {
        /// A `200` stream of these lines, then silence until the gate opens (then the connection drops).
        case stream([String], until: Gate)
        /// A `503` with a body that is not etcd's JSON.
        case unavailable
    }

    private struct State {
        var document: Data?
        var modRevision: Int64 = 0
        var revision: Int64 = 1
        var fault: FetcherContract.Fault?
        var rangeFailures = 0
        var holds: [FetchHold] = []
        var counts: [String: Int] = [:]
        var password: String?
        var issued = 0
        var validTokens: Set<String> = []
        var watchReplies: [WatchReply] = []
        var watchCalls: [WatchCall] = []
        var watchWaiters: [(count: Int, reached: Eventual<Void>)] = []
    }

    private let state = Locked(State())

    /// Creates a fake holding `document` at revision 2, with authentication when `password` is given.
    init(document: String? = #"{"a":1}"#, password: String? = nil) {
        state.withLock { state in
            state.password = password
            if let document {
                state.revision = 2
                state.document = Data(document.utf8)
                state.modRevision = 2
            }
        }
    }

    // MARK: Scripting

    /// Writes `bytes` as the document at the next revision; returns it.
    @discardableResult
    func put(_ bytes: Data) -> Int64 {
        state.withLock { state in
            state.revision += 1
            state.document = bytes
            state.modRevision = state.revision
            return state.revision
        }
    }

    /// Fails range reads from now on (`.temporary`: 503 that is not etcd's JSON; `.permanent`: the key is gone), or stops.
    func setFault(_ fault: FetcherContract.Fault?) { state.withLock { $0.fault = fault } }

    /// Makes the next `count` range reads answer 503.
    func failRanges(_ count: Int) { state.withLock { $0.rangeFailures = count } }

    /// Makes the next request wait in the handler until the returned hold is released.
    func holdNext() -> FetchHold {
        let hold = FetchHold()
        state.withLock { $0.holds.append(hold) }
        return hold
    }

    /// Queues how the next watch request is answered (without one, a watch answers 503).
    func queueWatch(_ reply: WatchReply) { state.withLock { $0.watchReplies.append(reply) } }

    /// Forgets every token handed out, as etcd does when authentication is turned off and on.
    func invalidateTokens() { state.withLock { $0.validTokens = [] } }

    /// How many requests reached `path` (`/v3/kv/range`, `/v3/auth/authenticate`, `/v3/watch`).
    func count(_ path: String) -> Int { state.withLock { $0.counts[path] ?? 0 } }

    /// Every request so far.
    var requestCount: Int { state.withLock { $0.counts.values.reduce(0, +) } }

    /// The watch requests so far.
    var watchCalls: [WatchCall] { state.withLock { $0.watchCalls } }

    /// Returns once `count` watch requests have arrived.
    func waitForWatchCalls(_ count: Int) async {
        let reached = Eventual<Void>()
        let already = state.withLock { state in
            if state.watchCalls.count >= count { return true }
            state.watchWaiters.append((count, reached))
            return false
        }
        if !already { await reached.value() }
    }

    /// A watch stream line: `created`, `events` (puts of `document` at `revision`), or `canceled`.
    static func line(
        created: Bool = false, revision: Int64, events: [(key: String, value: String?, revision: Int64)] = [],
        compactRevision: Int64? = nil, cancelReason: String? = nil
    ) -> String {
        var result: [String: Any] = ["header": ["revision": String(revision)]]
        if created { result["created"] = true }
        if let compactRevision {
            result["canceled"] = true
            result["compact_revision"] = String(compactRevision)
        }
        if let cancelReason {
            result["canceled"] = true
            result["cancel_reason"] = cancelReason
        }
        if !events.isEmpty {
            result["events"] = events.map { event -> [String: Any] in
                var kv: [String: Any] = ["key": base64(event.key), "mod_revision": String(event.revision)]
                if let value = event.value { kv["value"] = base64(value) }
                return event.value == nil ? ["type": "DELETE", "kv": kv] : ["kv": kv]
            }
        }
        let data = (try? JSONSerialization.data(withJSONObject: ["result": result], options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

    // MARK: Answering

    /// Answers one request.
    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let hold = state.withLock { state -> FetchHold? in
            state.counts[request.path, default: 0] += 1
            return state.holds.isEmpty ? nil : state.holds.removeFirst()
        }
        if let hold { await hold.suspendUntilReleased() }
        let body = (try? await request.bodyData) ?? Data()
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        let token = request.headers[HTTPHeader("Authorization")]
        switch request.path {
        case "/v3/auth/authenticate": return authenticate(object)
        case "/v3/kv/range": return range(token: token)
        case "/v3/watch": return watch(object, token: token)
        default: return Reply.make(404, ["Content-Type": "text/plain"], body: Data("404 page not found".utf8))
        }
    }

    private func authenticate(_ object: [String: Any]) -> HTTPResponse {
        state.withLock { state in
            guard let password = state.password else {
                return Self.error(412, code: 9, "etcdserver: authentication is not enabled")
            }
            guard object["password"] as? String == password else {
                return Self.error(400, code: 3, "etcdserver: authentication failed, invalid user ID or password")
            }
            state.issued += 1
            let token = "token-\(state.issued)"
            state.validTokens.insert(token)
            return Reply.json(#"{"header":{"revision":"\#(state.revision)"},"token":"\#(token)"}"#)
        }
    }

    /// The error for a request carrying `token` when authentication is on, or `nil` when it may pass.
    private func refusal(token: String?, _ state: State) -> HTTPResponse? {
        guard state.password != nil else { return nil }
        guard let token else { return Self.error(400, code: 3, "etcdserver: user name is empty") }
        return state.validTokens.contains(token) ? nil : Self.error(401, code: 16, "etcdserver: invalid auth token")
    }

    private func range(token: String?) -> HTTPResponse {
        state.withLock { state in
            if let refusal = refusal(token: token, state) { return refusal }
            if state.rangeFailures > 0 || state.fault == .temporary {
                state.rangeFailures = max(0, state.rangeFailures - 1)
                return Reply.make(503, ["Content-Type": "text/plain"], body: Data("maintenance".utf8))
            }
            var kvs = ""
            if let document = state.document, state.fault != .permanent {
                kvs =
                    #","kvs":[{"key":"\#(Self.base64(Self.key))","mod_revision":"\#(state.modRevision)","value":"\#(document.base64EncodedString())"}],"count":"1""#
            }
            return Reply.json(#"{"header":{"revision":"\#(state.revision)"}\#(kvs)}"#)
        }
    }

    private func watch(_ object: [String: Any], token: String?) -> HTTPResponse {
        let reply = state.withLock { state -> WatchReply in
            let create = object["create_request"] as? [String: Any]
            let start = Int64((create?["start_revision"] as? String) ?? "") ?? 0
            state.watchCalls.append(WatchCall(startRevision: start, token: token))
            let reached = state.watchWaiters.filter { $0.count <= state.watchCalls.count }
            state.watchWaiters.removeAll { $0.count <= state.watchCalls.count }
            reached.forEach { $0.reached.set(()) }
            return state.watchReplies.isEmpty ? .unavailable : state.watchReplies.removeFirst()
        }
        switch reply {
        case .unavailable:
            return Reply.make(503, ["Content-Type": "text/plain"], body: Data("maintenance".utf8))
        case .stream(let lines, let gate):
            let prefix = Data(lines.map { $0 + "\n" }.joined().utf8)
            return Reply.streamed(StallingBytes(prefix: prefix, gate: gate), declared: nil)
        }
    }

    private static func error(_ status: Int, code: Int, _ message: String) -> HTTPResponse {
        Reply.make(
            status, ["Content-Type": "application/json"],
            body: Data(#"{"error":"\#(message)","message":"\#(message)","code":\#(code)}"#.utf8))
    }
}
