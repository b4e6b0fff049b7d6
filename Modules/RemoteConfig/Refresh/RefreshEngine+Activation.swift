import ConfigDomain
import ConfigPorts
import Foundation

/// Activating a provider's payloads, and keeping them in its cache.
extension RefreshEngine {
    /// Makes `payload`, described by `metadata`, this provider's active payload through the client's
    /// ``Activator``; returns what changed.
    /// nil when the client's context moved to another slot since `slot` was taken: nothing is activated.
    func activate(
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
        if settings.cache != nil {
            let error =
                waiting.storedInCache
                ? store.promoteStoredPending(cacheName) : await store.store(waiting.cached, as: cacheName, slot: .active)
            if let error { cacheWriteFailed(error) } else { state.withLock { $0.status.cache = .inSync } }
        }
        return .updated(changedKeys: output.changedKeys)
    }

    // MARK: The cache

    enum Renewal { case renewed, cacheLostPayload, superseded }

    /// Renews the held payload's metadata (a 304, or the same bytes again), in memory and in the cache
    /// slot `slot` names; nothing is resolved again. Nothing is renewed when the context moved to
    /// another slot since `slot` was taken.
    func renew(_ metadata: SnapshotMetadata, slot: Slot) async -> Renewal {
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
        guard !renewedPending, settings.cache != nil else { return .renewed }
        guard let error = await store.renew(metadata, for: slot.cacheName) else {
            state.withLock { $0.status.cache = .inSync }
            return .renewed
        }
        cacheWriteFailed(error)
        return error.kind == .notFound ? .cacheLostPayload : .renewed
    }

    /// Stores the last good values this provider supplies in `state` (see ``LastGoodValues``) when they
    /// differ from what the cache holds, before the payload that made them is stored.
    func recordLastGood(of resolved: ResolvedState, as cacheName: String) async {
        guard settings.cache != nil, settings.verifier == nil else { return }
        let values = LastGoodValues(of: provider, in: resolved, names: activator.resolver.registry.names)
        let recorded = state.withLock { $0.slot.cacheName == cacheName ? $0.recordedLastGood : nil }
        if values == recorded { return }
        // Nothing to keep and no record to replace needs no write.
        if recorded != nil || !values.entries.isEmpty || !store.holdsNoLastGood(cacheName) {
            if let error = await store.store(values.cached(at: settings.clock.now()), as: cacheName, slot: .lastGood) {
                return cacheWriteFailed(error)
            }
        }
        state.withLock { if $0.slot.cacheName == cacheName { $0.recordedLastGood = values } }
    }

    func persistActive(_ snapshot: CachedSnapshot, as cacheName: String) async {
        if let error = await store.store(snapshot, as: cacheName, slot: .active) {
            cacheWriteFailed(error)
        } else if settings.cache != nil {
            state.withLock { $0.status.cache = .inSync }
        }
    }

    func cacheWriteFailed(_ error: CacheError) {
        state.withLock { $0.status.cache = .writeFailed(error) }
        emit(.cacheWriteFailed(error))
    }

    /// Reports payload keys that look like a registered key spelled differently (`Max-Retries` for
    /// `max_retries`), each name once: a payload that keeps it does not repeat the event on every refresh.
    func reportMistypedKeys(of payload: DecodedPayload, unread: Int) {
        guard unread > 0 else { return }
        let registry = activator.resolver.registry
        let mistyped = payload.values.keys.filter { registry.slot(named: $0) == nil }.sorted().compactMap { name in
            registry.likelyIntended(name).map { (name: name, intended: $0) }
        }
        let new = state.withLock { s in mistyped.filter { s.reportedMistypedKeys.insert($0.name).inserted } }
        for key in new { emit(.mistypedKey(requested: key.name, registered: key.intended)) }
    }
}
