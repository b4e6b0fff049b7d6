import ConfigDomain
import ConfigPorts
import Foundation

/// A refresh's steps: fetch (or take a pushed payload), a `304`, the way in, activation or pending, and
/// what the scheduler makes of the outcome.
extension RefreshEngine {
    /// Fetches (or takes the `pushed` payload), then applies what came back.
    ///
    /// A `304` renews the held payload's metadata. When the cache has lost that payload's bytes (the
    /// system purged it), one unconditional fetch brings them back: the same bytes are stored again,
    /// and other bytes are a new payload, applied like any other.
    func fetchAndApply(pushed: FetchedPayload?) async -> Result<RefreshResult, ConfigError> {
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
    func fetch(validators: Validators, context: EvaluationContext, since started: Date) async -> Result<
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
    func emitFetched(_ outcome: FetchOutcome, since started: Date) {
        emit(.fetched(outcome, duration: max(0, settings.clock.now().timeIntervalSince(started))))
    }

    /// Takes a fetched or pushed payload in through the intake and activates it (or keeps it pending,
    /// by policy), then persists it.
    func apply(
        _ payload: FetchedPayload, held: SnapshotMetadata?, now: Date, slot: Slot
    ) async -> Result<RefreshResult, ConfigError> {
        let hash = ContentHash(of: payload.bytes)
        var metadata = SnapshotMetadata(
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
        let decoded: DecodedPayload
        switch store.intake.admit(payload.bytes, metadata: &metadata, replacing: held) {
        case .success(let admitted): decoded = admitted
        case .failure(.signature(let error)): return fail(.signature(error), retry: .doNotRetry)
        case .failure(let refusal): return fail(refusal.configError, retry: .backoff)
        }
        let cached = CachedSnapshot(payload: payload.bytes, metadata: metadata)
        if settings.activation == .immediate {
            guard let output = activate(decoded, metadata: metadata, cause: .refresh, slot: slot) else {
                return await superseded()
            }
            await recordLastGood(of: output.state, as: slot.cacheName)
            await persistActive(cached, as: slot.cacheName)
            if let refused = everyValueRejected(in: output) { return fail(.rejected(refused), retry: .backoff) }
            return succeed(.updated(changedKeys: output.changedKeys), at: now)
        }
        let (preview, previewedOn) = activator.preview(decoded, from: payload.source, as: provider)
        reportMistypedKeys(of: decoded, unread: preview.unreadSnapshotKeys)
        var storedInCache = false
        if settings.activation == .nextLaunch, settings.cache != nil {
            // The next launch activates this payload: what it will keep as last good is what the preview kept.
            await recordLastGood(of: preview.state, as: slot.cacheName)
            if let error = await store.store(cached, as: slot.cacheName, slot: .pending) {
                cacheWriteFailed(error)
            } else {
                storedInCache = true
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
    /// the payload is held, so that a later fetch of the same payload answers "not modified". A value
    /// a remote evaluator refused for this context (its error code) is its answer, not a bad payload:
    /// fetching it again gives the same answer, so it fails nothing.
    func everyValueRejected(in output: Resolver.Output) -> Rejection? {
        let state = output.state
        if state.layers.contains(.snapshot(provider)) { return nil }
        // A value an override hides still passed.
        if state.hiddenRemote.values.contains(where: { $0.provider == provider && !$0.isKept }) { return nil }
        let origin = state.sources.rejectionOrigin(of: provider)
        return state.rejections.keys.sorted().lazy.compactMap { slot in
            state.rejections[slot]?.first { rejection in
                guard rejection.origin == origin else { return false }
                if case .remoteEvaluation? = rejection.targeting?.kind { return false }
                return true
            }
        }.first
    }

    func succeed(_ result: RefreshResult, at now: Date) -> Result<RefreshResult, ConfigError> {
        state.withLock {
            $0.status.succeeded(result, at: now, minimumInterval: settings.minimumFetchInterval)
            $0.status.reconciling = false
        }
        if result == .unchanged { emit(.notModified) }
        reportState()
        return .success(result)
    }

    func fail(_ error: ConfigError, retry: RetryAdvice) -> Result<RefreshResult, ConfigError> {
        let now = settings.clock.now()
        let jitter = settings.random()
        state.withLock {
            $0.status.failed(
                error, retry: retry, at: now, minimumInterval: settings.minimumFetchInterval, backoff: settings.backoff,
                jitter: jitter)
            $0.status.reconciling = false
        }
        emit(.refreshFailed(error))
        reportState()
        return .failure(error)
    }

    /// Seconds until the periodic refresh should next try.
    func nextPeriodicDelay(interval: TimeInterval) -> TimeInterval {
        let now = settings.clock.now()
        return state.withLock { $0.status.nextPeriodicDelay(interval: interval, now: now) }
    }
}
