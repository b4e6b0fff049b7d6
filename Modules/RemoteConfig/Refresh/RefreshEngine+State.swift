import ConfigDomain
import ConfigPorts
import Foundation

/// A provider's state in OpenFeature's terms (``ProviderState``), worked out from its status, and
/// reported once per change as `ConfigEvent.stateChanged`.
extension RefreshEngine {
    /// The provider's state for `status`, and why.
    func providerState(of status: EngineStatus) -> (state: ProviderState, reason: String) {
        status.state(
            freshness: status.active.map { settings.freshness(of: $0) },
            expiredBecause: status.active.flatMap { settings.expiryReason(of: $0) })
    }

    /// Works the state out again and reports it when it changed. Called after each refresh, push
    /// connection change, context change and status read, from any thread.
    ///
    /// The state is worked out from the status and recorded under one lock, so the state reported last
    /// is always the one of the newest status (two threads that each worked it out first could record
    /// them in the wrong order, and a later change to the older state would then go unreported). The
    /// events are sent in the order they were recorded, by one thread at a time: a thread that finds
    /// another sending leaves its event to it (an observer that reads the status from inside its
    /// `receive` adds to the queue rather than waiting for itself).
    func reportState() {
        let sends = state.withLock { s -> Bool in
            let (now, reason) = providerState(of: s.status)
            if now != s.reportedState {
                s.unsentStateChanges.append(
                    .stateChanged(provider: settings.configurationName, from: s.reportedState, to: now, reason: reason))
                s.reportedState = now
            }
            guard !s.sendingStateChanges, !s.unsentStateChanges.isEmpty else { return false }
            s.sendingStateChanges = true
            return true
        }
        guard sends else { return }
        while let event = state.withLock({ s -> ConfigEvent? in
            guard !s.unsentStateChanges.isEmpty else {
                s.sendingStateChanges = false
                return nil
            }
            return s.unsentStateChanges.removeFirst()
        }) {
            emit(event)
        }
    }

    /// Records what the push source named `source` said of its connection (nil: its stream ended).
    func notePush(_ source: String, _ connection: PushConnection?) {
        state.withLock { s in
            switch connection {
            case .connected?: s.status.pushDown[source] = nil
            case .disconnected(let reason, let retryIn)?:
                s.status.pushDown[source] = PushConnection.disconnected(reason: reason, retryIn: retryIn).description
            case nil: s.status.pushDown[source] = "its stream ended"
            }
        }
        reportState()
    }
}

extension EngineStatus {
    /// The state this status stands for, given the active snapshot's `freshness` (nil: none held), and why
    /// (`expiredBecause`: why it expired, such as its signed expiry passing).
    func state(freshness: Freshness?, expiredBecause: String? = nil) -> (state: ProviderState, reason: String) {
        let expired = expiredBecause ?? "the snapshot has expired"
        if reconciling { return (.reconciling, "fetching the flags for the new evaluation context") }
        guard let freshness else {
            if let lastError { return (.error, "nothing is held and the last refresh failed: \(lastError)") }
            return (.notReady, "nothing fetched or cached yet")
        }
        if freshness == .expired, let lastError {
            return (.error, "\(expired) and the last refresh failed: \(lastError)")
        }
        if let (source, why) = pushDown.min(by: { $0.key < $1.key }) {
            return (.stale, "push source \(source) is \(why); polling, if on, still refreshes")
        }
        switch freshness {
        case .fresh: return (.ready, "a fresh snapshot is held" + (pushSources > 0 ? " and push is connected" : ""))
        case .stale: return (.stale, "the snapshot is past its TTL")
        case .expired: return (.stale, expired)
        }
    }
}
