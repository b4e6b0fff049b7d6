import ConfigDomain
import ConfigPorts
import Foundation

/// The one place that changes a client's state: refreshes (single-flight), activation, 304
/// renewals, override changes and the scheduler. Reads never come here; they load the
/// ``StateCell`` directly.
actor RefreshEngine {
    let settings: ClientSettings
    let registry: KeyRegistry
    let resolver: Resolver
    let cell: StateCell
    let status: EngineStatusCell
    let sink: EventSink
    let updates: Broadcaster<ConfigUpdate>

    private var generation: UInt64
    private var overrides: [OverrideLayer]
    private var pending: PendingSnapshot?
    private var stopped = false
    private var flight: Flight?
    private var nextFlightID = 0
    private var participantWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private var reportedProblems: Set<String> = []

    private struct Flight {
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

    init(
        settings: ClientSettings, registry: KeyRegistry, cell: StateCell, initialGeneration: UInt64,
        overrides: [OverrideLayer], status: EngineStatusCell, sink: EventSink,
        updates: Broadcaster<ConfigUpdate>
    ) {
        self.settings = settings
        self.registry = registry
        self.resolver = Resolver(registry: registry)
        self.cell = cell
        self.generation = initialGeneration
        self.overrides = overrides
        // The builder already reported the problems of the first snapshots; do not repeat them
        // when each source's change stream yields its current state first.
        self.reportedProblems = Set(overrides.flatMap { layer in layer.snapshot.problems.map { layer.name + "\u{0}" + $0 } })
        self.status = status
        self.sink = sink
        self.updates = updates
    }

    // MARK: Events

    nonisolated func emit(_ event: ConfigEvent) { sink.emit(event) }

    // MARK: Refresh

    /// Fetches unless the scheduler holds it back; concurrent callers share one fetch.
    func refresh(force: Bool) async -> Result<RefreshResult, ConfigError> {
        if stopped { return .failure(.stopped) }
        if var current = flight {
            current.participants += 1
            flight = current
            resumeParticipantWaiters()
            return await current.task.value
        }
        let now = settings.clock.now()
        if let skip = scheduledHold(now: now, force: force) {
            emit(.refreshSkipped(reason: skip.hold.description, nextAllowed: skip.until))
            return .success(.skipped(reason: skip.hold, nextAllowed: skip.until))
        }
        nextFlightID += 1
        let id = nextFlightID
        let task = Task { await self.performRefresh() }
        flight = Flight(id: id, task: task, participants: 1)
        resumeParticipantWaiters()
        let result = await task.value
        if flight?.id == id { flight = nil }
        return result
    }

    /// Suspends until the refresh in flight has at least `count` callers (tests use this to make races deterministic).
    func waitForParticipants(_ count: Int) async {
        if (flight?.participants ?? 0) >= count { return }
        await withCheckedContinuation { continuation in
            participantWaiters.append((count, continuation))
        }
    }

    private func resumeParticipantWaiters() {
        let current = flight?.participants ?? 0
        var remaining: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        for waiter in participantWaiters {
            if current >= waiter.count { waiter.continuation.resume() } else { remaining.append(waiter) }
        }
        participantWaiters = remaining
    }

    private func scheduledHold(now: Date, force: Bool) -> (hold: SchedulerState.Hold, until: Date?)? {
        let scheduler = status.withLock { $0.scheduler }
        guard let next = scheduler.nextAllowedFetch, next > now else { return nil }
        if force && scheduler.hold != .retryAfter { return nil }
        return (scheduler.hold, next)
    }

    private func performRefresh() async -> Result<RefreshResult, ConfigError> {
        emit(.refreshStarted)
        let started = settings.clock.now()
        status.withLock { $0.scheduler.lastAttempt = started }
        let held = pending?.snapshot ?? cell.load().snapshot
        let request = FetchRequest(validators: held?.metadata.validators ?? .none, configurationName: settings.configurationName)

        let fetched: FetchResult
        do throws(FetchError) {
            fetched = try await settings.fetcher.fetch(request)
        } catch {
            return fail(.fetch(error), retry: error.retry)
        }
        if stopped { return .failure(.stopped) }
        let now = settings.clock.now()

        switch fetched {
        case .notModified(let validators):
            guard let held else {
                return fail(
                    .fetch(
                        FetchError(
                            .other, retry: .backoff,
                            message:
                                "the fetcher answered \"not modified\" although the client holds no snapshot and sent no validators; check the fetcher or the server"
                        )), retry: .backoff)
            }
            await renew(held.metadata.renewed(at: now, validators: validators))
            return succeed(.unchanged, at: now)

        case .modified(let payload):
            let hash = ContentHash(of: payload.bytes)
            if let held, held.metadata.contentHash == hash {
                await renew(held.metadata.renewed(at: now, validators: payload.validators))
                return succeed(.unchanged, at: now)
            }
            let values: [String: ConfigValue]
            do throws(PayloadError) {
                values = try settings.format.decode(payload.bytes)
            } catch {
                return fail(.payload(error), retry: .backoff)
            }
            let metadata = SnapshotMetadata(
                fetchedAt: now, validators: payload.validators, contentHash: hash, source: payload.source,
                ttlHint: payload.ttlHint)
            let snapshot = ConfigSnapshot(values: values, metadata: metadata)
            switch settings.activation {
            case .immediate:
                let changed = activate(snapshot, cause: .refresh)
                emit(.refreshed(changedKeys: changed))
                await persistActive(CachedSnapshot(payload: payload.bytes, metadata: metadata))
                return succeed(.updated(changedKeys: changed), at: now)
            case .nextLaunch, .manual:
                let preview = resolver.resolve(snapshot: snapshot, previous: cell.load(), overrides: overrides, generation: 0)
                reportMistypedPayloadKeys(snapshot, unread: preview.unreadSnapshotKeys)
                let changed = preview.changedKeys
                var storedInCache = false
                if settings.activation == .nextLaunch, let cache = settings.cache {
                    do throws(CacheError) {
                        try await cache.store(
                            CachedSnapshot(payload: payload.bytes, metadata: metadata), as: settings.configurationName,
                            slot: .pending)
                        storedInCache = true
                    } catch {
                        cacheWriteFailed(error)
                    }
                }
                pending = PendingSnapshot(snapshot: snapshot, payload: payload.bytes, storedInCache: storedInCache)
                status.withLock { $0.pendingActivation = true }
                emit(.pendingStored(changedKeys: changed))
                return succeed(.pendingActivation(changedKeys: changed), at: now)
            }
        }
    }

    private func succeed(_ result: RefreshResult, at now: Date) -> Result<RefreshResult, ConfigError> {
        status.withLock { s in
            s.lastFetch = now
            s.lastOutcome = result
            s.lastError = nil
            s.scheduler.consecutiveFailures = 0
            if settings.minimumFetchInterval > 0 {
                s.scheduler.nextAllowedFetch = s.scheduler.lastAttempt.map {
                    $0.addingTimeInterval(settings.minimumFetchInterval)
                }
                s.scheduler.hold = .minimumInterval
            } else {
                s.scheduler.nextAllowedFetch = nil
                s.scheduler.hold = .none
            }
        }
        if result == .unchanged { emit(.notModified) }
        return .success(result)
    }

    private func fail(_ error: ConfigError, retry: RetryAdvice) -> Result<RefreshResult, ConfigError> {
        let now = settings.clock.now()
        status.withLock { s in
            s.lastFetch = now
            s.lastError = error
            s.scheduler.consecutiveFailures += 1
            let failures = s.scheduler.consecutiveFailures
            let attempt = s.scheduler.lastAttempt ?? now
            let minimumUntil = attempt.addingTimeInterval(settings.minimumFetchInterval)
            let backoffUntil = attempt.addingTimeInterval(
                settings.backoff.delay(afterFailures: failures, random: settings.random()))
            var next = max(minimumUntil, backoffUntil)
            var hold: SchedulerState.Hold = backoffUntil >= minimumUntil ? .backoff : .minimumInterval
            if case .after(let date) = retry, date > next {
                next = date
                hold = .retryAfter
            }
            s.scheduler.nextAllowedFetch = next
            s.scheduler.hold = hold
        }
        emit(.refreshFailed(error))
        return .failure(error)
    }

    // MARK: Activation

    /// Resolves and swaps in a new state with `snapshot`; returns the changed keys.
    @discardableResult
    private func activate(_ snapshot: ConfigSnapshot?, cause: ConfigUpdate.Cause) -> [String] {
        let old = cell.load()
        generation &+= 1
        let output = resolver.resolve(snapshot: snapshot, previous: old, overrides: overrides, generation: generation)
        cell.replace(output.state)
        // Misspelt payload keys first, then rejected values, then what changed.
        if cause == .refresh, let snapshot { reportMistypedPayloadKeys(snapshot, unread: output.unreadSnapshotKeys) }
        for rejection in output.newRejections { emit(.valueRejected(rejection)) }
        let changed = output.changedKeys
        emit(.activated(changedKeys: changed))
        updates.send(ConfigUpdate(changedKeys: changed, cause: cause, generation: generation))
        return changed
    }

    /// Applies the pending snapshot now, if there is one.
    func activatePending() async -> RefreshResult? {
        guard let pending else { return nil }
        self.pending = nil
        status.withLock { $0.pendingActivation = false }
        let changed = activate(pending.snapshot, cause: .activation)
        if let cache = settings.cache {
            do throws(CacheError) {
                if pending.storedInCache {
                    _ = try await cache.promotePending(settings.configurationName)
                } else {
                    try await cache.store(
                        CachedSnapshot(payload: pending.payload, metadata: pending.snapshot.metadata),
                        as: settings.configurationName, slot: .active)
                }
                status.withLock { $0.cache = .inSync }
            } catch {
                cacheWriteFailed(error)
            }
        }
        return .updated(changedKeys: changed)
    }

    private func renew(_ metadata: SnapshotMetadata) async {
        if var waiting = pending {
            waiting.snapshot.metadata = metadata
            pending = waiting
            return
        }
        let old = cell.load()
        generation &+= 1
        cell.replace(old.renewing(metadata, generation: generation))
        if let cache = settings.cache {
            do throws(CacheError) {
                try await cache.renew(metadata, for: settings.configurationName)
                status.withLock { $0.cache = .inSync }
            } catch {
                cacheWriteFailed(error)
            }
        }
    }

    private func persistActive(_ snapshot: CachedSnapshot) async {
        guard let cache = settings.cache else { return }
        do throws(CacheError) {
            try await cache.store(snapshot, as: settings.configurationName, slot: .active)
            status.withLock { $0.cache = .inSync }
        } catch {
            cacheWriteFailed(error)
        }
    }

    private func cacheWriteFailed(_ error: CacheError) {
        status.withLock { $0.cache = .writeFailed(error) }
        emit(.cacheWriteFailed(error))
    }

    /// Reports payload keys that look like a registered key spelled differently (`Max-Retries` for `max_retries`).
    ///
    /// - Parameter unread: how many payload keys no registered key reads; when 0 there is nothing to look at.
    private func reportMistypedPayloadKeys(_ snapshot: ConfigSnapshot, unread: Int) {
        guard unread > 0 else { return }
        for name in snapshot.values.keys where registry.slot(named: name) == nil {
            if let intended = registry.likelyIntended(name) {
                emit(.mistypedKey(requested: name, registered: intended))
            }
        }
    }

    // MARK: Overrides

    /// Replaces one override source's snapshot and re-resolves if anything changed.
    func applyOverride(at position: Int, _ snapshot: OverrideSnapshot) {
        guard !stopped, overrides.indices.contains(position) else { return }
        let layer = overrides[position]
        for problem in snapshot.problems where !reportedProblems.contains(layer.name + "\u{0}" + problem) {
            reportedProblems.insert(layer.name + "\u{0}" + problem)
            emit(.overrideProblem(source: layer.name, message: problem))
        }
        guard layer.snapshot != snapshot else { return }
        overrides[position] = OverrideLayer(name: layer.name, snapshot: snapshot)
        activate(cell.load().snapshot, cause: .override(source: layer.name))
    }

    // MARK: Lifecycle

    func stop() {
        stopped = true
        status.withLock { s in
            s.scheduler.hold = .stopped
            s.scheduler.nextAllowedFetch = nil
        }
        flight?.task.cancel()
        for waiter in participantWaiters { waiter.continuation.resume() }
        participantWaiters = []
    }

    /// Seconds until the periodic refresh should next try.
    func nextPeriodicDelay(interval: TimeInterval) -> TimeInterval {
        let now = settings.clock.now()
        let scheduler = status.withLock { $0.scheduler }
        var delay = interval
        if let next = scheduler.nextAllowedFetch { delay = max(delay, next.timeIntervalSince(now)) }
        return max(delay, 0)
    }
}

/// The engine's bookkeeping that `status` reads synchronously.
struct EngineStatus: Sendable {
    var lastFetch: Date?
    var lastOutcome: RefreshResult?
    var lastError: ConfigError?
    var scheduler = SchedulerState()
    var pendingActivation = false
    var cache: CacheStatus = .notConfigured
}
