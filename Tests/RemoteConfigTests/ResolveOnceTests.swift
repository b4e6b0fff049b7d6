import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

/// Each payload is resolved once: a 304 resolves nothing, and a manual activation swaps in what its preview resolved.
@Suite("Resolving once")
struct ResolveOnceTests {
    /// Rules that count their evaluations and serve `value`.
    private final class CountingRules: TargetingRules, Sendable {
        let value: ConfigValue
        let count = Locked(0)
        init(_ value: ConfigValue) { self.value = value }
        func evaluate(in context: EvaluationContext, explaining: Bool) -> TargetingDecision {
            count.withLock { $0 += 1 }
            return TargetingDecision(value: value, match: TargetingMatch(ruleID: "r", kind: .rule))
        }
    }

    /// A format whose every payload serves `max_retries` through `rules`.
    private struct CountingFormat: PayloadFormat {
        let rules: CountingRules
        let name = "counting"
        func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
            DecodedPayload(values: [:], rules: ["max_retries": rules])
        }
    }

    @Test("a 304 renews freshness without a new state, an update or a rule evaluation")
    func notModifiedResolvesNothing() async throws {
        let clock = ManualClock()
        let rules = CountingRules(7)
        let fetcher = InMemoryFetcher(json: "{}")
        let client = try RemoteConfigBuilder.testing(fetcher: fetcher, clock: clock)
            .payloadFormat(CountingFormat(rules: rules)).build()
        try await client.refresh()
        #expect(client[Keys.retries] == 7)
        let (generation, evaluations) = (client.status.generation, rules.count.current)
        let events = client.events()
        clock.advance(by: 4000)
        #expect(try await client.refresh(force: true) == .unchanged)
        #expect(client.status.freshness == .fresh)
        #expect(client.status.snapshot?.fetchedAt == clock.now())
        #expect(client.status.generation == generation)
        #expect(rules.count.current == evaluations)
        await client.stop()
        #expect(await events.activationCount() == 0)
    }

    @Test("manual activation activates the state its preview resolved: the rules are evaluated once")
    func manualActivationResolvesOnce() async throws {
        let rules = CountingRules(8)
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock())
            .payloadFormat(CountingFormat(rules: rules)).activation(.manual).build()
        #expect(try await client.refresh() == .pendingActivation(changedKeys: ["max_retries"]))
        let afterPreview = rules.count.current
        #expect(afterPreview == 1)
        #expect(await client.activate() == .updated(changedKeys: ["max_retries"]))
        #expect(rules.count.current == afterPreview)
        #expect(client[Keys.retries] == 8)
    }

    @Test("when another activation came between the preview and activate(), the payload is resolved again, correctly")
    func activationAfterAnotherChange() async throws {
        let rules = CountingRules(8)
        let overrides = InMemoryOverrideSource()
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock())
            .payloadFormat(CountingFormat(rules: rules)).activation(.manual).override(overrides).build()
        _ = try await client.refresh()
        var values = client.watch(Keys.title).makeAsyncIterator()
        #expect(await values.next() == "Welcome")
        overrides.set("title", .text("Overridden"))
        #expect(await values.next() == "Overridden")
        _ = await client.activate()
        #expect(rules.count.current == 2)
        #expect(client[Keys.retries] == 8)
        #expect(client[Keys.title] == "Overridden")
    }
}
