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
                if case .tokenRejected(let token) = error { progress.tokenNeed = .replacing(token) }
                progress.failures += 1
                // The first retry is at once (a stream that was live dropped: most likely its member
                // went away); then a wait after each full round of the endpoints.
                let count = gateway.endpointCount
                var mustWait = progress.failures > 1 && (progress.failures - 1) % count == 0
                if case .failed = error { mustWait = true }
                if mustWait {
                    let round = max(1, (progress.failures - 1) / count)
                    let wait = backoff.delay(afterFailures: round, random: gateway.connection.random())
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
                if Task.isCancelled { throw .cancelled }
                if timer.hasExpired { throw .endpoint("the watch was silent for too long") }
                if status != 200 { throw end(forStatus: status, body: buffer, token: token) }
                throw .endpoint("the watch stream ended" + (failure.map { " (\($0))" } ?? ""))
            }
        }
        throw Task.isCancelled ? .cancelled : .endpoint("the watch stream ended")
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
        }
        let events = response.events ?? []
        var start = events.startIndex
        while start < events.endIndex {
            let revision = events[start].kv?.modRevision?.value ?? 0
            var end = start
            while end < events.endIndex && (events[end].kv?.modRevision?.value ?? 0) == revision { end += 1 }
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
