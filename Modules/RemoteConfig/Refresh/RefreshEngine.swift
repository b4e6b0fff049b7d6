import ConfigDomain
import ConfigPorts
import Foundation

/// Fetches, decodes, activates and persists one remote provider's snapshots (a client has one
/// engine per fetcher; `settings` holds this provider's fetcher, cache name and format).
///
/// One `Locked` value holds the engine's state: its scheduler, its pending snapshot and its
/// refresh in flight. A refresh in flight is a stored `Task`: callers that arrive while it runs
/// await the same task, and the task clears itself when its work (fetch, activation, cache) is
/// done, so a caller that arrives after that starts a new fetch. Activations go through the
/// client's one ``Activator``, so those of several providers never interleave.
final class RefreshEngine: Sendable {
    let settings: ClientSettings
    /// This engine's position among the client's providers (0 is the builder's own fetcher).
    let provider: Int
    let activator: Activator
    let cell: StateCell
    let sink: EventSink
    private let state: Locked<EngineState>

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
        var engineState = EngineState(status: status)
        engineState.recordedLastGood = recordedLastGood
        state = Locked(engineState)
    }

    func emit(_ event: ConfigEvent) { sink.emit(event) }

    /// What `status` reads.
    var status: EngineStatus { state.withLock { $0.status } }

    // MARK: Refresh

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
            if onlyIfStale, let metadata = cell.load().snapshot(of: provider)?.metadata,
                settings.freshness(of: metadata) == .fresh
            {
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

    // MARK: Push (the signals of push sources arrive through PushReceiver)

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

    /// Whether the snapshot held (the pending one if any, else the active one) is the version `version` names.
    func holds(version: String) -> Bool {
        let held = state.withLock { $0.pending?.snapshot ?? cell.load().snapshot(of: provider) }
        return held.map { ChangeSignal.isSameVersion(version, as: $0.metadata.validators) } ?? false
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

    private func performRefresh(id: Int, pushed: FetchedPayload?) async -> Result<RefreshResult, ConfigError> {
        let result = await fetchAndApply(pushed: pushed)
        state.withLock { s in if s.flight?.id == id { s.flight = nil } }
        return result
    }

    /// Fetches (or takes the `pushed` payload), then applies what came back.
    private func fetchAndApply(pushed: FetchedPayload?) async -> Result<RefreshResult, ConfigError> {
        emit(.refreshStarted)
        let started = settings.clock.now()
        let held = state.withLock { s in
            s.status.scheduler.lastAttempt = started
            return s.pending?.snapshot ?? cell.load().snapshot(of: provider)
        }
        let fetched: FetchResult
        do throws(FetchError) {
            if let pushed {
                fetched = .modified(pushed)
            } else {
                fetched = try await settings.fetcher.fetch(
                    FetchRequest(validators: held?.metadata.validators ?? .none, configurationName: settings.configurationName))
            }
        } catch {
            emitFetched(.failed(error), since: started)
            return fail(.fetch(error), retry: error.retry)
        }
        if pushed == nil { emitFetched(fetched.outcome, since: started) }  // a pushed payload was not fetched
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

    /// Reports what the fetcher answered and how long it took by the client's clock (never negative).
    private func emitFetched(_ outcome: FetchOutcome, since started: Date) {
        emit(.fetched(outcome, duration: max(0, settings.clock.now().timeIntervalSince(started))))
    }

    /// Decodes a fetched payload and activates it (or keeps it pending, by policy), then persists it.
    private func apply(_ payload: FetchedPayload, held: ConfigSnapshot?, now: Date) async -> Result<RefreshResult, ConfigError> {
        let hash = ContentHash(of: payload.bytes)
        let metadata = SnapshotMetadata(
            fetchedAt: now, validators: payload.validators, contentHash: hash, source: payload.source,
            ttlHint: payload.ttlHint, signature: payload.signature)
        if let held, held.metadata.contentHash == hash {
            if await renew(held.metadata.renewed(at: now, validators: payload.validators)) == .cacheLostPayload {
                // With the held signature, which was verified for these very bytes.
                var repaired = metadata
                repaired.signature = held.metadata.signature
                await persistActive(CachedSnapshot(payload: payload.bytes, metadata: repaired))
            }
            return succeed(.unchanged, at: now)
        }
        do throws(SignatureError) {
            try settings.verifier?.verify(
                payload.bytes, metadata: metadata, replacing: held?.metadata, configurationName: settings.configurationName)
        } catch {
            return fail(.signature(error), retry: .doNotRetry)
        }
        let snapshot: ConfigSnapshot
        do throws(PayloadError) {
            snapshot = try settings.format.decodePayload(payload.bytes).snapshot(metadata)
        } catch {
            return fail(.payload(error.from(payload.source)), retry: .backoff)
        }
        let cached = CachedSnapshot(payload: payload.bytes, metadata: metadata)
        if settings.activation == .immediate {
            let output = activate(snapshot, cause: .refresh)
            emit(.refreshed(changedKeys: output.changedKeys))
            await recordLastGood(of: output.state)
            await persistActive(cached)
            if let refused = everyValueRejected(in: output, of: snapshot) { return fail(.rejected(refused), retry: .backoff) }
            return succeed(.updated(changedKeys: output.changedKeys), at: now)
        }
        let preview = activator.preview(snapshot, of: provider)
        reportMistypedKeys(of: snapshot, unread: preview.unreadSnapshotKeys)
        var storedInCache = false
        if settings.activation == .nextLaunch, let cache = settings.cache {
            // The next launch activates this payload: what it will keep as last good is what the preview kept.
            await recordLastGood(of: preview.state)
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
        if let refused = everyValueRejected(in: preview, of: snapshot) { return fail(.rejected(refused), retry: .backoff) }
        return succeed(.pendingActivation(changedKeys: preview.changedKeys), at: now)
    }

    /// The first of the snapshot's values that `output` refused, when it refused every value the
    /// snapshot offered the registered keys (so none reads from it): such a refresh fails, though
    /// the snapshot is held, so that a later fetch of the same payload answers "not modified".
    private func everyValueRejected(in output: Resolver.Output, of snapshot: ConfigSnapshot) -> Rejection? {
        let state = output.state
        if state.layers.contains(.snapshot(provider)) { return nil }
        // A value an override hides still passed.
        if state.hiddenRemote.values.contains(where: { $0.provider == provider && !$0.isKept }) { return nil }
        let origin = RemoteSnapshot(provider: provider, snapshot: snapshot).origin
        return state.rejections.keys.sorted().lazy.compactMap { slot in
            state.rejections[slot]?.first { $0.origin == origin }
        }.first
    }

    /// The cache lost the payload a 304 confirmed (the OS purged it): fetch it once unconditionally and store it.
    private func repairCache(held: ConfigSnapshot, now: Date) async {
        let started = settings.clock.now()
        let fetched: FetchResult
        do throws(FetchError) {
            fetched = try await settings.fetcher.fetch(
                FetchRequest(validators: .none, configurationName: settings.configurationName))
        } catch {
            emitFetched(.failed(error), since: started)
            return
        }
        emitFetched(fetched.outcome, since: started)
        guard case .modified(let payload) = fetched else { return }
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

    /// Makes `snapshot` this provider's active snapshot through the client's ``Activator``;
    /// returns the keys whose value changed.
    @discardableResult
    private func activate(_ snapshot: ConfigSnapshot, cause: ConfigUpdate.Cause) -> Resolver.Output {
        let output = activator.activate(cause: cause) { $0.snapshots[provider] = snapshot }
        if cause == .refresh { reportMistypedKeys(of: snapshot, unread: output.unreadSnapshotKeys) }
        return output
    }

    /// Applies the snapshot waiting for activation, if there is one.
    func activatePending() async -> RefreshResult? {
        let waiting = state.withLock { s in
            defer { s.pending = nil; s.status.pendingActivation = false }
            return s.pending
        }
        guard let waiting else { return nil }
        let output = activate(waiting.snapshot, cause: .activation)
        await recordLastGood(of: output.state)
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
        return .updated(changedKeys: output.changedKeys)
    }

    private enum Renewal { case renewed, cacheLostPayload }

    /// Renews the held snapshot's metadata (a 304, or the same bytes again), in memory and in the cache.
    private func renew(_ metadata: SnapshotMetadata) async -> Renewal {
        let renewedPending = state.withLock { s in
            if s.pending != nil {
                s.pending?.snapshot.metadata = metadata
                return true
            }
            return false
        }
        if !renewedPending { activator.renew(metadata, of: provider) }
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

    /// Stores the last good values this provider supplies in `state` (see ``LastGoodValues``) when they
    /// differ from what the cache holds, before the payload that made them is stored.
    private func recordLastGood(of resolved: ResolvedState) async {
        guard let cache = settings.cache, settings.verifier == nil else { return }
        let values = LastGoodValues(of: provider, in: resolved, names: activator.resolver.registry.names)
        let recorded = state.withLock { $0.recordedLastGood }
        if values == recorded { return }
        if recorded == nil, values.entries.isEmpty, cache.load(settings.configurationName, slot: .lastGood).snapshot == nil {
            state.withLock { $0.recordedLastGood = values }  // Nothing to keep, and no record to replace.
            return
        }
        do throws(CacheError) {
            try await cache.store(values.cached(at: settings.clock.now()), as: settings.configurationName, slot: .lastGood)
            state.withLock { $0.recordedLastGood = values }
        } catch {
            cacheWriteFailed(error)
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

    /// Reports payload keys that look like a registered key spelled differently (`Max-Retries` for
    /// `max_retries`), each name once: a payload that keeps it does not repeat the event on every refresh.
    private func reportMistypedKeys(of snapshot: ConfigSnapshot, unread: Int) {
        guard unread > 0 else { return }
        let registry = activator.resolver.registry
        let mistyped = snapshot.values.keys.filter { registry.slot(named: $0) == nil }.sorted().compactMap { name in
            registry.likelyIntended(name).map { (name: name, intended: $0) }
        }
        let new = state.withLock { s in mistyped.filter { s.reportedMistypedKeys.insert($0.name).inserted } }
        for key in new { emit(.mistypedKey(requested: key.name, registered: key.intended)) }
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
    var status: EngineStatus
    var pending: PendingSnapshot?
    var flight: Flight?
    var nextFlightID = 0
    var stopped = false
    /// The payload names already reported as mistyped.
    var reportedMistypedKeys: Set<String> = []
    /// The last good values the cache holds for this provider, when known.
    var recordedLastGood: LastGoodValues?
    var participantWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(status: EngineStatus) { self.status = status }

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
