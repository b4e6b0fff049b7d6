import ConfigDomain
import ConfigPorts
import Foundation

/// A provider's state in OpenFeature's terms (``ProviderState``), worked out from its status, and
/// reported once per change as `ConfigEvent.stateChanged`.
extension RefreshEngine {
    /// The provider's state now, and why.
    func currentState() -> (state: ProviderState, reason: String) {
        let status = self.status
        return status.state(
            freshness: status.active.map { settings.freshness(of: $0) },
            expiredBecause: status.active.flatMap { settings.expiryReason(of: $0) })
    }

    /// Works the state out again and reports it when it changed. Called after each refresh, push
    /// connection change, context change and status read.
    func reportState() {
        let (state, reason) = currentState()
        let previous = self.state.withLock { s -> ProviderState? in
            guard s.reportedState != state else { return nil }
            defer { s.reportedState = state }
            return s.reportedState
        }
        guard let previous else { return }
        emit(.stateChanged(provider: settings.configurationName, from: previous, to: state, reason: reason))
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
