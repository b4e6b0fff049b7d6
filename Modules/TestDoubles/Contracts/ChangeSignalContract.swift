import ConfigDomain
import ConfigPorts
import Foundation

/// The contract every ``ChangeSignalSource`` must pass, as a suite you run against your own adapter.
///
/// Connection reports (``ChangeSignal/connection(_:)``) may come at any time and are not counted:
/// "the first signal" below is the first one that says something of the configuration.
///
/// Each check makes a source over a backend holding `document(0)`, subscribes, and publishes
/// `document(1)`, `document(2)`… through your `publish` hook, which returns the version the backend
/// gave the document (the ETag, the revision) or `nil` when it gives none. A signal names a
/// publication by its version, or by its payload's bytes (which must be exactly the published
/// bytes); `.changed(version: nil)` stands for "the newest".
///
/// ```swift
/// let report = await ChangeSignalContract<InMemoryChangeSignalSource>(
///     subject: "InMemoryChangeSignalSource",
///     makeSource: { _ in InMemoryChangeSignalSource() },
///     publish: { source, document in
///         let version = "v\(document.count)-\(ContentHash(of: document).value)"
///         source.announce(version: version)
///         return version
///     }
/// ).run()
/// #expect(report.passed, "\(report)")
/// ```
public struct ChangeSignalContract<Source: ChangeSignalSource>: Sendable {
    /// The suite's checks, by stable name.
    public enum Check: String, Sendable, CaseIterable {
        /// The first signal of a subscription describes the current state, and the source has a name.
        case currentFirst = "signals.start-with-the-current-state"
        /// A change published after the subscription is live is signalled (a payload carries its exact bytes).
        case changeSignalled = "signals.a-change-is-signalled"
        /// Three changes published back to back are signalled in order, ending with the newest.
        case inOrder = "signals.changes-arrive-in-order"
        /// Several subscriptions each get the current state, then the change.
        case manySubscribers = "signals.serve-many-subscribers"
        /// Cancelling the consuming task ends the sequence within the bound.
        case cancellationEnds = "signals.cancellation-ends-the-sequence"
    }

    /// The document the suite publishes as its `revision`th change (`0` is the backend's initial document).
    public static func document(_ revision: Int) -> Data {
        Data(#"{"contract.revision":\#(revision),"contract.label":"revision \#(revision)"}"#.utf8)
    }

    /// The adapter's name in the report.
    public var subject: String
    /// What the adapter declares it cannot do (no check of this suite is skippable today).
    public var capabilities: Set<ContractCapability>
    /// Makes a source whose backend holds this document. Called once per check.
    public var makeSource: @Sendable (_ document: Data) async throws -> Source
    /// Publishes a document to the source's backend; returns the version it got, or `nil`.
    public var publish: @Sendable (Source, _ document: Data) async throws -> String?
    /// Called with each source made, after its check (stop the servers it used).
    public var discard: (@Sendable (Source) async -> Void)?
    /// How long one check may take before the watchdog fails it (default 30 s; never reached by a working adapter).
    public var timeLimit: TimeInterval
    /// How soon cancelling the consumer must end the sequence (default 2 s).
    public var cancellationBound: TimeInterval
    /// How many subscriptions the many-subscribers check opens (default 4).
    public var subscribers: Int

    /// Configures the suite for one adapter.
    public init(
        subject: String,
        capabilities: Set<ContractCapability> = [],
        makeSource: @escaping @Sendable (_ document: Data) async throws -> Source,
        publish: @escaping @Sendable (Source, _ document: Data) async throws -> String?,
        discard: (@Sendable (Source) async -> Void)? = nil,
        timeLimit: TimeInterval = 30,
        cancellationBound: TimeInterval = 2,
        subscribers: Int = 4
    ) {
        self.subject = subject
        self.capabilities = capabilities
        self.makeSource = makeSource
        self.publish = publish
        self.discard = discard
        self.timeLimit = timeLimit
        self.cancellationBound = cancellationBound
        self.subscribers = subscribers
    }

    /// Runs every check against the adapter and reports each outcome. Never throws, never traps.
    public func run() async -> ContractReport {
        await CheckRunner.run(
            suite: "ChangeSignalContract", subject: subject, capabilities: capabilities, timeLimit: timeLimit,
            skips: { (_: Check) in [] }
        ) { (check: Check, progress) throws(ContractFailure) in
            progress.at("making the source over a backend holding document(0)")
            let source = try await hook("makeSource") { try await makeSource(Self.document(0)) }
            try await CheckRunner.using(source, progress, discard: discard) { source throws(ContractFailure) in
                let log = PublicationLog(source: source, publish: publish, progress: progress)
                switch check {
                case .currentFirst: try await checkCurrentFirst(log)
                case .changeSignalled: try await checkChangeSignalled(log)
                case .inOrder: try await checkInOrder(log)
                case .manySubscribers: try await checkManySubscribers(log)
                case .cancellationEnds: try await checkCancellationEnds(log)
                }
            }
        }
    }

    // MARK: - Checks

    private func checkCurrentFirst(_ log: PublicationLog) async throws(ContractFailure) {
        try require(!log.source.name.isEmpty, "the source's name is empty; name it for provenance (for example sse <url>)")
        var iterator = log.source.signals().makeAsyncIterator()
        log.progress.at("waiting for the subscription's first signal, which must describe the current state")
        try await log.expectCurrentState(from: &iterator, "the subscriber")
    }

    private func checkChangeSignalled(_ log: PublicationLog) async throws(ContractFailure) {
        var iterator = log.source.signals().makeAsyncIterator()
        log.progress.at("waiting for the first signal (the subscription is live)")
        try await log.expectCurrentState(from: &iterator, "the subscriber")
        try await log.publish(1)
        log.progress.at("waiting for the signal of document(1)")
        _ = try await log.awaitSignal(of: 1, from: &iterator, "the subscriber")
    }

    private func checkInOrder(_ log: PublicationLog) async throws(ContractFailure) {
        var iterator = log.source.signals().makeAsyncIterator()
        log.progress.at("waiting for the first signal (the subscription is live)")
        try await log.expectCurrentState(from: &iterator, "the subscriber")
        for revision in 1...3 { try await log.publish(revision) }
        log.progress.at("waiting for the signal of document(3), published last")
        let named = try await log.awaitSignal(of: 3, from: &iterator, "the subscriber")
        var newest = 0
        for revision in named {
            if revision < newest {
                throw ContractFailure(
                    "after publishing documents 1, 2, 3 in that order, the signals named revisions \(named): revision "
                        + "\(revision) came after \(newest); signal changes in the order they were made (a client would "
                        + "activate an older payload, or fetch for nothing)")
            }
            newest = revision
        }
    }

    private func checkManySubscribers(_ log: PublicationLog) async throws(ContractFailure) {
        let count = max(2, subscribers)
        var iterators = (0..<count).map { _ in log.source.signals().makeAsyncIterator() }
        for index in iterators.indices {
            log.progress.at("waiting for subscriber \(index + 1) of \(count) to get its first signal")
            try await log.expectCurrentState(from: &iterators[index], "subscriber \(index + 1) of \(count)")
        }
        try await log.publish(1)
        for index in iterators.indices {
            log.progress.at("waiting for subscriber \(index + 1) of \(count) to get the signal of document(1)")
            _ = try await log.awaitSignal(of: 1, from: &iterators[index], "subscriber \(index + 1) of \(count)")
        }
    }

    private func checkCancellationEnds(_ log: PublicationLog) async throws(ContractFailure) {
        try await expectCancellationEnds(
            { [source = log.source] in source.signals() }, within: cancellationBound, log.progress,
            advice: "finish when the consumer cancels and close the connection (AsyncStream's onTermination is the place)")
        try await log.publish(1)
    }
}

// MARK: - Publications and signals

extension ChangeSignalContract {
    /// The documents a check published and the versions they got, to name the signals it reads.
    final class PublicationLog: Sendable {
        let source: Source
        let progress: CheckProgress
        private let publishHook: @Sendable (Source, Data) async throws -> String?
        /// The version of each revision published (index 0, the initial document, has none known).
        private let versions = Locked<[String?]>([nil])

        init(source: Source, publish: @escaping @Sendable (Source, Data) async throws -> String?, progress: CheckProgress) {
            self.source = source
            self.publishHook = publish
            self.progress = progress
        }

        /// Publishes `document(revision)` and records its version.
        func publish(_ revision: Int) async throws(ContractFailure) {
            progress.at("publishing document(\(revision))")
            let version = try await hook("publish") { try await publishHook(source, document(revision)) }
            versions.withLock { $0.append(version) }
        }

        /// What a signal names.
        enum Naming: Equatable {
            /// A published revision.
            case revision(Int)
            /// "The newest", or a version the suite was not told about.
            case newest
        }

        /// The revision `signal` names, or why it names none.
        func naming(of signal: ChangeSignal) throws(ContractFailure) -> Naming {
            switch signal {
            case .payload(let payload):
                let published = versions.current.indices
                guard let revision = published.last(where: { ChangeSignalContract.document($0) == payload.bytes }) else {
                    throw ContractFailure(
                        "a payload signal carried \(payload.bytes.count) bytes that are not any published document "
                            + "(\(String(decoding: payload.bytes.prefix(80), as: UTF8.self))); deliver the bytes exactly "
                            + "as published, never re-encoded")
                }
                return .revision(revision)
            case .changed(let version?):
                let known = versions.current
                if let revision = known.lastIndex(where: {
                    $0.map { ChangeSignal.isSameVersion(version, as: Validators(etag: $0)) } == true
                }) {
                    return .revision(revision)
                }
                return .newest
            case .changed(nil):
                return .newest
            case .connection(let connection):
                throw ContractFailure("a connection report (\(connection)) was read as a change; this is a bug in the suite")
            }
        }

        /// The next signal that says something of the configuration; connection reports are skipped
        /// (a source may report its connection at any time). `nil` when the stream finished.
        func nextChange(from iterator: inout AsyncStream<ChangeSignal>.Iterator) async -> ChangeSignal? {
            while let signal = await iterator.next() {
                if signal.isChange { return signal }
            }
            return nil
        }

        /// Reads a subscription's first signal, which must describe the current state (document(0)).
        func expectCurrentState(
            from iterator: inout AsyncStream<ChangeSignal>.Iterator, _ subscriber: String
        ) async throws(ContractFailure) {
            guard let first = await nextChange(from: &iterator) else {
                throw ContractFailure(
                    "for \(subscriber), signals() finished without yielding anything; keep the stream open until the "
                        + "consumer cancels, and yield the current state first")
            }
            let naming = try naming(of: first)
            try require(
                naming == .revision(0) || naming == .newest,
                "the first signal \(subscriber) got is not the current state: \(describe(first))")
            // The initial document's version is the one its first signal names, if any.
            if case .changed(let version?) = first { versions.withLock { if $0[0] == nil { $0[0] = version } } }
        }

        /// Reads signals until one names `revision` (or the newest); returns the revisions named on the way, in order.
        func awaitSignal(
            of revision: Int, from iterator: inout AsyncStream<ChangeSignal>.Iterator, _ subscriber: String
        ) async throws(ContractFailure) -> [Int] {
            var named: [Int] = []
            for _ in 0..<64 {
                guard let signal = await nextChange(from: &iterator) else {
                    throw ContractFailure(
                        "signals() finished before \(subscriber) got the signal of document(\(revision)); keep the "
                            + "stream open (reconnect on your own) until the consumer cancels")
                }
                switch try naming(of: signal) {
                case .newest: return named
                case .revision(let seen):
                    named.append(seen)
                    if seen >= revision { return named }
                }
            }
            throw ContractFailure("\(subscriber) got 64 signals, none of them for document(\(revision)); named \(named)")
        }

        /// `changed(version: "abc")`, `payload(24 bytes, etag "abc")`.
        private func describe(_ signal: ChangeSignal) -> String {
            switch signal {
            case .changed(let version): "changed(version: \(version.map { "\"\($0)\"" } ?? "nil"))"
            case .payload(let payload):
                "payload(\(payload.bytes.count) bytes, etag \(payload.validators.etag ?? "none"))"
            case .connection(let connection): "connection(\(connection))"
            }
        }
    }
}
