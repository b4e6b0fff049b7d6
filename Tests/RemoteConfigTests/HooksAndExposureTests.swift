import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

/// Hooks around evaluations, exposure events and `track`.
@Suite("Hooks, exposures and tracking")
struct HooksAndExposureTests {
    typealias Fixture = ContextPerCallTests

    /// Records every call, and can add to the context or throw.
    final class RecordingHook: EvaluationHook {
        let name: String
        let calls: Locked<[String]>
        let adds: EvaluationContext?
        let throwsInAfter: Bool
        init(_ name: String, calls: Locked<[String]>, adds: EvaluationContext? = nil, throwsInAfter: Bool = false) {
            (self.name, self.calls, self.adds, self.throwsInAfter) = (name, calls, adds, throwsInAfter)
        }
        struct Refused: Error {}
        func before(_ hook: HookContext) throws -> EvaluationContext? {
            calls.withLock { $0.append("\(name).before \(hook.key) \(hook.valueType)") }
            return adds
        }
        func after<Value>(_ hook: HookContext, details: EvaluationDetails<Value>) throws {
            calls.withLock { $0.append("\(name).after \(details.value) \(details.reason.rawValue)") }
            if throwsInAfter { throw Refused() }
        }
        func error(_ hook: HookContext, error: any Error) {
            calls.withLock { $0.append("\(name).error \(error is Refused ? "refused" : "\(error)")") }
        }
        func finally<Value>(_ hook: HookContext, details: EvaluationDetails<Value>) {
            calls.withLock { $0.append("\(name).finally \(details.value)") }
        }
    }

    /// A key the payload has no rules for.
    static let plain = ConfigKey("plain", default: 0)

    func client(hooks: [any EvaluationHook] = [], exposures: Bool = false, observer: RecordingObserver? = nil) async throws
        -> RemoteConfigClient
    {
        var builder = RemoteConfigBuilder.testing(
            fetcher: InMemoryFetcher(json: Fixture.json), clock: ManualClock(), keys: Fixture.keys + [Self.plain]
        )
        .payloadFormat(Fixture.CountryFormat()).context(Fixture.context("u1", "DE")).reportingExposures(exposures)
        for hook in hooks { builder = builder.hook(hook) }
        if let observer { builder = builder.observer(observer) }
        let client = try builder.build()
        try await client.refresh()
        return client
    }

    @Test("hooks run before in order, then after and finally in reverse; before may add to the context")
    func order() async throws {
        let calls = Locked<[String]>([])
        let client = try await client(hooks: [
            RecordingHook("a", calls: calls),
            RecordingHook("b", calls: calls, adds: EvaluationContext(attributes: ["country": "SE"])),
        ])
        #expect(client[Fixture.color] == "green", "b's before moved the evaluation to SE")
        #expect(
            calls.withLock { $0 } == [
                "a.before button_color String", "b.before button_color String", "b.after green TARGETING_MATCH",
                "a.after green TARGETING_MATCH", "b.finally green", "a.finally green",
            ])
        #expect(client.context == Fixture.context("u1", "DE"), "a hook's addition never changes the client's context")
    }

    @Test("a hook that throws makes the read return the key's default with ERROR GENERAL, and error hooks run")
    func throwingHook() async throws {
        let calls = Locked<[String]>([])
        let client = try await client(hooks: [
            RecordingHook("a", calls: calls), RecordingHook("b", calls: calls, throwsInAfter: true),
        ])
        let details = client.details(Fixture.checkout, for: Fixture.context("u1", "DE"))
        #expect(details.value == false)
        #expect(details.reason == .error)
        #expect(details.errorCode == .general)
        #expect(details.errorMessage?.contains("a hook threw") == true)
        #expect(calls.withLock { $0 }.suffix(4) == ["b.error refused", "a.error refused", "b.finally false", "a.finally false"])
    }

    @Test("an evaluation that ends in an error runs the error hooks with its code")
    func evaluationError() async throws {
        let calls = Locked<[String]>([])
        let client = try await client(hooks: [RecordingHook("a", calls: calls)])
        #expect(client[ConfigKey("missing_flag", default: 4), for: .empty] == 4)
        #expect(calls.withLock { $0 }.contains { $0.hasPrefix("a.error FLAG_NOT_FOUND") })
    }

    @Test("an exposure is reported once per key, variant and targeting key, only for values a rule decided, off the read")
    func exposures() async throws {
        let observer = RecordingObserver()
        let client = try await client(exposures: true, observer: observer)
        for _ in 0..<50 { #expect(client[Fixture.checkout] == true) }
        for _ in 0..<5 { #expect(client[Fixture.checkout, for: Fixture.context("u2", "AT")] == true) }
        #expect(client[Fixture.checkout, for: Fixture.context("u3", "FR")] == false, "a default is no exposure")
        #expect(client[Fixture.color, for: Fixture.context("u2", "NO")] == "green")
        client.track("checkout_completed", value: 42.5)
        _ = await observer.waitFor { if case .tracked = $0 { true } else { false } }
        // Exposures are delivered in the order they were read, so the last one's arrival means all arrived.
        _ = await observer.waitFor { if case .exposure(let exposure) = $0 { exposure.key == "button_color" } else { false } }
        let exposures = observer.events.compactMap { event -> Exposure? in if case .exposure(let e) = event { e } else { nil } }
        #expect(
            exposures.map(\.description).sorted() == [
                "button_color = \"green\" (variant green, TARGETING_MATCH by rule \"nordics\") for u2",
                "new_checkout = true (TARGETING_MATCH by rule \"dach\") for u1",
                "new_checkout = true (TARGETING_MATCH by rule \"dach\") for u2",
            ])
        let tracked = observer.events.compactMap { event -> TrackedEvent? in if case .tracked(let e) = event { e } else { nil } }
        #expect(tracked == [TrackedEvent(name: "checkout_completed", value: 42.5, context: Fixture.context("u1", "DE"))])
    }

    @Test("without hooks or exposures a client installs no read interception; with them, only targeted keys use it")
    func plain() async throws {
        #expect(try await client().interception == nil)
        let exposing = try await client(exposures: true)
        #expect(exposing.interception?.exposures != nil)
        let hooked = try await client(hooks: [RecordingHook("a", calls: Locked([]))])
        #expect(hooked.interception?.hooks.count == 1)
        for client in [exposing, hooked] {
            let state = client.cell.load()
            let targeted = try #require(client.registry.slot(named: "new_checkout"))
            #expect(!state.isPlain(targeted), "a key the payload targets is read through the interception")
            let untargeted = try #require(client.registry.slot(named: "plain"))
            #expect(state.isPlain(untargeted), "a key no payload targets is the plain read, whatever is installed")
        }
    }
}
