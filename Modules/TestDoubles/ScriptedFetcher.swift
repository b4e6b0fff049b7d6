import ConfigDomain
import ConfigPorts
import Foundation

/// A fetcher that answers from a script: a first-in, first-out queue of steps, each optionally held until the test releases it.
///
/// Each call to ``fetch(_:)`` records its request, then takes the next step and answers with it.
/// A step enqueued with ``enqueueHeld(_:)`` makes its fetch wait until ``FetchHold/release()``,
/// so concurrency tests are deterministic without sleeps. ``waitForFetches(count:)`` tells a test
/// that the code under test has called the fetcher.
///
/// - When the script is empty, a fetch throws
///   `FetchError(.other, retry: .doNotRetry, message: "ScriptedFetcher: script exhausted …")`
///   (the message says how many fetches were made), so an unexpected fetch fails loudly.
/// - A fetch whose task is already cancelled throws ``FetchError/cancelled`` and takes no step.
/// - A fetch cancelled while held throws ``FetchError/cancelled`` promptly; its step is used up.
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

    private struct Entry {
        let step: Step
        let hold: FetchHold?
    }

    private struct FetchWaiter {
        let id: UInt64
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var script: [Entry] = []
        var requests: [FetchRequest] = []
        var waiters: [FetchWaiter] = []
        var nextID: UInt64 = 0
    }

    private let state = LockedState(State())
    private let source: String

    /// Creates a fetcher with an empty script; `.modifiedJSON` payloads say they come from `source`.
    public init(source: String = "scripted://config") { self.source = source }

    /// Appends `step` to the script.
    public func enqueue(_ step: Step) {
        state.withLock { $0.script.append(Entry(step: step, hold: nil)) }
    }

    /// Appends each step to the script, in order.
    public func enqueue(_ steps: [Step]) {
        state.withLock { $0.script += steps.map { Entry(step: $0, hold: nil) } }
    }

    /// Appends `step` to the script, held: the fetch that takes it waits until the returned hold is released.
    public func enqueueHeld(_ step: Step) -> FetchHold {
        let hold = FetchHold()
        state.withLock { $0.script.append(Entry(step: step, hold: hold)) }
        return hold
    }

    /// Every request received, in order.
    public var requests: [FetchRequest] { state.withLock { $0.requests } }

    /// How many fetches have started.
    public var fetchCount: Int { state.withLock { $0.requests.count } }

    /// How many steps are left in the script.
    public var remainingSteps: Int { state.withLock { $0.script.count } }

    /// Returns once at least `count` fetches have started (or when the waiting task is cancelled).
    public func waitForFetches(count: Int) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = state.withLock { state -> Bool in
                    if state.requests.count >= count || Task.isCancelled { return true }
                    state.waiters.append(FetchWaiter(id: id, count: count, continuation: continuation))
                    return false
                }
                if done { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> FetchWaiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume()
        }
    }

    /// Records `request`, then answers with the next step of the script.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResult {
        let (taken, ready) = state.withLock { state -> (Result<Entry, FetchError>, [FetchWaiter]) in
            state.requests.append(request)
            let count = state.requests.count
            let ready = state.waiters.filter { $0.count <= count }
            state.waiters.removeAll { $0.count <= count }
            if Task.isCancelled { return (.failure(.cancelled), ready) }
            guard !state.script.isEmpty else {
                let message =
                    "ScriptedFetcher: script exhausted at fetch #\(count); enqueue a step for every fetch the test expects"
                return (.failure(FetchError(.other, retry: .doNotRetry, message: message)), ready)
            }
            return (.success(state.script.removeFirst()), ready)
        }
        for waiter in ready { waiter.continuation.resume() }
        let entry = try taken.get()
        if let hold = entry.hold { try await hold.pass() }
        switch entry.step {
        case .modified(let payload):
            return .modified(payload)
        case .modifiedJSON(let json, let etag):
            return .modified(
                FetchedPayload(
                    bytes: Data(json.utf8), validators: Validators(etag: etag), contentType: "application/json",
                    source: source))
        case .notModified(let validators):
            return .notModified(validators)
        case .failure(let error):
            throw error
        }
    }
}
