import ConfigDomain
import ConfigPorts
import Foundation

/// Refreshes one remote provider: single flight, fetch, a `304`, and applying what came back (a client
/// has one engine per fetcher; `settings` holds this provider's fetcher, cache name and format).
///
/// The payload's way in is the provider's ``PayloadIntake``, its cache is its ``ProviderStore``, and
/// when it may fetch next is ``RefreshScheduling``'s. The client's state holds the provider's decoded
/// payload; the engine holds its metadata (when fetched, validators, content hash): a `304 Not
/// Modified` renews that metadata here and in the cache, and resolves nothing.
///
/// One `Locked` value holds the engine's state: its scheduler, its pending snapshot and its refresh
/// in flight. A refresh in flight is a stored `Task`: callers that arrive while it runs await the same
/// task, and the task clears itself when its work (fetch, activation, cache) is done, so a caller
/// that arrives after that starts a new fetch. Activations go through the client's one ``Activator``,
/// so those of several providers never interleave.
///
/// A provider whose fetcher's server evaluates the flags for the client's context
/// (`ConfigFetcher.evaluatesContext`) holds the payload of one context at a time, in the cache slot of
/// that context's targeting key (``ContextSlot``); see `RefreshEngine+Context.swift`.
final class RefreshEngine: Sendable {
    let settings: ClientSettings
    /// This engine's position among the client's providers (0 is the builder's own fetcher).
    let provider: Int
    let activator: Activator
    let cell: StateCell
    let sink: EventSink
    let store: ProviderStore
    /// Whether the fetcher's payloads hold for the context they were fetched for only.
    let evaluatesContext: Bool
    let state: Locked<EngineState>

    /// `recordedLastGood` is what the cache holds in its last-good slot, when the builder read it.
    init(
        settings: ClientSettings, provider: Int, activator: Activator, status: EngineStatus,
        recordedLastGood: LastGoodValues? = nil
    ) {
        self.settings = settings
        self.provider = provider
        self.activator = activator
        self.cell = activator.cell
        self.sink = activator.sink
        self.store = ProviderStore(settings: settings, sink: activator.sink)
        self.evaluatesContext = settings.fetcher.evaluatesContext
        // The state at build, before any refresh: what the first `stateChanged` event changes from.
        let initial = status.state(freshness: status.active.map { settings.freshness(of: $0) }).state
        var engineState = EngineState(status: status, slot: ContextSlot.cacheName(of: settings), reportedState: initial)
        engineState.recordedLastGood = recordedLastGood
        state = Locked(engineState)
    }

    func emit(_ event: ConfigEvent) { sink.emit(event) }

    /// What `status` reads.
    var status: EngineStatus { state.withLock { $0.status } }

    // MARK: Single flight

    /// Fetches unless the scheduler holds it back; callers that arrive while a fetch runs share it.
    func refresh(force: Bool) async -> Result<RefreshResult, ConfigError> {
        await join(force: force).value
    }

    /// Joins the refresh in flight, or starts one unless the scheduler holds it back, deciding now,
    /// on the caller's thread; the returned task answers what the refresh did. A caller that
    /// awaits it later, even after the fetch has ended, gets the result of the flight it joined.
    func join(force: Bool) -> Task<Result<RefreshResult, ConfigError>, Never> {
        switch startOrJoin(force: force, onlyIfStale: false) {
        case .running(let task), .busy(let task): return task
        case .skipped(let hold, let until): return Task { .success(.skipped(reason: hold, nextAllowed: until)) }
        case .stopped: return Task { .failure(.stopped) }
        case .fresh: return Task { .success(.unchanged) }
        }
    }

    /// Starts a refresh unless one runs or the snapshot is fresh, deciding now, on the caller's
    /// thread: a burst of stale reads starts one fetch, and none after that fetch renewed the data.
    func refreshInBackgroundIfStale() {
        _ = startOrJoin(force: false, onlyIfStale: true)
    }

    private enum Start {
        case running(Task<Result<RefreshResult, ConfigError>, Never>)
        /// Another refresh is in flight, and a pushed payload waits for it to end (``applyPushed(_:)``).
        case busy(Task<Result<RefreshResult, ConfigError>, Never>)
        case skipped(SchedulerState.Hold, Date?)
        case stopped
        case fresh
    }

    /// With `pushed`, the flight activates that payload instead of fetching: it never joins another
    /// flight (whose fetch may predate the push) and the scheduler does not hold it back (it makes no request).
    private func startOrJoin(force: Bool, onlyIfStale: Bool, pushed: FetchedPayload? = nil) -> Start {
        let now = settings.clock.now()
        var waiters: [CheckedContinuation<Void, Never>] = []
        let start: Start = state.withLock { s in
            if s.stopped { return .stopped }
            if let flight = s.flight, pushed != nil { return .busy(flight.task) }
            if var flight = s.flight {
                flight.participants += 1
                s.flight = flight
                waiters = s.takeWaiters()
                return .running(flight.task)
            }
            if onlyIfStale, let metadata = s.status.active, settings.freshness(of: metadata) == .fresh {
                return .fresh
            }
            let scheduler = s.status.scheduler
            if pushed == nil, let next = scheduler.nextAllowedFetch, next > now, !force || scheduler.hold == .retryAfter {
                return .skipped(scheduler.hold, next)
            }
            s.nextFlightID += 1
            let id = s.nextFlightID
            let task = Task { await self.performRefresh(id: id, pushed: pushed) }
            s.flight = Flight(id: id, task: task, participants: 1)
            waiters = s.takeWaiters()
            return .running(task)
        }
        for waiter in waiters { waiter.resume() }
        if case .skipped(let hold, let until) = start {
            emit(.refreshSkipped(reason: hold.description, nextAllowed: until))
        }
        return start
    }

    /// Applies a payload a push source delivered whole, as a refresh that fetches nothing: after the
    /// refresh in flight (if any) ends, so the older fetch never overwrites the pushed payload.
    func applyPushed(_ payload: FetchedPayload) async -> Result<RefreshResult, ConfigError> {
        while true {
            switch startOrJoin(force: true, onlyIfStale: false, pushed: payload) {
            case .busy(let earlier): _ = await earlier.value
            case .running(let task): return await task.value
            case .stopped: return .failure(.stopped)
            case .skipped, .fresh: return .success(.unchanged)  // Not reached: a push is never held back.
            }
        }
    }

    /// The refresh in flight now, if any.
    var currentFlight: Task<Result<RefreshResult, ConfigError>, Never>? { state.withLock { $0.flight?.task } }

    /// Whether the payload held (the pending one if any, else the active one) is the version `version` names.
    func holds(version: String) -> Bool {
        state.withLock { $0.held }.map { ChangeSignal.isSameVersion(version, as: $0.validators) } ?? false
    }

    /// The metadata of the active payload, or nil when there is none.
    var activeMetadata: SnapshotMetadata? { state.withLock { $0.status.active } }

    /// Suspends until the refresh in flight has at least `count` callers (tests use it to make races deterministic).
    func waitForParticipants(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { s in
                if s.stopped || (s.flight?.participants ?? 0) >= count { return true }
                s.participantWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    private func performRefresh(id: Int, pushed: FetchedPayload?) async -> Result<RefreshResult, ConfigError> {
        let result = await fetchAndApply(pushed: pushed)
        state.withLock { s in if s.flight?.id == id { s.flight = nil } }
        return result
    }

    // MARK: Lifecycle

    func stop() {
        let (task, waiters) = state.withLock { s in
            s.stopped = true
            s.status.scheduler.hold = .stopped
            s.status.scheduler.nextAllowedFetch = nil
            defer { s.participantWaiters = [] }
            return (s.flight?.task, s.participantWaiters.map(\.continuation))
        }
        task?.cancel()
        for waiter in waiters { waiter.resume() }
    }
}
