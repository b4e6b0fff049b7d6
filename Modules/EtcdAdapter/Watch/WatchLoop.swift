import ConfigDomain
import ConfigPorts
import Foundation

/// One subscription of an ``EtcdWatcher``: reads the configuration, signals it, then follows a
/// watch from the next revision, signalling every revision, until the consumer goes away.
///
/// - **Every revision, in order.** Events are applied one revision at a time (a transaction's
///   events together), and each revision is signalled before the next is applied.
/// - **A dropped stream** (the member died, the stream ended, or it stayed silent too long) is
///   reopened on the next endpoint, from the revision after the last one applied: nothing is missed.
/// - **Compaction** (the revision to carry on from is gone): read the keys again, signal them if
///   they differ, and watch from after that read.
/// - **Backoff**: after a failure the next endpoint is tried at once; after every endpoint has
///   failed in a row (one more try, on the first, included), the loop waits, longer each round
///   (exponentially, with full jitter).
/// - A state that makes no payload (the key is missing, the document is not a JSON object) is
///   signalled as `.changed(version:)`, so the client's fetch reports why and keeps its last good
///   configuration.
/// - **Connection reports**: `.connection(.connected)` when a watch is created after none was
///   live, `.connection(.disconnected(reason:retryIn:))` when the watch (or the read before it)
///   fails: once at the start of an outage, then before each wait, with its length. A quiet watch
///   reopened, or a token replaced, is not an outage unless what follows fails too.
struct WatchLoop: Sendable {
    let gateway: Gateway
    let layout: EtcdLayout
    let continuation: AsyncStream<ChangeSignal>.Continuation

    /// Tracks what the loop has signalled and how many attempts failed in a row.
    private struct Progress {
        /// The version last signalled; `.none` before the first signal.
        var signalled: String??
        var failures = 0
        /// Which token the next watch needs: after etcd refused one, another.
        var tokenNeed = TokenKeeper.Need.current
        /// What the loop last reported of its connection; `nil` before the first report.
        var connection: PushConnection?
    }

    /// Runs until the consuming task is cancelled.
    func run() async {
        var progress = Progress()
        var state: ConfigurationState?
        let backoff = gateway.connection.reconnectBackoff
        while !Task.isCancelled {
            var index = gateway.preferredEndpoint
            do throws(WatchEnd) {
                if state == nil {
                    state = try await read(&progress)
                    index = gateway.preferredEndpoint
                }
                if var current = state {
                    defer { state = current }
                    try await follow(&current, at: index, &progress)
                }
            } catch {
                if case .cancelled = error { return }
                if case .compacted = error {
                    state = nil
                    continue
                }
                if case .endpoint = error { gateway.moveOn(from: index) }
                if case .silent = error { gateway.moveOn(from: index) }
                if case .tokenRejected(let token) = error { progress.tokenNeed = .replacing(token) }
                progress.failures += 1
                // The first retry is at once (a stream that was live dropped: most likely its member
                // went away); then a wait after each full round of the endpoints.
                let count = gateway.endpointCount
                var mustWait = progress.failures > 1 && (progress.failures - 1) % count == 0
                if case .failed = error { mustWait = true }
                let round = max(1, (progress.failures - 1) / count)
                let wait = mustWait ? backoff.delay(afterFailures: round, random: gateway.connection.random()) : 0
                reportDown(error, retryIn: wait, waits: mustWait, &progress)
                if mustWait {
                    do { try await gateway.connection.clock.sleep(for: wait) } catch { return }
                }
            }
        }
    }

    /// Reads the keys (failing over across the endpoints) and signals them.
    private func read(_ progress: inout Progress) async throws(WatchEnd) -> ConfigurationState {
        do throws(EtcdError) {
            let (state, endpoint) = try await ConfigurationState.read(layout, via: gateway)
            signal(state, from: endpoint, &progress)
            return state
        } catch {
            switch error.kind {
            case .cancelled: throw .cancelled
            case .unreachable: throw .endpoint(error.message)
            default: throw .failed(error)
            }
        }
    }

    /// Reports the watch down after `error`: at the first failure of an outage, and again before each
    /// wait (with its length). A routine reopen (``WatchEnd/isRoutine``) is reported only before a wait.
    private func reportDown(_ error: WatchEnd, retryIn: TimeInterval, waits: Bool, _ progress: inout Progress) {
        var alreadyDown = false
        if case .disconnected? = progress.connection { alreadyDown = true }
        guard waits || (!error.isRoutine && !alreadyDown) else { return }
        report(.disconnected(reason: error.reason, retryIn: retryIn), &progress)
    }

    /// Yields `connection` as a report, and remembers it.
    private func report(_ connection: PushConnection, _ progress: inout Progress) {
        progress.connection = connection
        continuation.yield(.connection(connection))
    }

    /// Signals `state`, unless its version is the one signalled last.
    private func signal(_ state: ConfigurationState, from endpoint: String, _ progress: inout Progress) {
        if case .some(let last) = progress.signalled, last == state.version { return }
        progress.signalled = .some(state.version)
        if let payload = try? state.payload(from: endpoint) {
            continuation.yield(.payload(payload))
        } else {
            continuation.yield(.changed(version: state.version))
        }
    }

    /// Follows one watch stream on the endpoint `index`, from the revision after `state`'s,
    /// applying and signalling each revision, until the stream ends.
    private func follow(
        _ state: inout ConfigurationState, at index: Int, _ progress: inout Progress
    ) async throws(WatchEnd) {
        let token: String?
        do throws(Gateway.Failure) {
            token = try await gateway.token(progress.tokenNeed, at: index)
            progress.tokenNeed = .current
        } catch {
            switch error {
            case .endpoint(let reason): throw .endpoint(reason)
            case .final(let error): throw .failed(error)
            }
        }
        let range = KeyRange(layout)
        let request = WatchRequest(
            createRequest: .init(key: range.key, rangeEnd: range.rangeEnd, startRevision: GatewayInt(state.revision + 1)))
        let (events, cancel) = gateway.openWatch(request, token: token, at: index)
        let timer = IdleTimer(
            clock: gateway.connection.clock, connecting: gateway.connection.requestTimeout,
            idle: gateway.connection.watchIdleTimeout, expire: cancel)
        defer {
            timer.stop()
            cancel()
        }
        let endpoint = gateway.display(index)
        var status = 0
        var buffer = Data()
        for await event in events {
            timer.touch()
            switch event {
            case .response(let code):
                status = code
            case .data(let chunk):
                buffer.append(chunk)
                guard status == 200 else { continue }
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = buffer[buffer.startIndex..<newline]
                    buffer = Data(buffer[buffer.index(after: newline)...])
                    guard !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) else { continue }
                    try handle(Data(line), &state, timer: timer, endpoint: endpoint, token: token, &progress)
                }
            case .finished(let failure):
                throw ending(failure, status: status, body: buffer, token: token, timer: timer, endpoint: endpoint)
            }
        }
        throw ending(nil, status: status, body: buffer, token: token, timer: timer, endpoint: endpoint)
    }

    /// Why the watch stream on `endpoint` ended, with the transport's `failure` if any.
    private func ending(
        _ failure: String?, status: Int, body: Data, token: String?, timer: IdleTimer, endpoint: String
    ) -> WatchEnd {
        if Task.isCancelled { return .cancelled }
        let connection = gateway.connection
        switch timer.expiry {
        case .silent?:
            return .silent("the watch on \(endpoint) was silent for \(Self.seconds(connection.watchIdleTimeout ?? 0)) s")
        case .unconfirmed?:
            return .endpoint("\(endpoint) did not confirm the watch within \(Self.seconds(connection.requestTimeout)) s")
        case nil:
            break
        }
        let detail = failure.map { " (\($0))" } ?? ""
        if status == 0 { return .endpoint("\(endpoint) could not be reached\(detail)") }
        if status != 200 { return end(forStatus: status, body: body, token: token) }
        return .endpoint("the watch stream from \(endpoint) ended\(detail)")
    }

    /// `2`, `0.5`: seconds for a message.
    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// Handles one line of the stream: the watch is live, events to apply and signal, or its end.
    private func handle(
        _ line: Data, _ state: inout ConfigurationState, timer: IdleTimer, endpoint: String, token: String?,
        _ progress: inout Progress
    ) throws(WatchEnd) {
        guard let message = try? JSONDecoder.gateway.decode(WatchStreamLine.self, from: line) else {
            throw .endpoint("the watch stream carried something other than etcd's JSON")
        }
        if let error = message.error {
            throw end(for: GatewayStatus(code: error.grpcCode ?? 2, message: error.message ?? "no message"), token: token)
        }
        guard let response = message.result else { return }
        if response.canceled == true {
            if let compacted = response.compactRevision?.value, compacted > 0 { throw .compacted }
            let reason = response.cancelReason ?? "the watch was cancelled"
            throw end(for: GatewayStatus(code: reason.contains("Unauthenticated") ? 16 : 14, message: reason), token: token)
        }
        if response.created == true {
            timer.confirmLive()
            progress.failures = 0
            if progress.connection != .connected { report(.connected, &progress) }
        }
        let events = response.events ?? []
        var start = events.startIndex
        while start < events.endIndex {
            let revision = events[start].kv?.modRevision?.value ?? 0
            var end = start
            while end < events.endIndex && (events[end].kv?.modRevision?.value ?? 0) == revision { end += 1 }
            // A revision the state already holds (a stream, or something between it and etcd, that sent an
            // event again) is skipped: applying it would take the configuration back to an older version.
            guard revision > state.revision else {
                start = end
                continue
            }
            do throws(EtcdError) {
                try state.apply(Array(events[start..<end]), revision: revision)
            } catch {
                throw .failed(error)
            }
            signal(state, from: endpoint, &progress)
            start = end
        }
    }

    /// What an error etcd answered on the watch opened with `token` means for the loop.
    private func end(for status: GatewayStatus, token: String?) -> WatchEnd {
        if status.needsToken { return .tokenRejected(token) }
        if status.code == 11 { return .compacted }
        if status.isMemberUnavailable || status.code == 2 { return .endpoint("etcd said: \(status.message)") }
        return .failed(status.error(user: gateway.connection.credentials?.username))
    }

    /// What a watch answered with a status other than 200 means for the loop.
    private func end(forStatus status: Int, body: Data, token: String?) -> WatchEnd {
        if let error = try? JSONDecoder.gateway.decode(GatewayErrorBody.self, from: body), let code = error.code {
            return end(for: GatewayStatus(code: code, message: error.message ?? error.error ?? "no message"), token: token)
        }
        return .endpoint("the watch answered HTTP \(status) with something other than etcd's JSON")
    }
}
