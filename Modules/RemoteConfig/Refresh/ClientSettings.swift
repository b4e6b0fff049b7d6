import ConfigDomain
import ConfigPorts
import Foundation

/// Everything the builder collected, handed to the engine.
struct ClientSettings: Sendable {
    var fetcher: any ConfigFetcher
    var cache: (any SnapshotCache)?
    var configurationName: String
    var overrideSources: [any OverrideSource]
    var freshness: FreshnessPolicy
    var activation: ActivationPolicy
    var minimumFetchInterval: TimeInterval
    var backoff: BackoffPolicy
    var clock: any ConfigClock
    var observers: [any ConfigObserver]
    var format: any PayloadFormat
    var periodicInterval: TimeInterval?
    var random: @Sendable () -> Double
    var honorsTTLHints: Bool
    /// Push transports whose signals start refreshes or deliver payloads (see PushReceiver), each
    /// with the name of the provider it drives (nil: the builder's own fetcher).
    var pushSources: [(source: any ChangeSignalSource, provider: String?)] = []
    /// Set by `verifyPayloads(with:)`: it sees every payload's bytes before they are decoded, and may refuse them.
    var verifier: (any PayloadVerifier)? = nil
    /// The evaluation context the first state is resolved for.
    var context = EvaluationContext.empty
    /// Set by `contextSource(_:)`: the context that reads giving none evaluate for, when it has one.
    var contextSource: (any EvaluationContextSource)? = nil
    /// When the background work starts.
    var backgroundWorkStart = BackgroundWorkStart.atBuild
    /// Run around every evaluation, in the order added.
    var hooks: [any EvaluationHook] = []
    /// Whether the client reports a rule-decided value's first read per targeting key.
    var reportsExposures = false
    /// Makes the client's read interception, once a context source, a hook or exposures are asked for:
    /// installed by those builder methods only, so a client that asks for none never reaches its code.
    var interception: (@Sendable (EventSink) -> ReadInterception?)? = nil

    /// Installs the read interception for what is set now (a context source, hooks, exposures).
    mutating func installInterception() {
        interception = { [contextSource, hooks, reportsExposures] sink in
            guard contextSource != nil || !hooks.isEmpty || reportsExposures else { return nil }
            return ReadInterception(
                contextSource: contextSource, hooks: hooks, exposures: reportsExposures ? ExposureRecorder(sink: sink) : nil)
        }
    }

    /// The freshness policy for `metadata`: the server's TTL hint replaces the policy's TTL when honoured.
    func freshness(for metadata: SnapshotMetadata) -> FreshnessPolicy {
        var policy = freshness
        if honorsTTLHints, let hint = metadata.ttlHint, hint > 0 { policy.ttl = hint }
        return policy
    }

    /// How fresh a snapshot with `metadata` is now (expired past its signed expiry, whatever its age).
    func freshness(of metadata: SnapshotMetadata) -> Freshness {
        freshness(for: metadata).freshness(of: metadata, now: clock.now())
    }

    /// Why a snapshot with `metadata` is expired now (its signed expiry passed, or its age); nil when it is not.
    func expiryReason(of metadata: SnapshotMetadata) -> String? {
        freshness(for: metadata).expiryReason(of: metadata, now: clock.now())
    }
}

/// Where a client's events go: every observer given to the builder, then every `events()` stream.
struct EventSink: Sendable {
    let observers: [any ConfigObserver]
    let streams: Broadcaster<ConfigEvent>

    /// Hands `event` to each observer, then to each stream.
    func emit(_ event: ConfigEvent) {
        for observer in observers { observer.receive(event) }
        streams.send(event)
    }
}
