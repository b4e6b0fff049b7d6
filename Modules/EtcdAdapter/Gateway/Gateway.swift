import ConfigDomain
import ConfigPorts
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Talks to an etcd cluster through its v3 JSON gateway: unary calls with failover across the
/// endpoints and token authentication, and the requests that open watch streams.
///
/// It keeps the endpoint that answered last (the next call starts there), and the token in a
/// ``TokenKeeper``.
final class Gateway: Sendable {
    /// Why one endpoint could not serve a call: move on to the next (`endpoint`), or stop (`final`).
    enum Failure: Error, Sendable {
        /// This endpoint cannot serve now (unreachable, no leader, not etcd); another may.
        case endpoint(String)
        /// No other endpoint would answer differently.
        case final(EtcdError)
    }

    /// The settings.
    let connection: EtcdConnection
    private let transport = GatewayTransport()
    private let preferred = Locked(0)
    private let tokens: TokenKeeper

    /// Creates a gateway client; no request is made until the first call.
    init(connection: EtcdConnection) {
        self.connection = connection
        self.tokens = TokenKeeper(needsToken: connection.credentials != nil)
    }

    /// The number of endpoints.
    var endpointCount: Int { connection.endpoints.count }

    /// The endpoint the next call starts with: the one that answered last.
    var preferredEndpoint: Int { preferred.current }

    /// Makes `index` the endpoint calls start with.
    func prefer(_ index: Int) { preferred.withLock { $0 = index } }

    /// Moves on from `index` after it failed, unless another endpoint is preferred already.
    func moveOn(from index: Int) {
        preferred.withLock { preferred in
            if preferred == index { preferred = (index + 1) % connection.endpoints.count }
        }
    }

    /// The endpoint as messages show it, without user or password.
    func display(_ index: Int) -> String {
        let url = connection.endpoints[index]
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "<endpoint>" }
        components.user = nil
        components.password = nil
        components.query = nil
        return components.string ?? "<endpoint>"
    }

    /// The endpoints as messages show them: `http://a:2379, http://b:2379`.
    var displayEndpoints: String { (0..<endpointCount).map(display).joined(separator: ", ") }

    // MARK: Unary calls

    /// Sends `body` to `path` (`v3/kv/range`) on each endpoint in turn, from the preferred one,
    /// until one answers, and returns the answer and the endpoint that gave it; throws
    /// ``EtcdError/Kind/unreachable`` listing each endpoint's failure.
    func call<Body: Encodable & Sendable, Reply: Decodable & Sendable>(
        _ path: String, _ body: Body, as reply: Reply.Type
    ) async throws(EtcdError) -> (reply: Reply, endpoint: Int) {
        var reasons: [String] = []
        let first = preferredEndpoint
        for step in 0..<endpointCount {
            let index = (first + step) % endpointCount
            if Task.isCancelled { throw EtcdError.cancelled }
            do throws(Failure) {
                let answer = try await call(path, body, as: reply, at: index)
                prefer(index)
                return (answer, index)
            } catch {
                switch error {
                case .final(let error): throw error
                case .endpoint(let reason): reasons.append("\(display(index)): \(reason)")
                }
            }
        }
        if Task.isCancelled { throw EtcdError.cancelled }
        throw EtcdError(
            .unreachable,
            "no etcd endpoint could serve the request (\(reasons.joined(separator: "; "))); check that the cluster "
                + "is running, has a leader, and that the endpoints are its members' client URLs")
    }

    /// Sends `body` to `path` on the endpoint `index`, authenticating first when needed and once
    /// more when etcd says the token is invalid or expired.
    func call<Body: Encodable & Sendable, Reply: Decodable & Sendable>(
        _ path: String, _ body: Body, as reply: Reply.Type, at index: Int
    ) async throws(Failure) -> Reply {
        var token = try await token(.current, at: index)
        var refreshed = false
        while true {
            switch await post(path, body, token: token, at: index, as: reply) {
            case .reply(let answer):
                return answer
            case .unusable(let reason):
                throw .endpoint(reason)
            case .status(let status):
                if status.needsToken && connection.credentials != nil && !refreshed {
                    refreshed = true
                    token = try await self.token(.replacing(token), at: index)
                    continue
                }
                throw failure(for: status)
            }
        }
    }

    /// The token to send (`nil` when none is needed): the current one, or a new one from
    /// `/v3/auth/authenticate` on the endpoint `index` (shared by the calls that need it at once).
    func token(_ need: TokenKeeper.Need, at index: Int) async throws(Failure) -> String? {
        try await tokens.token(need) { await self.requestToken(at: index) }.get()
    }

    /// Trades the credentials for a token on the endpoint `index`.
    private func requestToken(at index: Int) async -> Result<String?, Failure> {
        guard let credentials = connection.credentials else { return .success(nil) }
        let request = AuthenticateRequest(name: credentials.username, password: credentials.password)
        switch await post("v3/auth/authenticate", request, token: nil, at: index, as: AuthenticateResponse.self) {
        case .reply(let answer):
            guard let token = answer.token, !token.isEmpty else {
                return .failure(.final(EtcdError(.authenticationFailed, "etcd answered the authentication without a token")))
            }
            return .success(token)
        case .unusable(let reason):
            return .failure(.endpoint(reason))
        case .status(let status) where status.isAuthenticationDisabled:
            return .success(nil)
        case .status(let status):
            return .failure(failure(for: status))
        }
    }

    private func failure(for status: GatewayStatus) -> Failure {
        if status.isMemberUnavailable { return .endpoint("etcd said: \(status.message)") }
        return .final(status.error(user: connection.credentials?.username))
    }

    // MARK: Requests

    /// What one POST came back with.
    private enum Answer<Reply: Sendable>: Sendable {
        /// The reply, decoded.
        case reply(Reply)
        /// An error etcd answered with.
        case status(GatewayStatus)
        /// No usable answer: a transport failure, or something other than etcd's JSON.
        case unusable(String)
    }

    private func post<Body: Encodable & Sendable, Reply: Decodable & Sendable>(
        _ path: String, _ body: Body, token: String?, at index: Int, as reply: Reply.Type
    ) async -> Answer<Reply> {
        let request = makeRequest(path, body, token: token, at: index, timeout: connection.requestTimeout)
        var status = 0
        var data = Data()
        for await event in transport.send(request) {
            switch event {
            case .response(let code): status = code
            case .data(let chunk): data.append(chunk)
            case .finished(let failure?): return .unusable(failure)
            case .finished(nil): break
            }
        }
        if Task.isCancelled { return .unusable("cancelled") }
        if status == 200, let answer = try? JSONDecoder.gateway.decode(Reply.self, from: data) { return .reply(answer) }
        if let error = try? JSONDecoder.gateway.decode(GatewayErrorBody.self, from: data), let code = error.code {
            return .status(GatewayStatus(code: code, message: error.message ?? error.error ?? "no message"))
        }
        return .unusable(
            "answered HTTP \(status) with something other than etcd's JSON; is it the client URL of an etcd 3.4 or later member?")
    }

    /// A POST of `body` as JSON to `path` on the endpoint `index`.
    func makeRequest<Body: Encodable>(
        _ path: String, _ body: Body, token: String?, at index: Int, timeout: TimeInterval
    ) -> URLRequest {
        // Whole seconds: swift-corelibs-foundation turns a fraction of a second into no time at all.
        var request = URLRequest(
            url: connection.endpoints[index].appendingPathComponent(path), cachePolicy: .reloadIgnoringLocalCacheData,
            timeoutInterval: timeout.rounded(.up))
        request.httpMethod = "POST"
        request.httpShouldHandleCookies = false
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token { request.setValue(token, forHTTPHeaderField: "Authorization") }
        request.httpBody = try? JSONEncoder.gateway.encode(body)
        return request
    }

    /// Opens a watch stream on the endpoint `index`: the POST carrying `watch`, marked to need a
    /// leader, so a member cut off from its cluster ends the stream instead of going quiet. It
    /// streams on HTTPSupport's `StreamingSession` on every platform (see ``GatewayTransport``).
    func openWatch(
        _ watch: WatchRequest, token: String?, at index: Int
    ) -> (events: AsyncStream<HTTPEvent>, cancel: @Sendable () -> Void) {
        var request = makeRequest("v3/watch", watch, token: token, at: index, timeout: 365 * 86_400)
        // gRPC metadata `hasleader: true`, which the gateway passes on from this header.
        request.setValue("true", forHTTPHeaderField: "Grpc-Metadata-hasleader")
        return transport.stream(request)
    }
}
