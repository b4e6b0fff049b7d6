import ConfigDomain
import ConfigPorts
import Foundation

extension RemoteConfigClient {
    /// A view of the values after bringing every provider up to date as `policy` says, for `context`
    /// (nil: the client's own, or the calling task's request's with a context source). Never throws: a
    /// failed refresh keeps the last good values, and the failure reaches ``events()`` and ``status``.
    ///
    /// ```swift
    /// let config = await client.fetch()          // refreshes every provider whose snapshot is not fresh
    /// if config[Flags.newCheckout] { … }
    /// ```
    ///
    /// See `ReadPolicy` for fresh, stale, expired and no data. `.cacheOnly` leaves out the payloads of
    /// providers whose snapshot has expired, so their keys read from the layers below.
    public func fetch(_ policy: ReadPolicy = .refreshBeforeReturning, for context: EvaluationContext? = nil) async
        -> ConfigView
    {
        switch policy {
        case .immediate:
            return view(for: context)
        case .refreshBeforeReturning:
            _ = await refreshEach(force: false, onlyUnlessFresh: true)
            return view(for: context)
        case .immediateWithBackgroundRefresh:
            let now = view(for: context)
            for engine in engines { engine.refreshInBackgroundIfStale() }
            return now
        case .cacheOnly:
            let expired = engines.filter { $0.freshness() == .expired }.map(\.provider)
            let current = view(for: context)
            guard !expired.isEmpty else { return current }
            let state = cell.load()
            let unexpired = activator.resolver.resolve(
                sources: state.sources.withoutPayloads(of: expired), previous: nil, generation: state.generation, cause: nil)
            return ConfigView(client: self, state: unexpired.state, context: current.givenContext)
        }
    }

    /// Fetches now from every provider unless its scheduler holds it back; callers that arrive
    /// while a provider's fetch runs share it. Each provider activates its snapshot as soon as its
    /// own fetch is done: one failing or slow provider never holds back the others.
    ///
    /// - Parameter force: ignore the minimum fetch interval and backoff (a server's `Retry-After` still holds).
    /// - Returns: what the refresh did (with several providers, all of it: see ``RefreshResult``);
    ///   a skipped refresh is not an error.
    /// - Throws: `ConfigError` when every provider's fetch or decoding failed (the builder's own
    ///   fetcher's error first), or when a new payload offered the registered keys values and every
    ///   one was rejected (`.rejected`, the first of them). The last good values are kept.
    ///   ``status`` has each provider's outcome.
    @discardableResult
    public func refresh(force: Bool = false) async throws(ConfigError) -> RefreshResult {
        try await refreshEach(force: force, onlyUnlessFresh: false).get()
    }

    /// Applies the snapshots waiting for activation (manual or next-launch policy); nil when none waits.
    @discardableResult
    public func activate() async -> RefreshResult? {
        var results: [Result<RefreshResult, ConfigError>] = []
        for engine in engines {
            if let result = await engine.activatePending() { results.append(.success(result)) }
        }
        return results.isEmpty ? nil : try? RefreshResult.combining(results).get()
    }

    /// Refreshes every provider at once (with `onlyUnlessFresh`, those whose snapshot is not fresh)
    /// and combines their results; each provider activates its own snapshot when its fetch is done.
    ///
    /// Each provider's flight is joined or started here, when the caller calls: a caller that
    /// arrives while a fetch runs shares it, however late the scheduler runs what follows.
    func refreshEach(force: Bool, onlyUnlessFresh: Bool) async -> Result<RefreshResult, ConfigError> {
        let flights = engines.filter { !onlyUnlessFresh || $0.freshness() != .fresh }.map { $0.join(force: force) }
        guard !flights.isEmpty else { return .success(.unchanged) }
        var results: [Result<RefreshResult, ConfigError>] = []
        for flight in flights { results.append(await flight.value) }
        return RefreshResult.combining(results)
    }
}
