import ConfigDomain
import ConfigPorts
import Foundation

/// A provider whose server evaluates the flags for the client's context (OFREP) holds one context's
/// payload at a time, in the cache slot of its targeting key. A context change moves the engine to the
/// new key's slot (``move(to:in:)``, under the activator's lock) and fetches again
/// (``refetchForNewContext()``); a refresh that was under way for the old context is cancelled, and
/// nothing it brings back is applied.
extension RefreshEngine {
    /// The cache name the engine's payload lives under now.
    var cacheName: String { state.withLock { $0.slot.cacheName } }

    /// Whether no context change has moved the engine since `slot` was taken.
    func isCurrent(_ slot: Slot) -> Bool { state.withLock { $0.slot.epoch == slot.epoch } }

    /// The answer of a refresh whose context the client has left: the refresh the context change
    /// started (or the one running now), whose answer is for the context reads see.
    func superseded() async -> Result<RefreshResult, ConfigError> {
        if let flight = currentFlight { return await flight.value }
        return .success(.unchanged)
    }

    /// Called by the activator, under its lock, as the client's context becomes `sources.context`:
    /// a provider whose payloads are evaluated remotely moves to the slot of the new targeting key,
    /// serving what the cache holds there (nothing when it holds nothing, or nothing its intake admits,
    /// so the keys fall to the layers below), and forgets the refresh in flight for the old context
    /// (cancelled: nothing it brings is applied). Fetches nothing: ``refetchForNewContext()`` does,
    /// once the lock is released.
    func move(to context: EvaluationContext, in sources: inout ValueSources) {
        guard evaluatesContext else { return }
        let name = ContextSlot.cacheName(
            base: settings.configurationName, targetingKey: context.targetingKey, evaluatesContext: true)
        let moves = state.withLock { $0.slot.cacheName != name }
        let cached = moves ? store.loadSlot(name) : nil
        let detached = state.withLock { s -> Flight? in
            s.slot.epoch += 1
            defer { s.flight = nil }
            guard moves else { return s.flight }
            s.slot.cacheName = name
            s.status.active = cached?.metadata
            s.pending = nil
            s.status.pendingActivation = false
            s.recordedLastGood = nil
            s.status.reconciling = true
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
        reportState()
        _ = join(force: true)
    }
}
