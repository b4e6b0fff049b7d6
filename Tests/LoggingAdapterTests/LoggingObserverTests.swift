import ConfigDomain
import ConfigPorts
import Foundation
import InMemoryLogging
import Logging
import LoggingAdapter
import RemoteConfig
import TestDoubles
import Testing

/// ``LoggingObserver``: one log line per event, at its level, with metadata, and no secrets.
@Suite("LoggingObserver")
struct LoggingObserverTests {
    /// A logger that keeps every line at `level` and above in memory, and the handler to read them.
    static func logger(level: Logger.Level = .trace) -> (Logger, InMemoryLogHandler) {
        var handler = InMemoryLogHandler()
        handler.logLevel = level
        return (Logger(label: "test") { _ in handler }, handler)
    }

    static let date = Date(timeIntervalSince1970: 1_700_000_000)
    static let fetchError = FetchError(.httpStatus(503), retry: .backoff, message: "the server answered 503")
    static let rejection = Rejection(
        key: "max_retries", value: "42", rule: "range(0...10)", reason: "42 is outside 0...10", origin: "MYAPP_MAX_RETRIES")

    /// One event of every kind, with its level, stable name and some of its metadata.
    static let samples: [(ConfigEvent, Logger.Level, String, Logger.Metadata)] = [
        (
            .cacheLoaded(name: "main", fetchedAt: date, freshness: .stale), .debug, "cache_loaded",
            ["config.name": "main", "config.fetched_at": "2023-11-14T22:13:20Z", "config.freshness": "stale"]
        ),
        (.cacheMiss(name: "main"), .debug, "cache_miss", ["config.name": "main"]),
        (
            .cacheUnreadable(CacheError(.corrupt(.badChecksum), message: "bad checksum")), .warning, "cache_unreadable",
            ["config.error": "bad checksum", "config.error_kind": "cache"]
        ),
        (
            .cacheWriteFailed(CacheError(.io(operation: "write", code: 28), message: "disk full")), .warning,
            "cache_write_failed",
            ["config.error": "disk full"]
        ),
        (.refreshStarted, .trace, "refresh_started", [:]),
        (
            .fetched(.modified, duration: 0.0125), .trace, "fetched",
            ["config.outcome": "modified", "config.duration_ms": "12.500"]
        ),
        (.fetched(.notModified, duration: 0), .trace, "fetched", ["config.outcome": "not_modified"]),
        (
            .fetched(.failed(fetchError), duration: 2), .trace, "fetched",
            ["config.outcome": "failed", "config.error_kind": "fetch.http_status", "config.duration_ms": "2000.000"]
        ),
        (
            .activated(ConfigUpdate(changedKeys: ["a", "b"], cause: .refresh, generation: 4)), .info, "activated",
            [
                "config.changed_keys": ["a", "b"], "config.changed_count": "2", "config.cause": "refresh",
                "config.generation": "4",
            ]
        ),
        (.notModified, .debug, "not_modified", [:]),
        (
            .refreshFailed(.fetch(fetchError)), .warning, "refresh_failed",
            [
                "config.error_kind": "fetch.http_status", "config.retryable": "true",
                "config.error": .string(ConfigError.fetch(fetchError).description),
            ]
        ),
        (
            .refreshFailed(.payload(PayloadError(format: "json", reason: "unexpected end"))), .error, "refresh_failed",
            ["config.error_kind": "payload", "config.retryable": "false"]
        ),
        (.refreshFailed(.fetch(.cancelled)), .debug, "refresh_failed", ["config.error_kind": "fetch.cancelled"]),
        (.refreshFailed(.stopped), .debug, "refresh_failed", ["config.error_kind": "stopped"]),
        (
            .refreshSkipped(reason: "backoff", nextAllowed: date), .trace, "refresh_skipped",
            ["config.reason": "backoff", "config.next_allowed": "2023-11-14T22:13:20Z"]
        ),
        (
            .refreshSkipped(reason: "minimum interval", nextAllowed: nil), .trace, "refresh_skipped",
            ["config.reason": "minimum interval"]
        ),
        (
            .pendingStored(changedKeys: ["a"]), .info, "pending_stored",
            ["config.changed_keys": ["a"], "config.changed_count": "1"]
        ),
        (
            .activated(ConfigUpdate(changedKeys: [], cause: .override(source: "env"), generation: 2)), .info, "activated",
            ["config.changed_keys": [], "config.changed_count": "0", "config.cause": "override env", "config.generation": "2"]
        ),
        (
            .valueRejected(rejection), .warning, "value_rejected",
            [
                "config.key": "max_retries", "config.value": "42", "config.rule": "range(0...10)",
                "config.reason": "42 is outside 0...10",
                "config.origin": "MYAPP_MAX_RETRIES",
            ]
        ),
        (
            .overrideProblem(source: ".env", message: ".env:3: no equals sign"), .warning, "override_problem",
            ["config.source": ".env", "config.problem": ".env:3: no equals sign"]
        ),
        (
            .mistypedKey(requested: "maxRetries", registered: "max_retries"), .warning, "mistyped_key",
            ["config.key": "maxRetries", "config.registered_key": "max_retries"]
        ),
        (.unregisteredKeyRead(name: "other"), .debug, "unregistered_key_read", ["config.key": "other"]),
        (
            .keyTypeMismatch(name: "ratio", registeredType: "Double", readType: "Int"), .warning, "key_type_mismatch",
            ["config.key": "ratio", "config.registered_type": "Double", "config.read_type": "Int"]
        ),
        (
            .keyDefinitionMismatch(
                name: "max_retries",
                registered: KeyDescriptor(name: "max_retries", typeName: "Int", defaultValue: 3, ruleNames: ["range(0...10)"]),
                read: KeyDescriptor(name: "max_retries", typeName: "Int", defaultValue: 7)),
            .warning, "key_definition_mismatch",
            [
                "config.key": "max_retries", "config.registered_default": "3", "config.read_default": "7",
                "config.registered_rules": ["range(0...10)"], "config.read_rules": [],
            ]
        ),
        (
            .exposure(
                Exposure(key: "new_checkout", variant: "on", value: "true", reason: .split, ruleID: "exp", targetingKey: "u1")),
            .debug, "exposure",
            [
                "config.key": "new_checkout", "config.value": "true", "config.reason": "SPLIT", "config.variant": "on",
                "config.rule": "exp",
            ]
        ),
        (
            .tracked(TrackedEvent(name: "purchase", value: 9.5, context: EvaluationContext(targetingKey: "u1"))), .debug,
            "tracked",
            ["config.tracked_event": "purchase", "config.value": "9.5"]
        ),
        (
            .stateChanged(provider: "http", from: .ready, to: .stale, reason: "push down: connection reset"), .warning,
            "state_changed",
            ["config.provider": "http", "config.from": "READY", "config.to": "STALE", "config.reason": "push down: connection reset"]
        ),
        (
            .stateChanged(provider: "http", from: .stale, to: .ready, reason: "push connected"), .info, "state_changed",
            ["config.to": "READY"]
        ),
    ]

    /// The number of `ConfigEvent` cases, and each case's position: this switch stops compiling when a case is added,
    /// so a new event cannot go untested here.
    static let caseCount = 20
    static func caseIndex(_ event: ConfigEvent) -> Int {
        switch event {
        case .cacheLoaded: 0
        case .cacheMiss: 1
        case .cacheUnreadable: 2
        case .cacheWriteFailed: 3
        case .refreshStarted: 4
        case .fetched: 5
        case .notModified: 6
        case .refreshFailed: 7
        case .refreshSkipped: 8
        case .pendingStored: 9
        case .activated: 10
        case .valueRejected: 11
        case .overrideProblem: 12
        case .mistypedKey: 13
        case .unregisteredKeyRead: 14
        case .keyTypeMismatch: 15
        case .keyDefinitionMismatch: 16
        case .exposure: 17
        case .tracked: 18
        case .stateChanged: 19
        }
    }

    @Test("the samples cover every kind of event")
    func everyKindSampled() {
        #expect(Set(Self.samples.map { Self.caseIndex($0.0) }) == Set(0..<Self.caseCount))
    }

    @Test("every event becomes one line at its level, its description as the message, with its metadata")
    func everyEventLogged() {
        for (event, level, name, metadata) in Self.samples {
            let (logger, handler) = Self.logger()
            LoggingObserver(logger: logger).receive(event)
            #expect(handler.entries.count == 1, "\(event)")
            guard let entry = handler.entries.first else { continue }
            #expect(entry.level == level, "\(event)")
            #expect(entry.message.description == event.description)
            #expect(entry.metadata["config.event"] == .string(name))
            for (key, value) in metadata {
                #expect(entry.metadata[key] == value, "\(event): \(key)")
            }
        }
    }

    @Test("lines below the logger's level are not logged")
    func levelFilter() {
        let (logger, handler) = Self.logger(level: .info)
        let observer = LoggingObserver(logger: logger)
        observer.receive(.refreshStarted)
        observer.receive(.notModified)
        observer.receive(.activated(ConfigUpdate(changedKeys: ["a"], cause: .refresh, generation: 2)))
        #expect(handler.entries.map(\.metadata["config.event"]) == [.string("activated")])
    }

    @Test("a refresh through a real client logs its story in order")
    func clientStory() async throws {
        let (logger, handler) = Self.logger()
        let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: #"{"max_retries": 4}"#))
            .clock(ManualClock())
            .observer(LoggingObserver(logger: logger))
            .register(ConfigKey("max_retries", default: 3))
            .build()
        _ = try await client.refresh()
        await client.stop()
        let names = handler.entries.compactMap { entry -> String? in
            if case .string(let name) = entry.metadata["config.event"] { name } else { nil }
        }
        // The first good refresh also takes the client from NOT_READY to READY: one state change.
        #expect(names == ["refresh_started", "fetched", "activated", "state_changed"], "an activation is reported once")
    }

    @Test("a secret key's value never appears, from a client whose payload breaks the key's rule")
    func secretKeyValue() async throws {
        let secret = "sk-live-9f8e7d6c5b4a"
        let token = ConfigKey("api_token", default: "none", rules: [.pattern("^pk-")], secret: true)
        let (logger, handler) = Self.logger()
        let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: #"{"api_token": "\#(secret)"}"#))
            .clock(ManualClock())
            .observer(LoggingObserver(logger: logger))
            .register(token)
            .build()
        await #expect(throws: ConfigError.self, "the payload's one value is rejected") { try await client.refresh() }
        await client.stop()
        let rejected = handler.entries.filter { $0.metadata["config.event"] == "value_rejected" }
        #expect(rejected.count == 1)
        #expect(rejected.first?.metadata["config.value"] == .string(Rejection.redacted))
        #expect(!Self.text(of: handler.entries).contains(secret))
        #expect(!Self.text(of: handler.entries).contains("sk-live"))
    }

    @Test("a token given to redact never appears, even where a careless fetcher put it in an error")
    func redactedToken() async throws {
        let token = "tok_4f9a2c7e1b3d5f60"
        let fetcher = ScriptedFetcher()
        fetcher.enqueue(
            .failure(FetchError(.httpStatus(401), retry: .doNotRetry, message: "401 for Authorization: Bearer \(token)")))
        let (logger, handler) = Self.logger()
        let client = try RemoteConfigClient.builder(fetcher: fetcher)
            .clock(ManualClock())
            .observer(LoggingObserver(logger: logger, redacting: ["Bearer \(token)"]))
            .build()
        _ = try? await client.refresh()
        await client.stop()
        let failed = try #require(handler.entries.first { $0.metadata["config.event"] == "refresh_failed" })
        #expect(failed.level == .error)
        #expect(failed.message.description.contains("Authorization: <redacted>"))
        #expect(!Self.text(of: handler.entries).contains(token))
        #expect(!Self.text(of: handler.entries).contains("4f9a2c7e"))
    }

    @Test("redaction reaches every message and metadata value, and ignores blank secrets")
    func redactionEverywhere() {
        let secret = "hunter2-and-more"
        let (logger, handler) = Self.logger()
        LoggingObserver(logger: logger, redacting: [secret, "  ", ""]).receive(
            .activated(ConfigUpdate(changedKeys: ["plain", "key-\(secret)"], cause: .refresh, generation: 3)))
        LoggingObserver(logger: logger, redacting: [secret]).receive(
            .overrideProblem(source: "env", message: "value \(secret) is malformed"))
        #expect(handler.entries.count == 2)
        #expect(handler.entries[0].metadata["config.changed_keys"] == ["plain", "key-<redacted>"])
        #expect(
            handler.entries[0].message.description == "activated by refresh (generation 3): changed plain, key-<redacted>")
        #expect(handler.entries[1].metadata["config.problem"] == "value <redacted> is malformed")
        #expect(!Self.text(of: handler.entries).contains(secret))
    }

    /// Every message and metadata value of `entries`, as one text.
    static func text(of entries: [InMemoryLogHandler.Entry]) -> String {
        entries.map { "\($0.message) \($0.metadata.map { "\($0.key)=\($0.value)" }.joined(separator: " "))" }
            .joined(separator: "\n")
    }
}
