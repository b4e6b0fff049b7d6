import ConfigDomain
import ConfigPorts
import Foundation

/// A refresh engine's state, under its one lock.
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
    /// The state last reported in a `stateChanged` event.
    var reportedState: ProviderState
    /// `stateChanged` events recorded and not sent yet, oldest first.
    var unsentStateChanges: [ConfigEvent] = []
    /// Whether a thread is sending them (only one does, so they arrive in order).
    var sendingStateChanges = false

    init(status: EngineStatus, slot cacheName: String, reportedState: ProviderState) {
        self.status = status
        self.slot = Slot(epoch: 0, cacheName: cacheName)
        self.reportedState = reportedState
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
    /// How many push sources drive this provider.
    var pushSources = 0
    /// The push sources that are down, by name, with what they said.
    var pushDown: [String: String] = [:]
    /// Whether a fetch for a new evaluation context is under way (a provider its server evaluates).
    var reconciling = false
}
