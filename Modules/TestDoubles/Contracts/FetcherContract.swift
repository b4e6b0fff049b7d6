import ConfigDomain
import ConfigPorts
import Foundation

/// The contract every ``ConfigFetcher`` must pass, as a suite you run against your own adapter.
///
/// You give a factory for the fetcher and hooks that drive its backend; each check gets a fresh
/// fetcher after the fault is cleared and ``firstPayload`` is served. Declare what your backend
/// cannot do in ``capabilities``: the checks that need it are reported as skipped.
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
        let seen = Locked<[Result<FetchResult, FetchError>]>([])
        let report = await CheckRunner.run(
            suite: "FetcherContract", subject: subject, capabilities: capabilities, timeLimit: timeLimit, skips: skips
        ) { (check: Check, progress) throws(ContractFailure) in
            progress.at("resetting the backend (setFault(nil), serve(firstPayload))")
            if let setFault { try await hook("setFault") { try await setFault(nil) } }
            try await hook("serve") { try await serve(Self.firstPayload) }
            progress.at("making the fetcher")
            let fetcher = try await hook("makeFetcher") { try await makeFetcher() }
            try await perform(check, FetcherContractSession(fetcher: fetcher, name: configurationName, seen: seen, progress: progress))
        }
        try? await setFault?(nil)  // Leave the backend healthy for whatever the test does next.
        return report
    }

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

    private func perform(_ check: Check, _ session: FetcherContractSession) async throws(ContractFailure) {
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

    var hasValidators: Bool { !capabilities.contains(.noValidators) }

    /// The faults the backend can be given, as declared: none, temporary, or both.
    var injectableFaults: [Fault] {
        guard setFault != nil, !capabilities.contains(.noFaultInjection) else { return [] }
        return capabilities.contains(.noPermanentFailure) ? [.temporary] : [.temporary, .permanent]
    }
}

/// One check's fetcher with the helpers that call it.
struct FetcherContractSession: Sendable {
    let fetcher: any ConfigFetcher
    let name: String
    /// Every result of the run, for the secret check.
    let seen: Locked<[Result<FetchResult, FetchError>]>
    let progress: CheckProgress

    func fetch(_ validators: Validators, _ what: String) async -> Result<FetchResult, FetchError> {
        progress.at(what)
        let result: Result<FetchResult, FetchError>
        do throws(FetchError) {
            result = .success(try await fetcher.fetch(FetchRequest(validators: validators, configurationName: name)))
        } catch {
            result = .failure(error)
        }
        seen.withLock { $0.append(result) }
        return result
    }

    /// An unconditional fetch in a task cancelled before it starts; `nil` if it did not end within `bound`.
    func fetchInCancelledTask(within bound: TimeInterval) async -> Result<FetchResult, FetchError>? {
        progress.at("fetching in an already-cancelled task")
        let task = Task { () -> Result<FetchResult, FetchError> in
            withUnsafeCurrentTask { $0?.cancel() }  // Cancelled before the fetch starts.
            return await fetch(.none, "a fetch in a cancelled task")
        }
        return await Watchdog.run(limit: bound) { await task.value }
    }

    func expectPayload(_ expected: Data, for validators: Validators, _ what: String) async throws(ContractFailure)
        -> FetchedPayload
    {
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

/// `modified(71 bytes, etag=…)`, `notModified(none)` or `FetchError(…)`.
func describe(_ result: Result<FetchResult, FetchError>) -> String {
    switch result {
    case .success(.modified(let payload)): "modified(\(payload.bytes.count) bytes, \(payload.validators))"
    case .success(.notModified(let validators)): "notModified(\(validators))"
    case .failure(let error): describe(error)
    }
}

/// `FetchError(kind: transport, retry: retry with backoff, message: "…")`.
func describe(_ error: FetchError) -> String {
    "FetchError(kind: \(error.kind), retry: \(error.retry), message: \"\(error.message)\")"
}
