import ConfigDomain
import Foundation

/// A gate a ``ScriptedFetcher`` step waits at, so a test decides exactly when an in-flight fetch completes.
///
/// ```swift
/// let hold = fetcher.enqueueHeld(.modifiedJSON(#"{"a":1}"#, etag: "v1"))
/// let refresh = Task { try await client.refresh() }
/// await hold.waitUntilReached()   // the fetch is now in flight
/// // … start concurrent callers, check single-flight …
/// hold.release()                  // the fetch answers
/// ```
///
/// Releasing before the fetch arrives lets it pass straight through. A hold is used by one fetch.
public final class FetchHold: Sendable {
    private enum Outcome {
        case released
        case cancelled
    }

    private struct State {
        var isReached = false
        var isReleased = false
        var held: CheckedContinuation<Outcome, Never>?
        var reachWaiters: [(id: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
        var nextID: UInt64 = 0
    }

    private let state = LockedState(State())

    /// Creates a hold for your own backend (a test server's handler calls ``suspendUntilReleased()``).
    ///
    /// ``InMemoryFetcher/holdNext()`` and ``ScriptedFetcher/enqueueHeld(_:)`` make theirs for you;
    /// wrap any hold in a ``ContractHold`` to drive the fetcher contract's in-flight cancellation check.
    public init() {}

    /// Whether a fetch has arrived at this hold.
    public var isReached: Bool { state.withLock { $0.isReached } }

    /// Whether ``release()`` was called.
    public var isReleased: Bool { state.withLock { $0.isReleased } }

    /// Lets the held fetch answer (or the coming one pass straight through). Calling it again does nothing.
    public func release() {
        let held = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
            state.isReleased = true
            defer { state.held = nil }
            return state.held
        }
        held?.resume(returning: .released)
    }

    /// Returns once a fetch is suspended at this hold (or was released through it), or when the waiting task is cancelled.
    public func waitUntilReached() async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = state.withLock { state -> Bool in
                    if state.isReached || Task.isCancelled { return true }
                    state.reachWaiters.append((id, continuation))
                    return false
                }
                if done { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.reachWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.reachWaiters.remove(at: index).continuation
            }
            waiter?.resume()
        }
    }

    /// Suspends the caller (a backend handling a request) until ``release()``, or until its task is cancelled.
    ///
    /// Marks the hold as reached first, so ``waitUntilReached()`` returns.
    public func suspendUntilReleased() async {
        try? await pass()
    }

    /// Suspends the calling fetch until ``release()``; throws ``FetchError/cancelled`` promptly if its task is cancelled.
    func pass() async throws(FetchError) {
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let (immediate, waiters) = state.withLock {
                    state -> (Outcome?, [CheckedContinuation<Void, Never>]) in
                    state.isReached = true
                    let waiters = state.reachWaiters.map(\.continuation)
                    state.reachWaiters.removeAll()
                    if Task.isCancelled { return (.cancelled, waiters) }
                    if state.isReleased { return (.released, waiters) }
                    state.held = continuation
                    return (nil, waiters)
                }
                for waiter in waiters { waiter.resume() }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            let held = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
                defer { state.held = nil }
                return state.held
            }
            held?.resume(returning: .cancelled)
        }
        if case .cancelled = outcome { throw .cancelled }
    }
}
