/// A request held in flight by the backend a contract drives, so the suite can cancel a fetch the backend has not answered.
public struct ContractHold: Sendable {
    /// Returns once the fetch's request has reached the backend and is held there.
    public var waitUntilReached: @Sendable () async -> Void
    /// Lets the held request answer (called by the suite when the check is done, to clean up).
    public var release: @Sendable () async -> Void

    /// Creates a hold from your own server's signalling.
    public init(
        waitUntilReached: @escaping @Sendable () async -> Void, release: @escaping @Sendable () async -> Void
    ) {
        self.waitUntilReached = waitUntilReached
        self.release = release
    }

    /// Wraps a hold from ``InMemoryFetcher/holdNext()`` or ``ScriptedFetcher/enqueueHeld(_:)``.
    public init(_ hold: FetchHold) {
        self.init(waitUntilReached: { await hold.waitUntilReached() }, release: { hold.release() })
    }
}
