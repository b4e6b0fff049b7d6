import Foundation

/// Something that happened in a client, for logging and metrics. Values of secret keys never appear.
public enum ConfigEvent: Sendable, Hashable, CustomStringConvertible {
    /// The cache supplied a snapshot at build time.
    case cacheLoaded(name: String, fetchedAt: Date, freshness: Freshness)
    /// The cache had nothing for this configuration.
    case cacheMiss(name: String)
    /// The cache's data could not be used (corrupt, newer format); it was treated as a miss.
    case cacheUnreadable(CacheError)
    /// Writing to the cache failed; the in-memory state is unaffected.
    case cacheWriteFailed(CacheError)
    /// A refresh started.
    case refreshStarted
    /// The fetcher answered (or failed) after `duration` seconds by the client's clock; the refresh goes on from there.
    case fetched(FetchOutcome, duration: TimeInterval)
    /// The fetcher said the payload is unchanged; freshness was renewed.
    case notModified
    /// A refresh failed; the last good state is kept.
    case refreshFailed(ConfigError)
    /// A refresh was not attempted, and why (minimum interval, backoff).
    case refreshSkipped(reason: String, nextAllowed: Date?)
    /// A fetched snapshot is waiting for activation (next launch or manual).
    case pendingStored(changedKeys: [String])
    /// A new state became active: which keys changed value, and why (a refresh, `activate()`, an
    /// override or a context change). Reported once per activation.
    case activated(ConfigUpdate)
    /// A candidate value was refused; the key fell through to the next layer.
    case valueRejected(Rejection)
    /// An override source reported a problem (a malformed `.env` line, an unknown argument).
    case overrideProblem(source: String, message: String)
    /// A read, or a payload key, used a name that differs from a registered key only by case or
    /// separators; reported once per name.
    case mistypedKey(requested: String, registered: String)
    /// A read used a key that is not registered (served by the slow path).
    case unregisteredKeyRead(name: String)
    /// A read used a key whose name is registered with another value type; the read key was resolved on its own.
    case keyTypeMismatch(name: String, registeredType: String, readType: String)
    /// A read used a key whose name and type are registered, but with another default, rule set, secrecy or
    /// summary; the read key was resolved on its own, with its own default and rules. Reported once per name.
    case keyDefinitionMismatch(name: String, registered: KeyDescriptor, read: KeyDescriptor)
    /// A value decided by a rule or rollout was read for the first time for a targeting key (only
    /// from a client built with `reportingExposures()`).
    case exposure(Exposure)
    /// The app tracked an event with `RemoteConfigClient.track(_:value:attributes:)`.
    case tracked(TrackedEvent)
    /// A provider's state changed (``ProviderState``), and why: reported once per change.
    case stateChanged(provider: String, from: ProviderState, to: ProviderState, reason: String)

    /// One line for a log.
    public var description: String {
        switch self {
        case .cacheLoaded(let name, let fetchedAt, let freshness):
            "cache loaded \(name) fetched at \(fetchedAt) (\(freshness))"
        case .cacheMiss(let name): "cache miss for \(name)"
        case .cacheUnreadable(let e): "cache unreadable, treated as a miss: \(e)"
        case .cacheWriteFailed(let e): "cache write failed: \(e)"
        case .refreshStarted: "refresh started"
        case .fetched(.failed(let e), let duration):
            "fetch failed after \(Self.milliseconds(duration)) ms: \(e.message) (\(e.retry))"
        case .fetched(let outcome, let duration): "fetched in \(Self.milliseconds(duration)) ms: \(outcome)"
        case .notModified: "not modified; freshness renewed"
        case .refreshFailed(let e): "refresh failed, last good state kept: \(e)"
        case .refreshSkipped(let reason, let next):
            "refresh skipped: \(reason)" + (next.map { "; next allowed at \($0)" } ?? "")
        case .pendingStored(let keys): "fetched snapshot pending activation; \(keys.count) keys would change"
        case .activated(let update): "activated by \(update)"
        case .valueRejected(let r): "rejected \(r)"
        case .overrideProblem(let source, let message): "override source \(source): \(message)"
        case .mistypedKey(let requested, let registered):
            "read of \"\(requested)\" looks like a typo of the registered key \"\(registered)\""
        case .unregisteredKeyRead(let name): "read of unregistered key \"\(name)\""
        case .keyTypeMismatch(let name, let registered, let read):
            "read of \"\(name)\" as \(read), but it is registered as \(registered): register one type per name"
        case .exposure(let exposure): "exposure: \(exposure)"
        case .tracked(let event): "tracked \(event)"
        case .stateChanged(let provider, let from, let to, let reason): "provider \(provider): \(from) -> \(to): \(reason)"
        case .keyDefinitionMismatch(let name, let registered, let read):
            "the key \"\(name)\" read here (\(Self.definition(of: read, against: registered))) differs from the registered "
                + "one (\(Self.definition(of: registered, against: read))); it is read with its own default and rules: "
                + "declare it once and reuse that key"
        }
    }

    /// A key's definition for a message, `default 3; rules range(0...10), nonEmpty`: its default (redacted when
    /// either key is secret), its rules, and its secrecy and summary where they differ from `other`'s.
    private static func definition(of key: KeyDescriptor, against other: KeyDescriptor) -> String {
        let shown =
            key.isSecret || other.isSecret ? Rejection.redacted : (key.defaultValue?.jsonText() ?? "<not renderable>")
        var parts = ["default \(shown)", key.ruleNames.isEmpty ? "no rules" : "rules \(key.ruleNames.joined(separator: ", "))"]
        if key.isSecret != other.isSecret { parts.append(key.isSecret ? "secret" : "not secret") }
        if key.summary != other.summary { parts.append(key.summary.map { "summary \"\($0)\"" } ?? "no summary") }
        return parts.joined(separator: "; ")
    }

    /// `seconds` in whole milliseconds, for messages (a value no `Int` holds is shown as it is).
    private static func milliseconds(_ seconds: TimeInterval) -> String {
        let milliseconds = (seconds * 1000).rounded()
        return Int(exactly: milliseconds).map(String.init) ?? "\(milliseconds)"
    }
}
