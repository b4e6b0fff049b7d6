import ConfigDomain
import ConfigPorts
import Foundation
import Logging

/// Logs every event of a client through swift-log: one line per event, at the event's level, with
/// structured metadata, and no secrets.
///
/// ```swift
/// let client = try RemoteConfigClient.builder(fetcher: fetcher)
///     .observer(LoggingObserver(logger: Logger(label: "remote-config"), redacting: [apiToken]))
///     .build()
/// ```
///
/// Levels, following the server-side Swift guidance that a library's routine work logs below `info`:
///
/// | level | events |
/// |---|---|
/// | trace | refresh started, refresh skipped, fetch finished |
/// | debug | not modified, cache loaded, cache miss, unregistered key read, a fetch cancelled or a client stopped |
/// | info | activated (with the changed keys and the cause), pending activation stored, a provider back to `READY` |
/// | warning | a provider's state left `READY` (`STALE`, `ERROR`, `RECONCILING`) with the reason; a refresh failed that a retry may fix; a value rejected; an override problem; a mistyped key, a key read as another type or with another default or rules; the cache unreadable or a cache write failed |
/// | error | a refresh failed that no retry fixes (a payload that does not decode, a 404, an insecure URL) |
///
/// Secrets: events never carry the value of a key registered `secret: true` (rejections show
/// `<redacted>`), and adapters keep tokens out of their errors. As a second line of defence, every
/// text in `redacting` (a token the app gave its fetcher, say) is replaced by `<redacted>` in every
/// message and metadata value, as is each word of eight characters or more inside it.
public struct LoggingObserver: ConfigObserver {
    private let logger: Logger
    private let redactor: LogRedactor

    /// Creates an observer that logs to `logger`, removing every text in `redacting` from what it logs.
    public init(logger: Logger, redacting secrets: [String] = []) {
        self.logger = logger
        self.redactor = LogRedactor(secrets: secrets)
    }

    /// Logs `event` as one line.
    public func receive(_ event: ConfigEvent) {
        let line = EventLogLine(event)
        guard logger.logLevel <= line.level else { return }
        logger.log(
            level: line.level, "\(redactor.redact(line.message))",
            metadata: line.metadata.mapValues(redactor.redact))
    }
}
