import ConfigDomain
import Foundation
import Logging

/// The log line of one event: its level, its message and its structured metadata.
///
/// Metadata keys start with `config.`; every line has `config.event`, the event's stable name.
struct EventLogLine {
    /// The level (see ``LoggingObserver`` for the table).
    let level: Logger.Level
    /// The event's own one-line description.
    let message: String
    /// What the event carries, one value per key.
    let metadata: Logger.Metadata

    /// The line for `event`.
    init(_ event: ConfigEvent) {
        message = event.description
        let (level, name, details) = Self.describe(event)
        self.level = level
        metadata = details.merging(["config.event": .string(name)]) { detail, _ in detail }
    }

    /// The level, the stable name and the metadata of `event`.
    private static func describe(_ event: ConfigEvent) -> (Logger.Level, String, Logger.Metadata) {
        switch event {
        case .cacheLoaded(let name, let fetchedAt, let freshness):
            return (
                .debug, "cache_loaded",
                [
                    "config.name": .string(name), "config.fetched_at": .string(timestamp(fetchedAt)),
                    "config.freshness": .string(freshness.rawValue),
                ]
            )
        case .cacheMiss(let name):
            return (.debug, "cache_miss", ["config.name": .string(name)])
        case .cacheUnreadable(let error):
            return (.warning, "cache_unreadable", cacheError(error))
        case .cacheWriteFailed(let error):
            return (.warning, "cache_write_failed", cacheError(error))
        case .refreshStarted:
            return (.trace, "refresh_started", [:])
        case .fetched(let outcome, let duration):
            var details: Logger.Metadata = ["config.duration_ms": .string(milliseconds(duration))]
            switch outcome {
            case .modified: details["config.outcome"] = "modified"
            case .notModified: details["config.outcome"] = "not_modified"
            case .failed(let error):
                details["config.outcome"] = "failed"
                details["config.error_kind"] = .string("fetch.\(error.kind.name)")
            }
            return (.trace, "fetched", details)
        case .notModified:
            return (.debug, "not_modified", [:])
        case .refreshFailed(let error):
            return (
                level(of: error), "refresh_failed",
                [
                    "config.error": .string(error.description), "config.error_kind": .string(error.kindName),
                    "config.retryable": .string(String(error.isRetryable)),
                ]
            )
        case .refreshSkipped(let reason, let nextAllowed):
            var details: Logger.Metadata = ["config.reason": .string(reason)]
            if let nextAllowed { details["config.next_allowed"] = .string(timestamp(nextAllowed)) }
            return (.trace, "refresh_skipped", details)
        case .pendingStored(let keys):
            return (.info, "pending_stored", changed(keys))
        case .activated(let update):
            var details = changed(update.changedKeys)
            details["config.cause"] = .string(update.cause.description)
            details["config.generation"] = .string(String(update.generation))
            return (.info, "activated", details)
        case .valueRejected(let rejection):
            var details: Logger.Metadata = [
                "config.key": .string(rejection.key), "config.value": .string(rejection.value),
                "config.rule": .string(rejection.rule), "config.reason": .string(rejection.reason),
            ]
            if let origin = rejection.origin { details["config.origin"] = .string(origin) }
            return (.warning, "value_rejected", details)
        case .overrideProblem(let source, let message):
            return (.warning, "override_problem", ["config.source": .string(source), "config.problem": .string(message)])
        case .mistypedKey(let requested, let registered):
            return (.warning, "mistyped_key", ["config.key": .string(requested), "config.registered_key": .string(registered)])
        case .unregisteredKeyRead(let name):
            return (.debug, "unregistered_key_read", ["config.key": .string(name)])
        case .exposure(let exposure):
            var details: Logger.Metadata = [
                "config.key": .string(exposure.key), "config.value": .string(exposure.value),
                "config.reason": .string(exposure.reason.rawValue),
            ]
            if let variant = exposure.variant { details["config.variant"] = .string(variant) }
            if let rule = exposure.ruleID { details["config.rule"] = .string(rule) }
            return (.debug, "exposure", details)
        case .tracked(let event):
            var details: Logger.Metadata = ["config.tracked_event": .string(event.name)]
            if let value = event.value { details["config.value"] = .string(String(value)) }
            return (.debug, "tracked", details)
        case .stateChanged(let provider, let from, let to, let reason):
            return (
                to == .ready ? .info : .warning, "state_changed",
                [
                    "config.provider": .string(provider), "config.from": .string(from.rawValue),
                    "config.to": .string(to.rawValue), "config.reason": .string(reason),
                ]
            )
        case .keyTypeMismatch(let name, let registeredType, let readType):
            return (
                .warning, "key_type_mismatch",
                [
                    "config.key": .string(name), "config.registered_type": .string(registeredType),
                    "config.read_type": .string(readType),
                ]
            )
        case .keyDefinitionMismatch(let name, let registered, let read):
            return (
                .warning, "key_definition_mismatch",
                [
                    "config.key": .string(name), "config.registered_default": defaultText(registered, other: read),
                    "config.read_default": defaultText(read, other: registered), "config.registered_rules": rules(registered),
                    "config.read_rules": rules(read),
                ]
            )
        }
    }

    /// A failed refresh: an error when no retry fixes it, a warning when one may, debug for a stop.
    private static func level(of error: ConfigError) -> Logger.Level {
        switch error {
        case .stopped: .debug
        case .fetch(let fetch) where fetch.kind == .cancelled: .debug
        default: error.isRetryable ? .warning : .error
        }
    }

    /// A key's default as JSON text, redacted when it or `other` is secret.
    private static func defaultText(_ key: KeyDescriptor, other: KeyDescriptor) -> Logger.MetadataValue {
        .string(key.isSecret || other.isSecret ? Rejection.redacted : (key.defaultValue?.jsonText() ?? "<not renderable>"))
    }

    /// A key's rule names, in order.
    private static func rules(_ key: KeyDescriptor) -> Logger.MetadataValue { .array(key.ruleNames.map { .string($0) }) }

    /// The changed keys and their count.
    private static func changed(_ keys: [String]) -> Logger.Metadata {
        ["config.changed_keys": .array(keys.map { .string($0) }), "config.changed_count": .string(String(keys.count))]
    }

    /// A cache error's message and kind.
    private static func cacheError(_ error: CacheError) -> Logger.Metadata {
        ["config.error": .string(error.message), "config.error_kind": .string("cache")]
    }

    /// `seconds` in milliseconds, three decimals at most.
    private static func milliseconds(_ seconds: TimeInterval) -> String {
        String(format: "%.3f", seconds * 1000)
    }

    /// An ISO 8601 timestamp in UTC.
    private static func timestamp(_ date: Date) -> String {
        ISO8601DateFormatter.string(
            from: date, timeZone: TimeZone(identifier: "UTC") ?? .current, formatOptions: [.withInternetDateTime])
    }
}
