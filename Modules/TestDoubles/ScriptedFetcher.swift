import ConfigDomain
import ConfigPorts
import Foundation

/// A fetcher that answers from a script: a first-in, first-out queue of steps, each optionally held until the test releases it.
///
/// A fetch records its request, then takes the next step. An empty script makes a fetch throw a
/// non-retryable `FetchError(.other, …)` saying "script exhausted", so an unexpected fetch fails loudly.
/// A fetch in an already-cancelled task throws ``FetchError/cancelled`` and takes no step; one
/// cancelled while held throws it promptly and uses up its step.
public final class ScriptedFetcher: ConfigFetcher {
    /// One scripted answer.
    public enum Step: Sendable, Hashable {
        /// Answer ``FetchResult/modified(_:)`` with this payload.
        case modified(FetchedPayload)
        /// Answer ``FetchResult/modified(_:)`` with the UTF-8 bytes of the JSON text and this ETag.
        case modifiedJSON(String, etag: String?)
        /// Answer ``FetchResult/notModified(_:)`` with these validators.
        case notModified(Validators = .none)
        /// Throw this error.
        case failure(FetchError)
    }

    private typealias Entry = (step: Step, hold: FetchHold?)

    private struct State {
        var script: [Entry] = []
        var requests: [FetchRequest] = []
        var fetchWaiters = CountWaiters()
    }

    private let state = Locked(State())
    private let source: String

    /// Creates a fetcher with an empty script; `.modifiedJSON` payloads say they come from `source`.
    public init(source: String = "scripted://config") { self.source = source }

    /// Appends `step` to the script.
    public func enqueue(_ step: Step) { enqueue([step]) }

    /// Appends each step to the script, in order.
    public func enqueue(_ steps: [Step]) {
        state.withLock { $0.script += steps.map { ($0, nil) } }
    }

    /// Appends `step` to the script, held: the fetch that takes it waits until the returned hold is released.
    public func enqueueHeld(_ step: Step) -> FetchHold {
        let hold = FetchHold()
        state.withLock { $0.script.append((step, hold)) }
        return hold
    }

    /// Every request received, in order.
    public var requests: [FetchRequest] { state.withLock { $0.requests } }

    /// How many fetches have started.
    public var fetchCount: Int { state.withLock { $0.requests.count } }

    /// How many steps are left in the script.
    public var remainingSteps: Int { state.withLock { $0.script.count } }

    /// Returns once at least `count` fetches have started, or when the waiting task is cancelled.
    public func waitForFetches(count: Int) async {
        let done = state.withLock { $0.fetchWaiters.waiter(for: count, current: $0.requests.count) }
        _ = await done?.wait()
    }

    /// Records `request`, then answers with the next step of the script.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        let (taken, ready) = state.withLock { state -> (Result<Entry, FetchError>, [Promise<Void>]) in
            state.requests.append(request)
            let ready = state.fetchWaiters.reached(state.requests.count)
            if Task.isCancelled { return (.failure(.cancelled), ready) }
            guard !state.script.isEmpty else {
                let message =
                    "ScriptedFetcher: script exhausted at fetch #\(state.requests.count); enqueue a step for every fetch the test expects"
                return (.failure(FetchError(.other, retry: .doNotRetry, message: message)), ready)
            }
            return (.success(state.script.removeFirst()), ready)
        }
        for waiter in ready { waiter.fulfill(()) }
        let (step, hold) = try taken.get()
        try await hold?.pass()
        switch step {
        case .modified(let payload): return .modified(payload)
        case .modifiedJSON(let json, let etag):
            return .modified(
                FetchedPayload(
                    bytes: Data(json.utf8), validators: Validators(etag: etag), contentType: "application/json",
                    source: source))
        case .notModified(let validators): return .notModified(validators)
        case .failure(let error): throw error
        }
    }
}
