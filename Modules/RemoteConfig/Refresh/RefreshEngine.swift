import ConfigDomain
import ConfigPorts
import Foundation

/// Fetches, decodes, activates and persists: everything that changes a client's state.
///
/// One `Locked` value holds all of it. Activations resolve under that lock, so two of them never
/// interleave. A refresh in flight is a stored `Task`: callers that arrive while it runs await
/// the same task, and the task clears itself when its work (fetch, activation, cache) is done,
/// so a caller that arrives after that starts a new fetch.
final class RefreshEngine: Sendable {
    let settings: ClientSettings
    let resolver: Resolver
    let cell: StateCell
    let sink: EventSink
    let updates: Broadcaster<ConfigUpdate>
    private let state: Locked<EngineState>

    init(
        settings: ClientSettings, registry: KeyRegistry, cell: StateCell, overrides: [OverrideLayer],
        status: EngineStatus, sink: EventSink, updates: Broadcaster<ConfigUpdate>
    ) {
        self.settings = settings
        self.resolver = Resolver(registry: registry)
        self.cell = cell
        self.sink = sink
        self.updates = updates
        // The builder reported the first problems of each override source; its stream repeats them first.
        let reported = Set(overrides.flatMap { layer in layer.snapshot.problems.map { layer.name + "\u{0}" + $0 } })
        var engineState = EngineState(
            overrides: overrides, generation: cell.load().generation, status: status, reportedProblems: reported)
        engineState.context = cell.load().context
        state = Locked(engineState)
    }

    func emit(_ event: ConfigEvent) { sink.emit(event) }

    /// What `status` reads.
    var status: EngineStatus { state.withLock { $0.status } }

    // MARK: Refresh

    /// Fetches unless the scheduler holds it back; callers that arrive while a fetch runs share it.
    func refresh(force: Bool) async -> Result<RefreshResult, ConfigError> {
        switch startOrJoin(force: force, onlyIfStale: false) {
        case .running(let task): return await task.value
        case .skipped(let hold, let until): return .success(.skipped(reason: hold, nextAllowed: until))
        case .stopped: return .failure(.stopped)
        case .fresh: return .success(.unchanged)
        }
    }

    /// Starts a refresh unless one runs or the snapshot is fresh, deciding now, on the caller's
    /// thread: a burst of stale reads starts one fetch, and none after that fetch renewed the data.
    func refreshInBackgroundIfStale() {
        _ = startOrJoin(force: false, onlyIfStale: true)
    }

    private enum Start {
        case running(Task<Result<RefreshResult, ConfigError>, Never>)
        case skipped(SchedulerState.Hold, Date?)
        case stopped
        case fresh
    }

    private func startOrJoin(force: Bool, onlyIfStale: Bool) -> Start {
        let now = settings.clock.now()
        var waiters: [CheckedContinuation<Void, Never>] = []
        let start: Start = state.withLock { s in
            if s.stopped { return .stopped }
            if var flight = s.flight {
                flight.participants += 1
                s.flight = flight
                waiters = s.takeWaiters()
                return .running(flight.task)
            }
            if onlyIfStale, let metadata = cell.load().snapshot?.metadata, settings.freshness(of: metadata) == .fresh {
                return .fresh
            }
            let scheduler = s.status.scheduler
            if let next = scheduler.nextAllowedFetch, next > now, !force || scheduler.hold == .retryAfter {
                return .skipped(scheduler.hold, next)
            }
            s.nextFlightID += 1
            let id = s.nextFlightID
            let task = Task { await self.performRefresh(id: id) }
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

    private func performRefresh(id: Int) async -> Result<RefreshResult, ConfigError> {
        let result = await fetchAndApply()
        state.withLock { s in if s.flight?.id == id { s.flight = nil } }
        return result
    }

    private func fetchAndApply() async -> Result<RefreshResult, ConfigError> {
        emit(.refreshStarted)
        let started = settings.clock.now()
        let held = state.withLock { s in
            s.status.scheduler.lastAttempt = started
            return s.pending?.snapshot ?? cell.load().snapshot
        }
        let fetched: FetchResult
        do throws(FetchError) {
            fetched = try await settings.fetcher.fetch(
                FetchRequest(validators: held?.metadata.validators ?? .none, configurationName: settings.configurationName))
        } catch {
            return fail(.fetch(error), retry: error.retry)
        }
        if state.withLock({ $0.stopped }) { return .failure(.stopped) }
        let now = settings.clock.now()

        switch fetched {
        case .notModified(let validators):
            guard let held else {
                let error = FetchError(
                    .other, retry: .backoff,
                    message: "the fetcher answered \"not modified\" although the client holds no snapshot and sent no "
                        + "validators; check the fetcher or the server")
                return fail(.fetch(error), retry: .backoff)
            }
            if await renew(held.metadata.renewed(at: now, validators: validators)) == .cacheLostPayload {
                await repairCache(held: held, now: now)
            }
            return succeed(.unchanged, at: now)
        case .modified(let payload):
            return await apply(payload, held: held, now: now)
        }
    }

    /// Decodes a fetched payload and activates it (or keeps it pending, by policy), then persists it.
    private func apply(_ payload: FetchedPayload, held: ConfigSnapshot?, now: Date) async -> Result<RefreshResult, ConfigError> {
        let hash = ContentHash(of: payload.bytes)
        let metadata = SnapshotMetadata(
            fetchedAt: now, validators: payload.validators, contentHash: hash, source: payload.source,
            ttlHint: payload.ttlHint)
        if let held, held.metadata.contentHash == hash {
            if await renew(held.metadata.renewed(at: now, validators: payload.validators)) == .cacheLostPayload {
                await persistActive(CachedSnapshot(payload: payload.bytes, metadata: metadata))
            }
            return succeed(.unchanged, at: now)
        }
        let snapshot: ConfigSnapshot
        do throws(PayloadError) {
            snapshot = try settings.format.decodePayload(payload.bytes).snapshot(metadata)
        } catch {
            return fail(.payload(error), retry: .backoff)
        }
        let cached = CachedSnapshot(payload: payload.bytes, metadata: metadata)
        if settings.activation == .immediate {
            let changed = activate(snapshot, cause: .refresh)
            emit(.refreshed(changedKeys: changed))
            await persistActive(cached)
            return succeed(.updated(changedKeys: changed), at: now)
        }
        let (overrides, context) = state.withLock { ($0.overrides, $0.context) }
        let preview = resolver.resolve(
            snapshot: snapshot, previous: cell.load(), overrides: overrides, context: context, generation: 0)
        reportMistypedKeys(of: snapshot, unread: preview.unreadSnapshotKeys)
        var storedInCache = false
        if settings.activation == .nextLaunch, let cache = settings.cache {
            do throws(CacheError) {
                try await cache.store(cached, as: settings.configurationName, slot: .pending)
                storedInCache = true
            } catch {
                cacheWriteFailed(error)
            }
        }
        state.withLock { s in
            s.pending = PendingSnapshot(snapshot: snapshot, payload: payload.bytes, storedInCache: storedInCache)
            s.status.pendingActivation = true
        }
        emit(.pendingStored(changedKeys: preview.changedKeys))
        return succeed(.pendingActivation(changedKeys: preview.changedKeys), at: now)
    }

    /// The cache lost the payload a 304 confirmed (the OS purged it): fetch it once unconditionally and store it.
    private func repairCache(held: ConfigSnapshot, now: Date) async {
        guard
            case .modified(let payload) = try? await settings.fetcher.fetch(
                FetchRequest(validators: .none, configurationName: settings.configurationName))
        else { return }
        if ContentHash(of: payload.bytes) == held.metadata.contentHash {
            await persistActive(
                CachedSnapshot(payload: payload.bytes, metadata: held.metadata.renewed(at: now, validators: payload.validators)))
        } else {
            _ = await apply(payload, held: held, now: now)
        }
    }

    private func succeed(_ result: RefreshResult, at now: Date) -> Result<RefreshResult, ConfigError> {
        state.withLock { s in
            s.status.lastFetch = now
            s.status.lastOutcome = result
            s.status.lastError = nil
            s.status.scheduler.consecutiveFailures = 0
            if settings.minimumFetchInterval > 0, let attempt = s.status.scheduler.lastAttempt {
                s.status.scheduler.nextAllowedFetch = attempt.addingTimeInterval(settings.minimumFetchInterval)
                s.status.scheduler.hold = .minimumInterval
            } else {
                s.status.scheduler.nextAllowedFetch = nil
                s.status.scheduler.hold = .none
            }
        }
        if result == .unchanged { emit(.notModified) }
        return .success(result)
    }

    private func fail(_ error: ConfigError, retry: RetryAdvice) -> Result<RefreshResult, ConfigError> {
        let now = settings.clock.now()
        let jitter = settings.random()
        state.withLock { s in
            s.status.lastFetch = now
            s.status.lastError = error
            s.status.scheduler.consecutiveFailures += 1
            let attempt = s.status.scheduler.lastAttempt ?? now
            let minimumUntil = attempt.addingTimeInterval(settings.minimumFetchInterval)
            let backoffUntil = attempt.addingTimeInterval(
                settings.backoff.delay(afterFailures: s.status.scheduler.consecutiveFailures, random: jitter))
            var next = max(minimumUntil, backoffUntil)
            var hold: SchedulerState.Hold = backoffUntil >= minimumUntil ? .backoff : .minimumInterval
            if case .after(let date) = retry, date > next {
                next = date
                hold = .retryAfter
            }
            s.status.scheduler.nextAllowedFetch = next
            s.status.scheduler.hold = hold
        }
        emit(.refreshFailed(error))
        return .failure(error)
    }

    // MARK: Activation

    /// Resolves a new state from `snapshot` (and the current overrides, after `change`) and swaps
    /// it in; reports what changed and returns the changed keys.
    @discardableResult
    private func activate(
        _ snapshot: ConfigSnapshot?, cause: ConfigUpdate.Cause, change: (inout EngineState) -> Void = { _ in }
    ) -> [String] {
        let (output, generation) = state.withLock { s in
            change(&s)
            s.generation += 1
            let output = resolver.resolve(
                snapshot: snapshot, previous: cell.load(), overrides: s.overrides, context: s.context,
                generation: s.generation)
            cell.replace(with: output.state)
            return (output, s.generation)
        }
        if cause == .refresh, let snapshot { reportMistypedKeys(of: snapshot, unread: output.unreadSnapshotKeys) }
        publish(output, generation: generation, cause: cause)
        return output.changedKeys
    }

    /// Reports a new state: its new rejections, the activation, and the update naming the changed keys.
    private func publish(_ output: Resolver.Output, generation: UInt64, cause: ConfigUpdate.Cause) {
        for rejection in output.newRejections { emit(.valueRejected(rejection)) }
        emit(.activated(changedKeys: output.changedKeys))
        updates.send(ConfigUpdate(changedKeys: output.changedKeys, cause: cause, generation: generation))
    }

    // MARK: Context

    /// Changes the evaluation context with `update` and, if it changed, re-resolves the active
    /// snapshot for it under the lock (fetching nothing); returns the keys whose value changed.
    func changeContext(_ update: (inout EvaluationContext) -> Void) -> [String] {
        let resolved = state.withLock { s -> (Resolver.Output, UInt64)? in
            var context = s.context
            update(&context)
            guard !s.stopped, context != s.context else { return nil }
            s.context = context
            s.generation += 1
            let current = cell.load()
            let output = resolver.resolve(
                snapshot: current.snapshot, previous: current, overrides: s.overrides, context: context,
                generation: s.generation)
            cell.replace(with: output.state)
            return (output, s.generation)
        }
        guard let (output, generation) = resolved else { return [] }
        publish(output, generation: generation, cause: .context)
        return output.changedKeys
    }

    /// Applies the snapshot waiting for activation, if there is one.
    func activatePending() async -> RefreshResult? {
        let waiting = state.withLock { s in
            defer { s.pending = nil; s.status.pendingActivation = false }
            return s.pending
        }
        guard let waiting else { return nil }
        let changed = activate(waiting.snapshot, cause: .activation)
        if let cache = settings.cache {
            do throws(CacheError) {
                if waiting.storedInCache {
                    _ = try cache.promotePending(settings.configurationName)
                } else {
                    try await cache.store(
                        CachedSnapshot(payload: waiting.payload, metadata: waiting.snapshot.metadata),
                        as: settings.configurationName, slot: .active)
                }
                state.withLock { $0.status.cache = .inSync }
            } catch {
                cacheWriteFailed(error)
            }
        }
        return .updated(changedKeys: changed)
    }

    private enum Renewal { case renewed, cacheLostPayload }

    /// Renews the held snapshot's metadata (a 304, or the same bytes again), in memory and in the cache.
    private func renew(_ metadata: SnapshotMetadata) async -> Renewal {
        let renewedPending = state.withLock { s in
            if s.pending != nil {
                s.pending?.snapshot.metadata = metadata
                return true
            }
            s.generation += 1
            cell.replace(with: cell.load().renewing(metadata, generation: s.generation))
            return false
        }
        guard !renewedPending, let cache = settings.cache else { return .renewed }
        do throws(CacheError) {
            try await cache.renew(metadata, for: settings.configurationName)
            state.withLock { $0.status.cache = .inSync }
            return .renewed
        } catch {
            cacheWriteFailed(error)
            return error.kind == .notFound ? .cacheLostPayload : .renewed
        }
    }

    private func persistActive(_ snapshot: CachedSnapshot) async {
        guard let cache = settings.cache else { return }
        do throws(CacheError) {
            try await cache.store(snapshot, as: settings.configurationName, slot: .active)
            state.withLock { $0.status.cache = .inSync }
        } catch {
            cacheWriteFailed(error)
        }
    }

    private func cacheWriteFailed(_ error: CacheError) {
        state.withLock { $0.status.cache = .writeFailed(error) }
        emit(.cacheWriteFailed(error))
    }

    /// Reports payload keys that look like a registered key spelled differently (`Max-Retries` for `max_retries`).
    private func reportMistypedKeys(of snapshot: ConfigSnapshot, unread: Int) {
        guard unread > 0 else { return }
        let registry = resolver.registry
        for name in snapshot.values.keys.sorted() where registry.slot(named: name) == nil {
            if let intended = registry.likelyIntended(name) { emit(.mistypedKey(requested: name, registered: intended)) }
        }
    }

    // MARK: Overrides

    /// Replaces one override source's values and re-resolves if anything changed.
    func applyOverride(at position: Int, _ snapshot: OverrideSnapshot) {
        let (name, newProblems, changed) = state.withLock { s -> (String, [String], Bool) in
            guard !s.stopped, s.overrides.indices.contains(position) else { return ("", [], false) }
            let layer = s.overrides[position]
            let problems = snapshot.problems.filter { s.reportedProblems.insert(layer.name + "\u{0}" + $0).inserted }
            return (layer.name, problems, layer.snapshot != snapshot)
        }
        for problem in newProblems { emit(.overrideProblem(source: name, message: problem)) }
        guard changed else { return }
        activate(cell.load().snapshot, cause: .override(source: name)) { s in
            s.overrides[position] = OverrideLayer(name: name, snapshot: snapshot)
        }
    }

    // MARK: Lifecycle

    func stop() {
        let (task, waiters) = state.withLock { s in
            s.stopped = true
            s.status.scheduler.hold = .stopped
            s.status.scheduler.nextAllowedFetch = nil
            return (s.flight?.task, s.participantWaiters.map(\.continuation))
        }
        task?.cancel()
        state.withLock { $0.participantWaiters = [] }
        for waiter in waiters { waiter.resume() }
    }

    /// Seconds until the periodic refresh should next try.
    func nextPeriodicDelay(interval: TimeInterval) -> TimeInterval {
        let now = settings.clock.now()
        let next = state.withLock { $0.status.scheduler.nextAllowedFetch }
        return max(next.map { max(interval, $0.timeIntervalSince(now)) } ?? interval, 0)
    }
}

/// The engine's state, under its one lock.
struct EngineState {
    var overrides: [OverrideLayer]
    /// The evaluation context targeting rules are resolved for.
    var context = EvaluationContext.empty
    var generation: UInt64
    var status: EngineStatus
    var reportedProblems: Set<String>
    var pending: PendingSnapshot?
    var flight: Flight?
    var nextFlightID = 0
    var stopped = false
    var participantWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(overrides: [OverrideLayer], generation: UInt64, status: EngineStatus, reportedProblems: Set<String>) {
        self.overrides = overrides
        self.generation = generation
        self.status = status
        self.reportedProblems = reportedProblems
    }

    /// Removes and returns the waiters the flight's participants now satisfy.
    mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
        let count = flight?.participants ?? 0
        let ready = participantWaiters.filter { count >= $0.count }.map(\.continuation)
        participantWaiters.removeAll { count >= $0.count }
        return ready
    }
}

/// A refresh in flight and how many callers share it.
struct Flight {
    let id: Int
    let task: Task<Result<RefreshResult, ConfigError>, Never>
    var participants: Int
}

/// A fetched snapshot waiting for activation, with its original bytes.
struct PendingSnapshot: Sendable {
    var snapshot: ConfigSnapshot
    var payload: Data
    /// Whether the cache holds it in its pending slot (next-launch policy).
    var storedInCache: Bool
}

/// The engine's bookkeeping that `status` reads.
struct EngineStatus: Sendable {
    var lastFetch: Date?
    var lastOutcome: RefreshResult?
    var lastError: ConfigError?
    var scheduler = SchedulerState()
    var pendingActivation = false
    var cache: CacheStatus = .notConfigured
}
