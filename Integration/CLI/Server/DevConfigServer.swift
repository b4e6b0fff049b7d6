import ConfigPorts
import FlyingFox
import FlyingSocks
import Foundation

/// A development config server on 127.0.0.1: serves a ``DocumentLibrary`` with strong ETags,
/// Last-Modified and 304s, reloads changed files, and simulates trouble. Used by `serve` and `demo`.
final class DevConfigServer: Sendable {
    /// The port it listens on.
    let port: UInt16
    /// The documents it serves.
    let library: DocumentLibrary
    /// Its `/events` streams.
    let events: EventStreamHub
    /// Its OFREP change notifications (`…/ofrep/v1/events`).
    let ofrepEvents: OFREPEventHub
    private let runTask: Task<Void, Never>
    private let pollTask: Task<Void, Never>
    private let heartbeatTask: Task<Void, Never>

    private init(
        port: UInt16, library: DocumentLibrary, events: EventStreamHub, ofrepEvents: OFREPEventHub, runTask: Task<Void, Never>,
        pollTask: Task<Void, Never>, heartbeatTask: Task<Void, Never>
    ) {
        self.port = port
        self.library = library
        self.events = events
        self.ofrepEvents = ofrepEvents
        self.runTask = runTask
        self.pollTask = pollTask
        self.heartbeatTask = heartbeatTask
    }

    /// Reads the documents, starts listening on `127.0.0.1:port` (0: a free port), and returns once it listens.
    ///
    /// - Parameters:
    ///   - onChange: called with each reload's findings (first load included), from any thread.
    ///   - signer: signs what is served (a header on each `200`, and `<path>.sig`), when given.
    ///   - onRequest: called once per answered request, from any thread.
    static func start(
        library: DocumentLibrary, port: UInt16, trouble: TroubleSettings = TroubleSettings(),
        pollInterval: TimeInterval = 0.5, heartbeatInterval: TimeInterval = 15, signer: DocumentSigner? = nil,
        onChange reported: @escaping @Sendable ([DocumentLibrary.Change]) -> Void,
        onRequest: @escaping @Sendable (RequestRecord) -> Void
    ) async throws(CLIFailure) -> DevConfigServer {
        let events = EventStreamHub(library: library, heartbeatInterval: heartbeatInterval)
        let ofrepEvents = OFREPEventHub(library: library)
        let onChange: @Sendable ([DocumentLibrary.Change]) -> Void = { changes in
            events.publish(changes)
            ofrepEvents.publish(changes)
            reported(changes)
        }
        let initial = library.refresh()
        if !initial.isEmpty { onChange(initial) }
        let sequence = FaultSequence(seed: trouble.seed)
        let responder = ConfigResponder(
            library: library, trouble: trouble, sequence: sequence, onChange: onChange,
            onRequest: onRequest, signer: signer)
        let ofrep = OFREPResponder(
            library: library, trouble: trouble, sequence: sequence, events: ofrepEvents, onRequest: onRequest)
        let address: sockaddr_in
        do {
            address = try .inet(ip4: "127.0.0.1", port: port)
        } catch {
            throw CLIFailure.input("cannot use 127.0.0.1:\(port): \(error)")
        }
        let server = HTTPServer(
            address: address, timeout: 60, pool: NoDelaySocketPool(inner: HTTPServer.defaultPool()), logger: .disabled)
        await server.appendRoute("*") { request in
            if let route = OFREPResponder.Route(path: request.path) {
                let changes = library.refresh()
                if !changes.isEmpty { onChange(changes) }
                return await ofrep.respond(to: request, route: route)
            }
            guard EventStreamHub.isEventsPath(request.path) else { return await responder.respond(to: request) }
            let (response, record) = events.respond(to: request)
            onRequest(record)
            return response
        }
        let outcome = StartOutcome()
        let runTask = Task<Void, Never> {
            do {
                try await server.run()
            } catch {
                outcome.finish(.failure(error))
            }
        }
        let waitTask = Task<Void, Never> {
            do {
                try await server.waitUntilListening(timeout: 10)
                outcome.finish(.success(()))
            } catch {
                outcome.finish(.failure(error))
            }
        }
        let started = await outcome.value()
        waitTask.cancel()
        if case .failure(let error) = started {
            runTask.cancel()
            await runTask.value
            throw CLIFailure.input(
                "cannot listen on 127.0.0.1:\(port) (\(error)); pick another port with --port, or --port 0 for a free one")
        }
        guard case .ip4(_, let boundPort)? = await server.listeningAddress else {
            runTask.cancel()
            await runTask.value
            throw CLIFailure.input("the server started but did not report its port")
        }
        let pollTask = Task<Void, Never> {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(pollInterval * 1_000_000_000))
                if Task.isCancelled { return }
                let changes = library.refresh()
                if !changes.isEmpty { onChange(changes) }
            }
        }
        let heartbeatTask = Task<Void, Never> {
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(heartbeatInterval * 1_000_000_000))
                if Task.isCancelled { return }
                events.sendHeartbeat()
                ofrepEvents.sendHeartbeat()
            }
        }
        return DevConfigServer(
            port: boundPort, library: library, events: events, ofrepEvents: ofrepEvents, runTask: runTask, pollTask: pollTask,
            heartbeatTask: heartbeatTask)
    }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String) -> String {
        "http://127.0.0.1:\(port)" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path)
    }

    /// Stops listening and reloading, and waits until the server has stopped.
    func stop() async {
        pollTask.cancel()
        heartbeatTask.cancel()
        events.finishAll()
        ofrepEvents.finishAll()
        runTask.cancel()
        await runTask.value
        await pollTask.value
        await heartbeatTask.value
    }
}

/// The first of "listening" or "failed", delivered once to one waiter.
private final class StartOutcome: Sendable {
    private struct State {
        var result: Result<Void, any Error>?
        var waiter: CheckedContinuation<Result<Void, any Error>, Never>?
    }

    private let state = Locked(State())

    func finish(_ value: Result<Void, any Error>) {
        let waiting = state.withLock { state -> CheckedContinuation<Result<Void, any Error>, Never>? in
            guard state.result == nil else { return nil }
            state.result = value
            defer { state.waiter = nil }
            return state.waiter
        }
        waiting?.resume(returning: value)
    }

    func value() async -> Result<Void, any Error> {
        await withCheckedContinuation { continuation in
            let result = state.withLock { state -> Result<Void, any Error>? in
                if let result = state.result { return result }
                state.waiter = continuation
                return nil
            }
            if let result { continuation.resume(returning: result) }
        }
    }
}
