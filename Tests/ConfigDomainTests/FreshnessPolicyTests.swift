import ConfigDomain
import Foundation
import Testing

@Suite("FreshnessPolicy at every boundary")
struct FreshnessPolicyTests {
    /// ttl 100 s, then 50 s stale, 60 s of clock-skew tolerance.
    let policy = FreshnessPolicy(ttl: 100, maxStale: .seconds(50), clockSkewTolerance: 60)

    @Test(
        "with a 50 s stale window: fresh below ttl, stale from ttl, expired from ttl + maxStale",
        arguments: [
            (0, Freshness.fresh), (99.999, .fresh), (100, .stale), (100.001, .stale), (149.999, .stale), (150, .expired),
            (1e9, .expired),
        ] as [(TimeInterval, Freshness)])
    func secondsWindow(_ age: TimeInterval, expected: Freshness) {
        #expect(policy.freshness(age: age) == expected)
    }

    @Test(
        "with no stale window a snapshot is expired exactly at ttl",
        arguments: [(99.999, Freshness.fresh), (100, .expired)] as [(TimeInterval, Freshness)])
    func noWindow(_ age: TimeInterval, expected: Freshness) {
        #expect(FreshnessPolicy(ttl: 100, maxStale: .none).freshness(age: age) == expected)
    }

    @Test("a zero-second window behaves like no window")
    func zeroWindow() {
        let zero = FreshnessPolicy(ttl: 100, maxStale: .seconds(0))
        #expect(zero.freshness(age: 99.999) == .fresh)
        #expect(zero.freshness(age: 100) == .expired)
        #expect(zero.problem == nil)
    }

    @Test("with an unlimited window a snapshot past ttl stays stale forever", arguments: [100, 1e6, 1e15] as [TimeInterval])
    func unlimitedWindow(_ age: TimeInterval) {
        let unlimited = FreshnessPolicy(ttl: 100, maxStale: .unlimited)
        #expect(unlimited.freshness(age: 99.999) == .fresh)
        #expect(unlimited.freshness(age: age) == .stale)
    }

    @Test(
        "a clock that moved back within the tolerance counts as age zero; beyond it, the age is unknown: stale",
        arguments: [(-0.001, Freshness.fresh), (-59.999, .fresh), (-60, .fresh), (-60.001, .stale), (-1e9, .stale)]
            as [(TimeInterval, Freshness)])
    func negativeAge(_ age: TimeInterval, expected: Freshness) {
        #expect(policy.freshness(age: age) == expected)
    }

    @Test("with zero tolerance any negative age is stale")
    func zeroTolerance() {
        let strict = FreshnessPolicy(ttl: 100, maxStale: .none, clockSkewTolerance: 0)
        #expect(strict.freshness(age: -0.001) == .stale)
        #expect(strict.freshness(age: 0) == .fresh)
    }

    @Test("freshness from dates uses now - fetchedAt, including a clock that went backwards")
    func fromDates() {
        let fetched = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(policy.freshness(fetchedAt: fetched, now: fetched) == .fresh)
        #expect(policy.freshness(fetchedAt: fetched, now: fetched.addingTimeInterval(100)) == .stale)
        #expect(policy.freshness(fetchedAt: fetched, now: fetched.addingTimeInterval(150)) == .expired)
        #expect(policy.freshness(fetchedAt: fetched, now: fetched.addingTimeInterval(-30)) == .fresh)
        #expect(policy.freshness(fetchedAt: fetched, now: fetched.addingTimeInterval(-3600)) == .stale)
        #expect(policy.age(fetchedAt: fetched, now: fetched.addingTimeInterval(-5)) == -5)
    }

    @Test("staleAt and expiresAt are the boundaries freshness uses")
    func boundaries() throws {
        let fetched = Date(timeIntervalSince1970: 1_700_000_000)
        let staleAt = policy.staleAt(fetchedAt: fetched)
        let expiresAt = try #require(policy.expiresAt(fetchedAt: fetched))
        #expect(staleAt == fetched.addingTimeInterval(100))
        #expect(expiresAt == fetched.addingTimeInterval(150))
        #expect(policy.freshness(fetchedAt: fetched, now: staleAt) == .stale)
        #expect(policy.freshness(fetchedAt: fetched, now: expiresAt) == .expired)
        #expect(FreshnessPolicy(ttl: 100, maxStale: .none).expiresAt(fetchedAt: fetched) == fetched.addingTimeInterval(100))
        #expect(FreshnessPolicy(ttl: 100, maxStale: .unlimited).expiresAt(fetchedAt: fetched) == nil)
    }

    @Test(
        "a ttl that is not a positive finite number is a problem",
        arguments: [0, -1, .nan, .infinity, -.infinity] as [TimeInterval])
    func invalidTTL(_ ttl: TimeInterval) {
        let problem = FreshnessPolicy(ttl: ttl, maxStale: .none).problem
        #expect(problem?.kind == .invalidFreshness)
        #expect(problem?.message == "ttl must be a finite number of seconds greater than zero, got \(ttl)")
    }

    @Test(
        "a negative, NaN or infinite stale window is a problem that points to .none and .unlimited",
        arguments: [-1, .nan, .infinity] as [TimeInterval])
    func invalidMaxStale(_ seconds: TimeInterval) {
        let problem = FreshnessPolicy(ttl: 10, maxStale: .seconds(seconds)).problem
        #expect(
            problem
                == ConfigurationError(
                    .invalidFreshness,
                    "maxStale must be zero or more seconds, got \(seconds); use .none or .unlimited to mean those"))
    }

    @Test("a negative or NaN clock-skew tolerance is a problem", arguments: [-1, .nan] as [TimeInterval])
    func invalidTolerance(_ tolerance: TimeInterval) {
        let problem = FreshnessPolicy(ttl: 10, maxStale: .none, clockSkewTolerance: tolerance).problem
        #expect(problem == ConfigurationError(.invalidFreshness, "clockSkewTolerance must be zero or more seconds"))
    }

    @Test("valid policies, including the standard one, have no problem")
    func validPolicies() {
        #expect(FreshnessPolicy.standard.problem == nil)
        #expect(FreshnessPolicy.standard.ttl == 12 * 3600)
        #expect(FreshnessPolicy.standard.maxStale == .seconds(7 * 24 * 3600))
        #expect(FreshnessPolicy(ttl: 0.001, maxStale: .unlimited, clockSkewTolerance: 0).problem == nil)
        #expect(policy.problem == nil)
    }

    @Test("read and activation policies list their cases; freshness describes itself")
    func policyEnums() {
        #expect(ReadPolicy.allCases == [.immediate, .refreshBeforeReturning, .immediateWithBackgroundRefresh, .cacheOnly])
        #expect(ActivationPolicy.allCases == [.immediate, .nextLaunch, .manual])
        #expect([Freshness.fresh, .stale, .expired].map(\.description) == ["fresh", "stale", "expired"])
    }
}
