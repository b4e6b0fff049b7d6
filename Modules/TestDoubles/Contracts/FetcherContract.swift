import ConfigDomain
import ConfigPorts
import Foundation

/// The contract every ``ConfigFetcher`` must pass, as a suite you run against your own adapter.
///
/// You provide a factory for the fetcher and hooks that drive its backend; the suite serves its two
/// documented payloads (``firstPayload``, ``secondPayload``), fetches, and checks each rule of the
/// port. Declare what your backend cannot do with ``capabilities``; the matching checks are then
/// reported as skipped, never silently dropped.
///
/// ```swift
/// let backend = InMemoryFetcher(json: "{}")
/// let report = await FetcherContract(
///     subject: "InMemoryFetcher", capabilities: [.noSecrets],
///     makeFetcher: { backend },
///     serve: { backend.serve(payload: $0) },
///     setFault: { fault in
///         switch fault {
///         case .temporary?: backend.failAll(with: FetchError(.transport, retry: .backoff, message: "down"))
///         case .permanent?: backend.failAll(with: FetchError(.httpStatus(404), retry: .doNotRetry, message: "gone"))
///         case nil: backend.failAll(with: nil)
///         }
///     },
///     hold: { ContractHold(backend.holdNext()) },
///     requestCount: { backend.fetchCount }
/// ).run()
/// #expect(report.passed, "\(report)")
/// ```
///
/// Checks run one after the other, each with a fresh fetcher from `makeFetcher`, after the fault is
/// cleared and ``firstPayload`` is served. Each check must finish within ``timeLimit`` (a watchdog
/// that never fires for a working adapter); cancellation must end a fetch within
/// ``cancellationBound``, the one check that measures real time.
public struct FetcherContract: Sendable {
    /// A failure the backend can be told to produce.
    public enum Fault: Sendable, Hashable {
        /// A failure that may pass (server down, 503, connection refused): expect a retryable error.
        case temporary
        /// A failure that will not pass by retrying (404, a missing file): expect a non-retryable error.
        case permanent
    }

    /// The suite's checks, by stable name.
    public enum Check: String, Sendable, CaseIterable {
        /// An unconditional fetch returns the served bytes, validators and a source.
        case firstFetch = "fetcher.first-fetch-returns-payload-and-validators"
        /// An unconditional fetch is always `modified`, whatever was fetched before.
        case unconditionalFetch = "fetcher.unconditional-fetch-is-always-modified"
        /// The validators just returned make the next fetch `notModified` (or byte-identical with `.noValidators`).
        case unchanged = "fetcher.unchanged-payload-is-not-modified"
        /// Validators of a version never served get the payload.
        case unknownValidators = "fetcher.unknown-validators-get-the-payload"
        /// A change is `modified` with the new bytes and new validators.
        case change = "fetcher.change-is-modified-with-new-validators"
        /// A temporary backend failure is a typed, retryable error, and the next fetch recovers.
        case temporaryFailure = "fetcher.temporary-failure-is-typed-and-retryable"
        /// A permanent backend failure is a typed error that says not to retry.
        case permanentFailure = "fetcher.permanent-failure-is-typed-and-not-retryable"
        /// A fetch in an already-cancelled task throws `FetchError.cancelled` (or answers correctly), promptly.
        case cancelledBeforeStart = "fetcher.cancelled-task-is-reported-as-cancelled"
        /// Cancelling a fetch the backend holds ends it with `FetchError.cancelled` within the bound.
        case cancelledInFlight = "fetcher.cancellation-in-flight-ends-the-fetch-promptly"
        /// Sixteen concurrent fetches all succeed and agree.
        case concurrentFetches = "fetcher.concurrent-fetches-all-succeed-and-agree"
        /// One fetch makes at most one request to the backend, even when it fails.
        case noRetries = "fetcher.never-retries-on-its-own"
        /// No secret appears in any error or payload source seen during the run.
        case noSecrets = "fetcher.secrets-never-appear-in-errors"
    }

    /// The payload the backend serves at the start of every check (a compact JSON object).
    public static let firstPayload = Data(#"{"contract.count":1,"contract.flag":true,"contract.label":"first"}"#.utf8)
    /// The payload the suite switches to when it checks a change.
    public static let secondPayload = Data(
        #"{"contract.count":2,"contract.flag":false,"contract.label":"second, changed"}"#.utf8)

    /// The adapter's name in the report.
    public var subject: String
    /// What the adapter declares it cannot do; each skips the checks that need it.
    public var capabilities: Set<ContractCapability>
    /// Makes the fetcher under test, talking to the backend the hooks drive. Called once per check.
    public var makeFetcher: @Sendable () async throws -> any ConfigFetcher
    /// Makes the backend serve these bytes from now on (``firstPayload`` or ``secondPayload``).
    public var serve: @Sendable (Data) async throws -> Void
    /// Makes the backend fail from now on with this kind of failure; `nil` makes it healthy again.
    public var setFault: (@Sendable (Fault?) async throws -> Void)?
    /// Makes the backend hold the next request in flight until released.
    public var hold: (@Sendable () async throws -> ContractHold)?
    /// How many requests have reached the backend so far (count each attempt the fetcher makes).
    public var requestCount: (@Sendable () async -> Int)?
    /// The secrets the fetcher is configured with (tokens, keys); none may appear in an error or a source.
    public var secrets: [String]
    /// The configuration name put in every request.
    public var configurationName: String
    /// How long one check may take before the watchdog fails it (default 30 s; never reached by a working adapter).
    public var timeLimit: TimeInterval
    /// How soon a cancelled fetch must end (default 2 s).
    public var cancellationBound: TimeInterval
    /// How many fetches the concurrency check runs at once (default 16).
    public var concurrentFetches: Int

    /// Configures the suite for one adapter.
    public init(
        subject: String,
        capabilities: Set<ContractCapability> = [],
        makeFetcher: @escaping @Sendable () async throws -> any ConfigFetcher,
        serve: @escaping @Sendable (Data) async throws -> Void,
        setFault: (@Sendable (Fault?) async throws -> Void)? = nil,
        hold: (@Sendable () async throws -> ContractHold)? = nil,
        requestCount: (@Sendable () async -> Int)? = nil,
        secrets: [String] = [],
        configurationName: String = "default",
        timeLimit: TimeInterval = 30,
        cancellationBound: TimeInterval = 2,
        concurrentFetches: Int = 16
    ) {
        self.subject = subject
        self.capabilities = capabilities
        self.makeFetcher = makeFetcher
        self.serve = serve
        self.setFault = setFault
        self.hold = hold
        self.requestCount = requestCount
        self.secrets = secrets
        self.configurationName = configurationName
        self.timeLimit = timeLimit
        self.cancellationBound = cancellationBound
        self.concurrentFetches = concurrentFetches
    }

    /// Runs every check against the adapter and reports each outcome. Never throws, never traps.
    public func run() async -> ContractReport {
        let seen = Observations()
        let checks: [CheckDefinition] = Check.allCases.map { check in
            CheckDefinition(name: check.rawValue, skippedBy: skips(check)) { progress throws(ContractFailure) in
                try await body(of: check, progress: progress, seen: seen)
            }
        }
        let report = await CheckRunner.run(
            suite: "FetcherContract", subject: subject, capabilities: capabilities, timeLimit: timeLimit, checks: checks
        )
        // Leave the backend healthy for whatever the author's test does next.
        try? await setFault?(nil)
        return report
    }

    // MARK: - Checks

    private func skips(_ check: Check) -> [ContractCapability] {
        switch check {
        case .temporaryFailure: [.noFaultInjection]
        case .permanentFailure: [.noFaultInjection, .noPermanentFailure]
        case .cancelledInFlight: [.cannotHold]
        case .noRetries: [.uncountedRequests]
        case .noSecrets: [.noSecrets]
        default: []
        }
    }

    private var hasValidators: Bool { !capabilities.contains(.noValidators) }

    private func body(of check: Check, progress: CheckProgress, seen: Observations) async throws(ContractFailure) {
        let fetcher = try await prepare(progress)
        let session = Session(fetcher: fetcher, name: configurationName, seen: seen, progress: progress)
        switch check {
        case .firstFetch: try await checkFirstFetch(session)
        case .unconditionalFetch: try await checkUnconditionalFetch(session)
        case .unchanged: try await checkUnchanged(session)
        case .unknownValidators: try await checkUnknownValidators(session)
        case .change: try await checkChange(session)
        case .temporaryFailure: try await checkFailure(session, fault: .temporary)
        case .permanentFailure: try await checkFailure(session, fault: .permanent)
        case .cancelledBeforeStart: try await checkCancelledBeforeStart(session)
        case .cancelledInFlight: try await checkCancelledInFlight(session)
        case .concurrentFetches: try await checkConcurrentFetches(session)
        case .noRetries: try await checkNoRetries(session)
        case .noSecrets: try await checkNoSecrets(session)
        }
    }

    /// Clears any fault, serves the first payload and makes a fresh fetcher.
    private func prepare(_ progress: CheckProgress) async throws(ContractFailure) -> any ConfigFetcher {
        progress.at("resetting the backend (setFault(nil), serve(firstPayload))")
        if let setFault { try await hook("setFault") { try await setFault(nil) } }
        try await hook("serve") { try await serve(Self.firstPayload) }
        progress.at("making the fetcher")
        return try await hook("makeFetcher") { try await makeFetcher() }
    }

    private func checkFirstFetch(_ session: Session) async throws(ContractFailure) {
        let payload = try await session.expectPayload(Self.firstPayload, for: .none, "an unconditional first fetch")
        if hasValidators {
            try require(
                !payload.validators.isEmpty,
                "the first fetch returned no validators, so no later fetch can be conditional; return an ETag or "
                    + "Last-Modified, or declare .noValidators")
        }
        try require(
            !payload.source.isEmpty,
            "the payload's source is empty; name where it came from (a URL, a path) for provenance")
    }

    private func checkUnconditionalFetch(_ session: Session) async throws(ContractFailure) {
        _ = try await session.expectPayload(Self.firstPayload, for: .none, "an unconditional fetch")
        let again = await session.fetch(.none, "a second unconditional fetch")
        if case .success(.notModified) = again {
            throw ContractFailure(
                "a second unconditional fetch answered notModified: decide from the request's validators only, never "
                    + "from what was answered before (a new client or an emptied cache sends none)")
        }
        _ = try session.expectPayload(Self.firstPayload, in: again, "a second unconditional fetch")
    }

    private func checkUnchanged(_ session: Session) async throws(ContractFailure) {
        let first = try await session.expectPayload(Self.firstPayload, for: .none, "an unconditional fetch")
        let context = "a fetch carrying the validators just returned (\(first.validators)) with nothing changed"
        let result = await session.fetch(first.validators, context)
        guard hasValidators else {
            _ = try session.expectPayload(
                Self.firstPayload, in: result, context + " (the adapter declared .noValidators)")
            return
        }
        switch result {
        case .success(.notModified): return
        case .success(.modified(let payload)):
            throw ContractFailure(
                "\(context) answered modified (\(payload.bytes.count) bytes): the fetcher ignores validators, so every "
                    + "refresh downloads and rewrites the whole payload; answer notModified when they match")
        case .failure(let error):
            throw ContractFailure("\(context) failed: \(describe(error))")
        }
    }

    private func checkUnknownValidators(_ session: Session) async throws(ContractFailure) {
        let unknown = Validators(etag: "\"contract-never-served\"", lastModified: "Thu, 01 Jan 1970 00:00:00 GMT")
        _ = try await session.expectPayload(
            Self.firstPayload, for: unknown, "a fetch carrying validators of a version the backend never served")
    }

    private func checkChange(_ session: Session) async throws(ContractFailure) {
        let first = try await session.expectPayload(Self.firstPayload, for: .none, "an unconditional fetch")
        session.progress.at("serving secondPayload")
        try await hook("serve") { try await serve(Self.secondPayload) }
        let changed = try await session.expectPayload(
            Self.secondPayload, for: first.validators, "after the backend changed, a fetch with the old validators")
        guard hasValidators else { return }
        try require(
            !changed.validators.isEmpty && changed.validators != first.validators,
            "the changed payload came with validators \(changed.validators), the same as the old one's "
                + "(\(first.validators)); a client holding them could not tell versions apart")
        let next = await session.fetch(changed.validators, "a fetch with the new validators")
        guard case .success(.notModified) = next else {
            throw ContractFailure(
                "a fetch with the new validators (\(changed.validators)) and nothing changed answered "
                    + "\(describe(next)) instead of notModified")
        }
    }

    private func checkFailure(_ session: Session, fault: Fault) async throws(ContractFailure) {
        guard let setFault else { throw missingHook("setFault", orDeclare: .noFaultInjection) }
        let kind = fault == .temporary ? "temporary" : "permanent"
        session.progress.at("injecting a \(kind) fault")
        try await hook("setFault") { try await setFault(fault) }
        let result = await session.fetch(.none, "a fetch while the backend fails (\(kind))")
        guard case .failure(let error) = result else {
            throw ContractFailure(
                "a fetch while the backend had a \(kind) fault answered \(describe(result)); it must throw a FetchError "
                    + "(check the setFault hook really breaks the backend)")
        }
        try require(
            error.kind != .cancelled, "a \(kind) backend failure was reported as \(describe(error)); say what failed")
        try require(
            !error.message.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
            "a \(kind) backend failure has an empty message; say what happened and what to do")
        switch fault {
        case .temporary:
            try require(
                error.isRetryable,
                "a temporary backend failure came back as \(describe(error)): the scheduler "
                    + "would give up on a failure that may pass; advise .backoff or .after(date)")
        case .permanent:
            try require(
                !error.isRetryable,
                "a permanent backend failure came back as \(describe(error)): the scheduler "
                    + "would keep retrying something that cannot succeed; advise .doNotRetry")
        }
        session.progress.at("clearing the fault")
        try await hook("setFault") { try await setFault(nil) }
        _ = try await session.expectPayload(Self.firstPayload, for: .none, "a fetch after the \(kind) fault cleared")
    }

    private func checkCancelledBeforeStart(_ session: Session) async throws(ContractFailure) {
        session.progress.at("fetching in an already-cancelled task")
        let task = Task { () -> Result<FetchResult, FetchError> in
            cancelCurrentTask()
            return await session.fetch(.none, "a fetch in a cancelled task")
        }
        guard let result = await Watchdog.run(limit: cancellationBound, { await task.value }) else {
            throw ContractFailure(
                "a fetch started in an already-cancelled task did not end within \(format(cancellationBound))")
        }
        switch result {
        case .failure(let error) where error.kind == .cancelled: return
        case .failure(let error):
            throw ContractFailure(
                "a fetch in a cancelled task failed with \(describe(error)) instead of FetchError.cancelled; misreported "
                    + "cancellation makes the scheduler back off and retry a refresh nobody wants")
        case .success(.modified(let payload)) where payload.bytes == Self.firstPayload:
            return  // Finished without noticing the cancellation, with a correct answer: allowed.
        case .success(let other):
            throw ContractFailure(
                "a fetch in a cancelled task answered \(describe(.success(other))) instead of throwing "
                    + "FetchError.cancelled (or answering the payload): it swallowed the cancellation")
        }
    }

    private func checkCancelledInFlight(_ session: Session) async throws(ContractFailure) {
        guard let hold else { throw missingHook("hold", orDeclare: .cannotHold) }
        session.progress.at("asking the backend to hold the next request")
        let gate = try await hook("hold") { try await hold() }
        let task = Task { await session.fetch(.none, "a fetch cancelled while the backend held it") }
        session.progress.at("waiting for the fetch to reach the backend (ContractHold.waitUntilReached)")
        await gate.waitUntilReached()
        task.cancel()
        session.progress.at("waiting for the cancelled fetch to end")
        let result = await Watchdog.run(limit: cancellationBound) { await task.value }
        await gate.release()
        guard let result else {
            throw ContractFailure(
                "the fetch did not end within \(format(cancellationBound)) of its task being cancelled while the "
                    + "backend held the request; pass cancellation on (URLSession does; otherwise use "
                    + "withTaskCancellationHandler) and throw FetchError.cancelled")
        }
        switch result {
        case .failure(let error) where error.kind == .cancelled: return
        case .failure(let error):
            throw ContractFailure(
                "the fetch cancelled in flight ended with \(describe(error)) instead of FetchError.cancelled; misreported "
                    + "cancellation makes the scheduler back off and retry")
        case .success(let answer):
            throw ContractFailure(
                "the fetch cancelled in flight answered \(describe(.success(answer))) although the backend never "
                    + "answered: it swallowed the cancellation; throw FetchError.cancelled")
        }
    }

    private func checkConcurrentFetches(_ session: Session) async throws(ContractFailure) {
        let count = max(2, concurrentFetches)
        session.progress.at("running \(count) fetches at once")
        let results = await withTaskGroup(of: Result<FetchResult, FetchError>.self) { group in
            for _ in 0..<count {
                group.addTask { await session.fetch(.none, "one of \(count) concurrent fetches") }
            }
            var all: [Result<FetchResult, FetchError>] = []
            for await result in group { all.append(result) }
            return all
        }
        var payloads: [FetchedPayload] = []
        var problems: [String] = []
        for result in results {
            switch result {
            case .success(.modified(let payload)) where payload.bytes == Self.firstPayload: payloads.append(payload)
            default: problems.append(describe(result))
            }
        }
        try require(
            problems.isEmpty,
            "\(problems.count) of \(count) concurrent unconditional fetches did not return the served payload; "
                + "first: \(problems.first ?? "")")
        let distinct = Set(payloads.map(\.validators))
        try require(
            distinct.count == 1,
            "\(count) concurrent fetches of one unchanged payload disagree on its validators: \(distinct)")
    }

    private func checkNoRetries(_ session: Session) async throws(ContractFailure) {
        guard let requestCount else { throw missingHook("requestCount", orDeclare: .uncountedRequests) }
        session.progress.at("counting the requests of one successful fetch")
        var before = await requestCount()
        _ = try await session.expectPayload(Self.firstPayload, for: .none, "an unconditional fetch")
        var made = await requestCount() - before
        try require(
            made == 1,
            "one successful fetch made \(made) requests to the backend; expected exactly 1 (check the requestCount "
                + "hook counts every request the fetcher makes)")
        guard let setFault, !capabilities.contains(.noFaultInjection) else { return }
        var faults: [Fault] = [.temporary]
        if !capabilities.contains(.noPermanentFailure) { faults.append(.permanent) }
        for fault in faults {
            session.progress.at("counting the requests of one failing fetch (\(fault))")
            try await hook("setFault") { try await setFault(fault) }
            before = await requestCount()
            _ = await session.fetch(.none, "a fetch while the backend fails")
            made = await requestCount() - before
            try require(
                made <= 1,
                "one fetch against a failing backend (\(fault)) made \(made) requests: the fetcher retries on its "
                    + "own. Throw a FetchError with retry advice instead; retrying (with backoff, jitter and "
                    + "Retry-After) is the scheduler's job")
        }
    }

    private func checkNoSecrets(_ session: Session) async throws(ContractFailure) {
        let secrets = secrets.filter { !$0.isEmpty }
        guard !secrets.isEmpty else {
            throw ContractFailure(
                "no secrets were listed; list the tokens or keys the fetcher is configured with in `secrets`, or "
                    + "declare .noSecrets")
        }
        if let setFault, !capabilities.contains(.noFaultInjection) {
            var faults: [Fault] = [.temporary]
            if !capabilities.contains(.noPermanentFailure) { faults.append(.permanent) }
            for fault in faults {
                session.progress.at("provoking a \(fault) error")
                try await hook("setFault") { try await setFault(fault) }
                _ = await session.fetch(.none, "a fetch while the backend fails")
            }
            try await hook("setFault") { try await setFault(nil) }
        }
        session.progress.at("provoking a cancellation error")
        let cancelled = Task { () -> Result<FetchResult, FetchError> in
            cancelCurrentTask()
            return await session.fetch(.none, "a fetch in a cancelled task")
        }
        _ = await Watchdog.run(limit: cancellationBound) { await cancelled.value }
        let (errors, sources) = session.seen.all
        for (index, secret) in secrets.enumerated() {
            let label = "secret #\(index + 1) of `secrets` (\(secret.count) characters)"
            for error in errors {
                let texts = [error.description, error.message, "\(error.kind)"]
                if let leak = texts.first(where: { $0.contains(secret) }) {
                    throw ContractFailure(
                        "\(label) appears in an error: \(Rejection.redact(leak, secret: secret)); redact secrets "
                            + "before building a FetchError")
                }
            }
            if let leak = sources.first(where: { $0.contains(secret) }) {
                throw ContractFailure(
                    "\(label) appears in a payload's source: \(Rejection.redact(leak, secret: secret)); sources are "
                        + "shown in provenance and logs")
            }
        }
    }
}

// MARK: - Helpers

extension FetcherContract {
    /// Every error and payload source seen during one run, for the secret check.
    fileprivate final class Observations: Sendable {
        private let state = LockedState((errors: [FetchError](), sources: Set<String>()))

        func record(_ result: Result<FetchResult, FetchError>) {
            state.withLock { state in
                switch result {
                case .failure(let error): state.errors.append(error)
                case .success(.modified(let payload)): state.sources.insert(payload.source)
                case .success(.notModified): break
                }
            }
        }

        var all: (errors: [FetchError], sources: [String]) {
            state.withLock { ($0.errors, $0.sources.sorted()) }
        }
    }

    /// One check's fetcher with the helpers that call it.
    fileprivate struct Session: Sendable {
        let fetcher: any ConfigFetcher
        let name: String
        let seen: Observations
        let progress: CheckProgress

        func fetch(_ validators: Validators, _ what: String) async -> Result<FetchResult, FetchError> {
            progress.at(what)
            let result: Result<FetchResult, FetchError>
            do throws(FetchError) {
                result = .success(
                    try await fetcher.fetch(FetchRequest(validators: validators, configurationName: name)))
            } catch {
                result = .failure(error)
            }
            seen.record(result)
            return result
        }

        func expectPayload(
            _ expected: Data, for validators: Validators, _ what: String
        ) async throws(ContractFailure) -> FetchedPayload {
            try expectPayload(expected, in: await fetch(validators, what), what)
        }

        func expectPayload(
            _ expected: Data, in result: Result<FetchResult, FetchError>, _ what: String
        ) throws(ContractFailure) -> FetchedPayload {
            switch result {
            case .failure(let error):
                throw ContractFailure("\(what) failed: \(describe(error))")
            case .success(.notModified(let validators)):
                throw ContractFailure("\(what) answered notModified(\(validators)); expected the payload")
            case .success(.modified(let payload)):
                try require(
                    payload.bytes == expected,
                    "\(what) returned \(payload.bytes.count) bytes that differ from the \(expected.count) bytes the "
                        + "backend serves; return the bytes exactly as received")
                return payload
            }
        }
    }
}

/// `modified(71 bytes, etag=…)`, `notModified(none)` or `error: fetch failed: …`.
private func describe(_ result: Result<FetchResult, FetchError>) -> String {
    switch result {
    case .success(.modified(let payload)): "modified(\(payload.bytes.count) bytes, \(payload.validators))"
    case .success(.notModified(let validators)): "notModified(\(validators))"
    case .failure(let error): describe(error)
    }
}

/// `FetchError(kind: transport, retry: retry with backoff, message: "…")`.
private func describe(_ error: FetchError) -> String {
    "FetchError(kind: \(error.kind), retry: \(error.retry), message: \"\(error.message)\")"
}
