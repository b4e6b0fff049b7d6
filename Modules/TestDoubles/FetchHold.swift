import ConfigDomain

/// A gate that holds one in-flight fetch until the test releases it.
///
/// ```swift
/// let hold = fetcher.enqueueHeld(.modifiedJSON(#"{"a":1}"#, etag: "v1"))
/// let refresh = Task { try await client.refresh() }
/// await hold.waitUntilReached()   // the fetch is now in flight
/// hold.release()                  // the fetch answers
/// ```
///
/// Releasing before the fetch arrives lets it pass straight through.
public final class FetchHold: Sendable {
    private let reached = Promise<Void>()
    private let released = Promise<Void>()

    /// Creates a hold; a backend of your own calls ``suspendUntilReleased()`` in its request handler.
    public init() {}

    /// Whether a fetch has arrived at this hold.
    public var isReached: Bool { reached.isFulfilled }

    /// Whether ``release()`` was called.
    public var isReleased: Bool { released.isFulfilled }

    /// Lets the held fetch answer (or the coming one pass straight through). Calling it again does nothing.
    public func release() { released.fulfill(()) }

    /// Returns once a fetch has arrived at this hold, or when the waiting task is cancelled.
    public func waitUntilReached() async { _ = await reached.wait() }

    /// Marks the hold reached, then suspends the caller until ``release()`` or until its task is cancelled.
    public func suspendUntilReleased() async { try? await pass() }

    /// Marks the hold reached, then waits for ``release()``; throws ``FetchError/cancelled`` if the task is cancelled.
    func pass() async throws(FetchError) {
        reached.fulfill(())
        if Task.isCancelled { throw .cancelled }
        if await released.wait() == nil { throw .cancelled }
    }
}
