import Foundation

/// The freshness model: a TTL, a stale window, and how to treat a clock that moved backwards.
///
/// With `age = now - fetchedAt`, intervals are half-open:
/// - `fresh` when `0 <= age < ttl`
/// - `stale` when `ttl <= age < ttl + maxStale` (and for every `age >= ttl` with ``StaleWindow/unlimited``)
/// - `expired` when `age >= ttl + maxStale` (or `age >= ttl` with ``StaleWindow/none``)
///
/// A negative age means the clock moved backwards since the fetch. Within
/// ``clockSkewTolerance`` it counts as age zero (fresh). Beyond it the real age is unknown,
/// so the snapshot is `stale`: still served, but refreshed.
///
/// A snapshot with a signed expiry (``SnapshotMetadata/signedExpiresAt``) is also `expired` from
/// that instant on, whatever its age: it expires at the earlier of the two
/// (``freshness(of:now:)``, ``expiresAt(of:)``).
public struct FreshnessPolicy: Sendable, Hashable {
    /// Seconds a snapshot stays fresh. Must be greater than zero.
    public var ttl: TimeInterval
    /// How long past the TTL a snapshot may be served as stale.
    public var maxStale: StaleWindow
    /// How far in the future a fetch time may lie before it is distrusted, in seconds.
    public var clockSkewTolerance: TimeInterval

    /// Creates a policy. ``problem`` tells whether it is valid; the builder refuses invalid ones.
    public init(ttl: TimeInterval, maxStale: StaleWindow, clockSkewTolerance: TimeInterval = 60) {
        self.ttl = ttl
        self.maxStale = maxStale
        self.clockSkewTolerance = clockSkewTolerance
    }

    /// Twelve hours fresh, then seven days stale: suits most apps.
    public static let standard = FreshnessPolicy(ttl: 12 * 3600, maxStale: .seconds(7 * 24 * 3600))

    /// Why this policy is invalid, or `nil` when it is valid.
    public var problem: ConfigurationError? {
        if !(ttl > 0) || !ttl.isFinite {
            return ConfigurationError(.invalidFreshness, "ttl must be a finite number of seconds greater than zero, got \(ttl)")
        }
        if case .seconds(let s) = maxStale, !(s >= 0) || !s.isFinite {
            return ConfigurationError(
                .invalidFreshness, "maxStale must be zero or more seconds, got \(s); use .none or .unlimited to mean those")
        }
        if !(clockSkewTolerance >= 0) {
            return ConfigurationError(.invalidFreshness, "clockSkewTolerance must be zero or more seconds")
        }
        return nil
    }

    /// The age of a snapshot fetched at `fetchedAt`, seen at `now` (negative if the clock moved back).
    public func age(fetchedAt: Date, now: Date) -> TimeInterval { now.timeIntervalSince(fetchedAt) }

    /// The freshness of a snapshot fetched at `fetchedAt`, seen at `now`.
    public func freshness(fetchedAt: Date, now: Date) -> Freshness {
        freshness(age: age(fetchedAt: fetchedAt, now: now))
    }

    /// The freshness of a snapshot of the given age in seconds.
    public func freshness(age: TimeInterval) -> Freshness {
        if age < 0 {
            return -age <= clockSkewTolerance ? .fresh : .stale
        }
        if age < ttl { return .fresh }
        switch maxStale {
        case .none: return .expired
        case .unlimited: return .stale
        case .seconds(let window): return age < ttl + window ? .stale : .expired
        }
    }

    /// When a snapshot fetched at `fetchedAt` stops being fresh.
    public func staleAt(fetchedAt: Date) -> Date { fetchedAt.addingTimeInterval(ttl) }

    /// The freshness of a snapshot with `metadata`, seen at `now`: by its age, and `expired` from its signed expiry on.
    public func freshness(of metadata: SnapshotMetadata, now: Date) -> Freshness {
        if let signed = metadata.signedExpiresAt, now >= signed { return .expired }
        return freshness(fetchedAt: metadata.fetchedAt, now: now)
    }

    /// When a snapshot with `metadata` expires: the earlier of its age-based expiry and its signed one; nil if never.
    public func expiresAt(of metadata: SnapshotMetadata) -> Date? {
        let byAge = expiresAt(fetchedAt: metadata.fetchedAt)
        guard let signed = metadata.signedExpiresAt else { return byAge }
        return byAge.map { min($0, signed) } ?? signed
    }

    /// Why a snapshot with `metadata` is expired at `now`, for a person; nil when it is not expired.
    ///
    /// `the signed expiry passed at 2026-12-15T00:00:00Z` when its signed expiry expired it, otherwise
    /// `the snapshot has expired` (past its TTL and stale window).
    public func expiryReason(of metadata: SnapshotMetadata, now: Date) -> String? {
        guard freshness(of: metadata, now: now) == .expired else { return nil }
        guard let signed = metadata.signedExpiresAt, now >= signed else { return "the snapshot has expired" }
        return "the signed expiry passed at \(signed.formatted(Date.ISO8601FormatStyle()))"
    }

    /// When a snapshot fetched at `fetchedAt` expires, or `nil` if it never does.
    public func expiresAt(fetchedAt: Date) -> Date? {
        switch maxStale {
        case .none: fetchedAt.addingTimeInterval(ttl)
        case .unlimited: nil
        case .seconds(let window): fetchedAt.addingTimeInterval(ttl + window)
        }
    }
}
