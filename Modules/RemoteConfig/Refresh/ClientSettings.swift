import ConfigDomain
import ConfigPorts
import Foundation

/// Everything the builder collected, validated, handed to the engine.
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
}
