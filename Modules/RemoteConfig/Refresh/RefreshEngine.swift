import ConfigDomain
import ConfigPorts
import Foundation

/// Fetches, decodes, activates and persists one remote provider's payloads (a client has one
/// engine per fetcher; `settings` holds this provider's fetcher, cache name and format).
///
/// The client's state holds the provider's decoded payload; the engine holds its metadata (when
/// fetched, validators, content hash): a `304 Not Modified` renews that metadata here and in the
/// cache, and resolves nothing.
///
/// One `Locked` value holds the engine's state: its scheduler, its pending snapshot and its
/// refresh in flight. A refresh in flight is a stored `Task`: callers that arrive while it runs
/// await the same task, and the task clears itself when its work (fetch, activation, cache) is
/// done, so a caller that arrives after that starts a new fetch. Activations go through the
/// client's one ``Activator``, so those of several providers never interleave.
///
/// A provider whose fetcher's server evaluates the flags for the client's context
/// (`ConfigFetcher.evaluatesContext`) holds the payload of one context at a time, in the cache slot
/// of that context's targeting key (``ContextSlot``). A context change moves the engine to the new
/// key's slot (``move(to:in:)``, under the activator's lock) and fetches again
/// (``refetchForNewContext()``); a refresh that was under way for the old context is cancelled, and
/// nothing it brings back is applied.
final class RefreshEngine: Sendable {
    let settings: ClientSettings
    /// This engine's position among the client's providers (0 is the builder's own fetcher).
    let provider: Int
    let activator: Activator
    let cell: StateCell
    let sink: EventSink
    /// Whether the fetcher's payloads hold for the context they were fetched for only.
    let evaluatesContext: Bool
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
        self.evaluatesContext = settings.fetcher.evaluatesContext
        var engineState = EngineState(status: status, slot: ContextSlot.cacheName(of: settings))
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

    /// Fetches (or takes the `pushed` payload), then applies what came back.
    ///
    /// A `304` renews the held payload's metadata. When the cache has lost that payload's bytes (the
    /// system purged it), one unconditional fetch brings them back: the same bytes are stored again,
    /// and other bytes are a new payload, applied like any other.
    private func fetchAndApply(pushed: FetchedPayload?) async -> Result<RefreshResult, ConfigError> {
        emit(.refreshStarted)
        let started = settings.clock.now()
        let (held, slot) = state.withLock { s in
            s.status.scheduler.lastAttempt = started
            return (s.held, s.slot)
        }
        // Read after the slot: a context change in between makes the slot stale, so what this brings is not applied.
        let context = cell.load().context
        if let pushed { return await apply(pushed, held: held, now: settings.clock.now(), slot: slot) }
        var fetched: FetchResult
        let outcome = await fetch(validators: held?.validators ?? .none, context: context, since: started)
        if !isCurrent(slot) { return await superseded() }
        switch outcome {
        case .success(let result): fetched = result
        case .failure(let error): return fail(.fetch(error), retry: error.retry)
        }
        if state.withLock({ $0.stopped }) { return .failure(.stopped) }
        let now = settings.clock.now()
        if case .notModified(let validators) = fetched {
            guard let held else {
                let error = FetchError(
                    .other, retry: .backoff,
                    message: "the fetcher answered \"not modified\" although the client holds no snapshot and sent no "
                        + "validators; check the fetcher or the server")
                return fail(.fetch(error), retry: .backoff)
            }
            let renewed = held.renewed(at: now, validators: validators)
            let renewal = await renew(renewed, slot: slot)
            if renewal == .superseded { return await superseded() }
            guard renewal == .cacheLostPayload,
                case .success(let repair) = await fetch(validators: .none, context: context, since: settings.clock.now())
            else { return succeed(.unchanged, at: now) }
            if !isCurrent(slot) { return await superseded() }
            fetched = repair
            if case .modified(let payload) = repair, ContentHash(of: payload.bytes) == held.contentHash {
                await persistActive(
                    CachedSnapshot(payload: payload.bytes, metadata: renewed.renewed(at: now, validators: payload.validators)),
                    as: slot.cacheName)
                return succeed(.unchanged, at: now)
            }
        }
        guard case .modified(let payload) = fetched else { return succeed(.unchanged, at: now) }
        return await apply(payload, held: held, now: now, slot: slot)
    }

    /// Asks the fetcher for the payload, sending `validators` and the client's `context`, and reports what it answered.
    private func fetch(validators: Validators, context: EvaluationContext, since started: Date) async -> Result<
        FetchResult, FetchError
    > {
        do throws(FetchError) {
            let fetched = try await settings.fetcher.fetch(
                FetchRequest(validators: validators, configurationName: settings.configurationName, context: context))
            emitFetched(fetched.outcome, since: started)
            return .success(fetched)
        } catch {
            emitFetched(.failed(error), since: started)
            return .failure(error)
        }
    }

    /// Reports what the fetcher answered and how long it took by the client's clock (never negative).
    private func emitFetched(_ outcome: FetchOutcome, since started: Date) {
        emit(.fetched(outcome, duration: max(0, settings.clock.now().timeIntervalSince(started))))
    }

    /// Decodes a fetched or pushed payload and activates it (or keeps it pending, by policy), then persists it.
    private func apply(
        _ payload: FetchedPayload, held: SnapshotMetadata?, now: Date, slot: Slot
    ) async -> Result<RefreshResult, ConfigError> {
        let hash = ContentHash(of: payload.bytes)
        let metadata = SnapshotMetadata(
            fetchedAt: now, validators: payload.validators, contentHash: hash, source: payload.source,
            ttlHint: payload.ttlHint, signature: payload.signature)
        if let held, held.contentHash == hash {
            switch await renew(held.renewed(at: now, validators: payload.validators), slot: slot) {
            case .superseded:
                return await superseded()
            case .cacheLostPayload:
                // With the held signature, which was verified for these very bytes.
                var repaired = metadata
                repaired.signature = held.signature
                await persistActive(CachedSnapshot(payload: payload.bytes, metadata: repaired), as: slot.cacheName)
            case .renewed:
                break
            }
            return succeed(.unchanged, at: now)
        }
        do throws(SignatureError) {
            try settings.verifier?.verify(
                payload.bytes, metadata: metadata, replacing: held, configurationName: settings.configurationName)
        } catch {
            return fail(.signature(error), retry: .doNotRetry)
        }
        let decoded: DecodedPayload
        do throws(PayloadError) {
            decoded = try settings.format.decodePayload(payload.bytes)
        } catch {
            return fail(.payload(error.from(payload.source)), retry: .backoff)
        }
        let cached = CachedSnapshot(payload: payload.bytes, metadata: metadata)
        if settings.activation == .immediate {
            guard let output = activate(decoded, metadata: metadata, cause: .refresh, slot: slot) else {
                return await superseded()
            }
            emit(.refreshed(changedKeys: output.changedKeys))
            await recordLastGood(of: output.state, as: slot.cacheName)
            await persistActive(cached, as: slot.cacheName)
            if let refused = everyValueRejected(in: output) { return fail(.rejected(refused), retry: .backoff) }
            return succeed(.updated(changedKeys: output.changedKeys), at: now)
        }
        let (preview, previewedOn) = activator.preview(decoded, from: payload.source, as: provider)
        reportMistypedKeys(of: decoded, unread: preview.unreadSnapshotKeys)
        var storedInCache = false
        if settings.activation == .nextLaunch, let cache = settings.cache {
            // The next launch activates this payload: what it will keep as last good is what the preview kept.
            await recordLastGood(of: preview.state, as: slot.cacheName)
            do throws(CacheError) {
                try await cache.store(cached, as: slot.cacheName, slot: .pending)
                storedInCache = true
            } catch {
                cacheWriteFailed(error)
            }
        }
        let kept = state.withLock { s in
            guard s.slot.epoch == slot.epoch else { return false }
            s.pending = PendingSnapshot(
                payload: decoded, cached: cached, storedInCache: storedInCache, preview: preview, previewedOn: previewedOn)
            s.status.pendingActivation = true
            return true
        }
        if !kept { return await superseded() }
        emit(.pendingStored(changedKeys: preview.changedKeys))
        if let refused = everyValueRejected(in: preview) { return fail(.rejected(refused), retry: .backoff) }
        return succeed(.pendingActivation(changedKeys: preview.changedKeys), at: now)
    }

    /// The first of this provider's values that `output` refused, when it refused every value the
    /// payload offered the registered keys (so none reads from it): such a refresh fails, though
    /// the payload is held, so that a later fetch of the same payload answers "not modified".
    private func everyValueRejected(in output: Resolver.Output) -> Rejection? {
        let state = output.state
        if state.layers.contains(.snapshot(provider)) { return nil }
        // A value an override hides still passed.
        if state.hiddenRemote.values.contains(where: { $0.provider == provider && !$0.isKept }) { return nil }
        let origin = state.sources.rejectionOrigin(of: provider)
        return state.rejections.keys.sorted().lazy.compactMap { slot in
            state.rejections[slot]?.first { $0.origin == origin }
        }.first
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

    /// Makes `payload`, described by `metadata`, this provider's active payload through the client's
    /// ``Activator``; returns what changed.
    /// nil when the client's context moved to another slot since `slot` was taken: nothing is activated.
    private func activate(
        _ payload: DecodedPayload, metadata: SnapshotMetadata, cause: ConfigUpdate.Cause, slot: Slot
    ) -> Resolver.Output? {
        let current = state.withLock { s in
            guard s.slot.epoch == slot.epoch else { return false }
            s.status.active = metadata
            return true
        }
        guard current else { return nil }
        let output = activator.activate(cause: cause) { sources in
            // Under the activator's lock, which a context change holds while it moves the slot.
            guard isCurrent(slot) else { return }
            sources.activate(payload, from: metadata.source, as: provider)
        }
        if cause == .refresh { reportMistypedKeys(of: payload, unread: output.unreadSnapshotKeys) }
        return output
    }

    /// Applies the payload waiting for activation, if there is one: the state its preview resolved,
    /// unless another activation came in between.
    func activatePending() async -> RefreshResult? {
        let (waiting, cacheName) = state.withLock { s in
            defer { s.pending = nil; s.status.pendingActivation = false }
            if let pending = s.pending { s.status.active = pending.cached.metadata }
            return (s.pending, s.slot.cacheName)
        }
        guard let waiting else { return nil }
        let metadata = waiting.cached.metadata
        let output = activator.activate(waiting.preview, resolvedOn: waiting.previewedOn, cause: .activation) {
            $0.activate(waiting.payload, from: metadata.source, as: provider)
        }
        await recordLastGood(of: output.state, as: cacheName)
        if let cache = settings.cache {
            do throws(CacheError) {
                if waiting.storedInCache {
                    _ = try cache.promotePending(cacheName)
                } else {
                    try await cache.store(waiting.cached, as: cacheName, slot: .active)
                }
                state.withLock { $0.status.cache = .inSync }
            } catch {
                cacheWriteFailed(error)
            }
        }
        return .updated(changedKeys: output.changedKeys)
    }

    private enum Renewal { case renewed, cacheLostPayload, superseded }

    /// Renews the held payload's metadata (a 304, or the same bytes again), in memory and in the cache
    /// slot `slot` names; nothing is resolved again. Nothing is renewed when the context moved to
    /// another slot since `slot` was taken.
    private func renew(_ metadata: SnapshotMetadata, slot: Slot) async -> Renewal {
        let renewedPending = state.withLock { s -> Bool? in
            guard s.slot.epoch == slot.epoch else { return nil }
            if s.pending != nil {
                s.pending?.cached.metadata = metadata
                return true
            }
            s.status.active = metadata
            return false
        }
        guard let renewedPending else { return .superseded }
        guard !renewedPending, let cache = settings.cache else { return .renewed }
        do throws(CacheError) {
            try await cache.renew(metadata, for: slot.cacheName)
            state.withLock { $0.status.cache = .inSync }
            return .renewed
        } catch {
            cacheWriteFailed(error)
            return error.kind == .notFound ? .cacheLostPayload : .renewed
        }
    }

    /// Stores the last good values this provider supplies in `state` (see ``LastGoodValues``) when they
    /// differ from what the cache holds, before the payload that made them is stored.
    private func recordLastGood(of resolved: ResolvedState, as cacheName: String) async {
        guard let cache = settings.cache, settings.verifier == nil else { return }
        let values = LastGoodValues(of: provider, in: resolved, names: activator.resolver.registry.names)
        let recorded = state.withLock { $0.slot.cacheName == cacheName ? $0.recordedLastGood : nil }
        if values == recorded { return }
        if recorded == nil, values.entries.isEmpty, cache.load(cacheName, slot: .lastGood).snapshot == nil {
            // Nothing to keep, and no record to replace.
            state.withLock { if $0.slot.cacheName == cacheName { $0.recordedLastGood = values } }
            return
        }
        do throws(CacheError) {
            try await cache.store(values.cached(at: settings.clock.now()), as: cacheName, slot: .lastGood)
            state.withLock { if $0.slot.cacheName == cacheName { $0.recordedLastGood = values } }
        } catch {
            cacheWriteFailed(error)
        }
    }

    private func persistActive(_ snapshot: CachedSnapshot, as cacheName: String) async {
        guard let cache = settings.cache else { return }
        do throws(CacheError) {
            try await cache.store(snapshot, as: cacheName, slot: .active)
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
    private func reportMistypedKeys(of payload: DecodedPayload, unread: Int) {
        guard unread > 0 else { return }
        let registry = activator.resolver.registry
        let mistyped = payload.values.keys.filter { registry.slot(named: $0) == nil }.sorted().compactMap { name in
            registry.likelyIntended(name).map { (name: name, intended: $0) }
        }
        let new = state.withLock { s in mistyped.filter { s.reportedMistypedKeys.insert($0.name).inserted } }
        for key in new { emit(.mistypedKey(requested: key.name, registered: key.intended)) }
    }

    // MARK: Context changes (providers whose payloads are evaluated remotely)

    /// The cache name the engine's payload lives under now.
    var cacheName: String { state.withLock { $0.slot.cacheName } }

    /// Whether no context change has moved the engine since `slot` was taken.
    private func isCurrent(_ slot: Slot) -> Bool { state.withLock { $0.slot.epoch == slot.epoch } }

    /// The answer of a refresh whose context the client has left: the refresh the context change
    /// started (or the one running now), whose answer is for the context reads see.
    private func superseded() async -> Result<RefreshResult, ConfigError> {
        if let flight = currentFlight { return await flight.value }
        return .success(.unchanged)
    }

    /// Called by the activator, under its lock, as the client's context becomes `sources.context`:
    /// a provider whose payloads are evaluated remotely moves to the slot of the new targeting key,
    /// serving what the cache holds there (nothing when it holds nothing, so the keys fall to the
    /// layers below), and forgets the refresh in flight for the old context (cancelled: nothing it
    /// brings is applied). Fetches nothing: ``refetchForNewContext()`` does, once the lock is released.
    func move(to context: EvaluationContext, in sources: inout ValueSources) {
        guard evaluatesContext else { return }
        let name = ContextSlot.cacheName(
            base: settings.configurationName, targetingKey: context.targetingKey, evaluatesContext: true)
        let moves = state.withLock { $0.slot.cacheName != name }
        let cached = moves ? loadSlot(name) : nil
        let detached = state.withLock { s -> Flight? in
            s.slot.epoch += 1
            defer { s.flight = nil }
            guard moves else { return s.flight }
            s.slot.cacheName = name
            s.status.active = cached?.metadata
            s.pending = nil
            s.status.pendingActivation = false
            s.recordedLastGood = nil
            if settings.cache != nil { s.status.cache = cached == nil ? .empty : .inSync }
            return s.flight
        }
        detached?.task.cancel()
        guard moves else { return }
        sources.payloads[provider] = cached?.payload
        sources.origins[provider] = cached?.metadata.source ?? ""
        sources.slots[provider] = name
    }

    /// Fetches for the context the client has just moved to, in the background (a server's
    /// `Retry-After` still holds; the minimum interval and backoff do not).
    func refetchForNewContext() {
        guard evaluatesContext else { return }
        _ = join(force: true)
    }

    /// The payload the cache holds under `name`, decoded, with its metadata; nil when there is none,
    /// or none the verifier accepts or the format decodes.
    private func loadSlot(_ name: String) -> (payload: DecodedPayload, metadata: SnapshotMetadata)? {
        guard let cached = settings.cache?.load(name, slot: .active).snapshot else { return nil }
        do {
            try settings.verifier?.verify(
                cached.payload, metadata: cached.metadata, replacing: nil, configurationName: settings.configurationName)
            return (try settings.format.decodePayload(cached.payload), cached.metadata)
        } catch {
            return nil
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
    var status: EngineStatus
    /// The cache slot the engine's payload lives in now, and how many context changes moved it.
    var slot: Slot
    var pending: PendingSnapshot?
    var flight: Flight?
    var nextFlightID = 0
    var stopped = false
    /// The payload names already reported as mistyped.
    var reportedMistypedKeys: Set<String> = []
    /// The last good values the cache holds for this provider, when known.
    var recordedLastGood: LastGoodValues?
    var participantWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(status: EngineStatus, slot cacheName: String) {
        self.status = status
        self.slot = Slot(epoch: 0, cacheName: cacheName)
    }

    /// The metadata of the payload held: the pending one if any, else the active one.
    var held: SnapshotMetadata? { pending?.cached.metadata ?? status.active }

    /// Removes and returns the waiters the flight's participants now satisfy.
    mutating func takeWaiters() -> [CheckedContinuation<Void, Never>] {
        let count = flight?.participants ?? 0
        let ready = participantWaiters.filter { count >= $0.count }.map(\.continuation)
        participantWaiters.removeAll { count >= $0.count }
        return ready
    }
}

/// Where a provider's payload lives now: its cache name (see ``ContextSlot``), and the number of the
/// context change that put it there. A refresh takes the slot when it starts, and applies what it
/// brings only while the epoch is still the same.
struct Slot: Sendable, Hashable {
    var epoch: Int
    var cacheName: String
}

/// A refresh in flight and how many callers share it.
struct Flight {
    let id: Int
    let task: Task<Result<RefreshResult, ConfigError>, Never>
    var participants: Int
}

/// A fetched payload waiting for activation: decoded, as stored, and the state its activation resolves to.
struct PendingSnapshot: Sendable {
    let payload: DecodedPayload
    /// Its bytes and metadata.
    var cached: CachedSnapshot
    /// Whether the cache holds it in its pending slot (next-launch policy).
    let storedInCache: Bool
    /// What activating it resolved to, and the generation of the state that resolution started from.
    let preview: Resolver.Output
    let previewedOn: UInt64
}

/// The engine's bookkeeping that `status` reads.
struct EngineStatus: Sendable {
    /// The metadata of the active payload (when fetched, validators, content hash), or nil when there is none.
    var active: SnapshotMetadata?
    var lastFetch: Date?
    var lastOutcome: RefreshResult?
    var lastError: ConfigError?
    var scheduler = SchedulerState()
    var pendingActivation = false
    var cache: CacheStatus = .notConfigured
}
