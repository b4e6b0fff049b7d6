import ConfigDomain
import ConfigPorts
import Foundation
import TestDoubles
import Testing

@testable import RemoteConfig

/// Reads for a context given with the call: a server's request, with its own user.
@Suite("Evaluation for a context given with the call")
struct ContextPerCallTests {
    static let checkout = ConfigKey("new_checkout", default: false)
    static let color = ConfigKey("button_color", default: "gray")
    static let retries = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
    static let keys: [any ConfigKeyRepresentable] = [checkout, color, retries]

    /// `new_checkout` is true in DE and AT; `button_color` is green in the Nordics; `max_retries`
    /// is 7 for targeting keys of even length, else the payload's plain value.
    struct CountryRules: TargetingRules {
        let key: String
        func evaluate(in context: EvaluationContext, explaining: Bool) -> TargetingDecision {
            let country = context.attributes["country"]?.stringValue
            switch key {
            case "new_checkout" where ["DE", "AT"].contains(country ?? ""):
                return TargetingDecision(
                    value: true, match: TargetingMatch(ruleID: "dach", kind: .rule), attributesRead: ["country"])
            case "button_color" where ["SE", "NO", "DK", "FI"].contains(country ?? ""):
                return TargetingDecision(
                    value: "green", match: TargetingMatch(ruleID: "nordics", kind: .rule, variant: "green"),
                    attributesRead: ["country"])
            case "max_retries":
                guard let id = context.targetingKey else { return .noMatch(attributesRead: ["targetingKey"]) }
                let bucket = BucketPlacement(attribute: "targetingKey", value: Double(id.count % 2), lower: 0, upper: 1)
                guard id.count % 2 == 0 else {
                    return .noMatch(unmatched: [UnmatchedRule(ruleID: "even", reason: .outsideRollout(bucket))])
                }
                return TargetingDecision(
                    value: 7, match: TargetingMatch(ruleID: "even", kind: .rollout, bucket: bucket, variant: "1"))
            default:
                return .noMatch(attributesRead: ["country"])
            }
        }
    }

    /// Plain JSON values, with `CountryRules` for every key the payload has.
    struct CountryFormat: PayloadFormat {
        let name = "country"
        func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
            let values = try PlainJSONFormat().decode(bytes).values
            var rules: [String: any TargetingRules] = [:]
            for key in values.keys where key != "plain" { rules[key] = CountryRules(key: key) }
            return DecodedPayload(values: values, rules: rules)
        }
    }

    static let json = #"{"new_checkout": false, "button_color": "blue", "max_retries": 2, "plain": 1}"#

    /// What the rules give a user, worked out apart from the client.
    static func expected(_ context: EvaluationContext) -> (checkout: Bool, color: String, retries: Int) {
        let country = context.attributes["country"]?.stringValue ?? ""
        return (
            ["DE", "AT"].contains(country), ["SE", "NO", "DK", "FI"].contains(country) ? "green" : "blue",
            (context.targetingKey?.count ?? 1) % 2 == 0 ? 7 : 2
        )
    }

    static func client(
        json: String = ContextPerCallTests.json, context: EvaluationContext = EvaluationContext(attributes: ["country": "US"]),
        source: (any EvaluationContextSource)? = nil, overrides: [String: OverrideValue.Content] = [:]
    ) async throws -> RemoteConfigClient {
        var builder = RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: json), clock: ManualClock(), keys: keys)
            .payloadFormat(CountryFormat()).context(context)
        if let source { builder = builder.contextSource(source) }
        if !overrides.isEmpty { builder = builder.override(InMemoryOverrideSource(name: "debug", values: overrides)) }
        let client = try builder.build()
        try await client.refresh()
        return client
    }

    static func context(_ id: String, _ country: String) -> EvaluationContext {
        EvaluationContext(targetingKey: id, attributes: ["country": .string(country)])
    }

    @Test("each call evaluates the rules for its own context, and the client's context and state stay as they were")
    func perCall() async throws {
        let client = try await Self.client()
        let generation = client.status.generation
        #expect(client[Self.checkout, for: Self.context("u1", "DE")] == true)
        #expect(client[Self.checkout, for: Self.context("u1", "FR")] == false)
        #expect(client[Self.color, for: Self.context("u1", "SE")] == "green")
        #expect(client[Self.retries, for: Self.context("u123", "SE")] == 7)
        #expect(client[Self.retries, for: Self.context("u12", "SE")] == 2)
        #expect(client[Self.checkout] == false)
        #expect(client[Self.color] == "blue")
        #expect(client.context == EvaluationContext(attributes: ["country": "US"]))
        #expect(client.status.generation == generation)
    }

    @Test("an unregistered key is evaluated for the context with its own default, and reported once")
    func unregistered() async throws {
        let client = try await Self.client()
        let events = client.events()
        let other = ConfigKey("new_checkout", default: true, summary: "another definition")
        #expect(client[other, for: Self.context("u1", "AT")] == true)
        #expect(client[other, for: Self.context("u1", "FR")] == false)
        var iterator = events.makeAsyncIterator()
        var mismatch = false
        while let event = await iterator.next() {
            if case .keyDefinitionMismatch(let name, _, _) = event { mismatch = name == "new_checkout"; break }
        }
        #expect(mismatch)
    }

    @Test("a value a key's rule refuses for one context falls back to the key's last good value")
    func refusedFallsBack() async throws {
        struct TooMany: TargetingRules {
            func evaluate(in context: EvaluationContext, explaining: Bool) -> TargetingDecision {
                context.targetingKey == "greedy"
                    ? TargetingDecision(value: 99, match: TargetingMatch(ruleID: "greedy", kind: .rule)) : .noMatch()
            }
        }
        struct Format: PayloadFormat {
            let name = "too-many"
            func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
                DecodedPayload(values: ["max_retries": 4], rules: ["max_retries": TooMany()])
            }
        }
        let client = try RemoteConfigBuilder.testing(fetcher: InMemoryFetcher(json: "{}"), clock: ManualClock(), keys: Self.keys)
            .payloadFormat(Format()).build()
        try await client.refresh()
        #expect(client[Self.retries, for: EvaluationContext(targetingKey: "greedy")] == 4)
        let details = client.details(Self.retries, for: EvaluationContext(targetingKey: "greedy"))
        #expect(details.reason == .cached)
        #expect(details.rejected.map(\.rule) == ["range(0...10)"])
        #expect(
            client.details(Self.retries, for: EvaluationContext(targetingKey: "greedy")).layer.description.hasPrefix("last good"))
    }

    @Test("an override wins for every context")
    func overrideWins() async throws {
        let client = try await Self.client(overrides: ["new_checkout": .text("true")])
        #expect(client[Self.checkout, for: Self.context("u1", "FR")] == true)
        let details = client.details(Self.checkout, for: Self.context("u1", "FR"))
        #expect(details.reason == .staticValue)
        #expect(details.layer.isOverride)
    }

    @Test(
        "many tasks evaluate at once: every answer is the rules' answer for its context, the app's reads never move, no update is sent"
    )
    func concurrent() async throws {
        let client = try await Self.client()
        let events = client.events()
        let generation = client.status.generation
        let countries = ["DE", "AT", "SE", "NO", "FR", "US", "FI", "JP"]
        let seed: UInt64 = 31
        print("ContextPerCallTests.concurrent seed \(seed)")
        let wrong = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var random = SeededRandom(seed: seed &+ UInt64(worker))
                    var wrong = 0
                    for _ in 0..<2_000 {
                        let id = String(repeating: "u", count: Int.random(in: 1...6, using: &random))
                        let context = Self.context(id, countries.randomElement(using: &random) ?? "US")
                        let expected = Self.expected(context)
                        if client[Self.checkout, for: context] != expected.checkout { wrong += 1 }
                        if client[Self.color, for: context] != expected.color { wrong += 1 }
                        if client[Self.retries, for: context] != expected.retries { wrong += 1 }
                    }
                    return wrong
                }
            }
            for _ in 0..<2 {
                group.addTask {
                    // The app's own reads, beside the servers' evaluations: always the US answers.
                    var wrong = 0
                    for _ in 0..<4_000 where client[Self.checkout] != false || client[Self.color] != "blue" { wrong += 1 }
                    return wrong
                }
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
        await client.stop()
        #expect(await events.activationCount() == 0)
        #expect(client.status.generation == generation)
        #expect(client.context == EvaluationContext(attributes: ["country": "US"]))
    }

    @Test("details say which variant and why, for each layer and each error")
    func details() async throws {
        let client = try await Self.client()
        let dach = client.details(Self.checkout, for: Self.context("u1", "DE"))
        #expect(dach.value == true)
        #expect(dach.reason == .targetingMatch)
        #expect(dach.decision?.match?.ruleID == "dach")
        let nordics = client.details(Self.color, for: Self.context("u1", "SE"))
        #expect(nordics.variant == "green")
        let split = client.details(Self.retries, for: Self.context("u123", "SE"))
        #expect(split.reason == .split)
        #expect(split.variant == "1")
        let fallback = client.details(Self.checkout, for: Self.context("u1", "FR"))
        #expect(fallback.reason == .defaultValue)
        #expect(fallback.value == false)
        #expect(fallback.errorCode == nil)
        #expect(client.details(Self.checkout).reason == .defaultValue)

        let missing = client.details(ConfigKey("no_such_flag", default: 5), for: Self.context("u1", "DE"))
        #expect(missing.value == 5)
        #expect(missing.reason == .error)
        #expect(missing.errorCode == .flagNotFound)

        let wrongType = client.details(ConfigKey("button_color", default: 1), for: Self.context("u1", "DE"))
        #expect(wrongType.value == 1)
        #expect(wrongType.errorCode == .typeMismatch)
        #expect(wrongType.errorMessage?.contains("button_color") == true)

        let plain = client.details(ConfigKey("plain", default: 0), for: .empty)
        #expect(plain.reason == .staticValue)
        #expect(plain.value == 1)
    }

    @Test("before any payload, details say the provider is not ready")
    func notReady() throws {
        let client = try RemoteConfigBuilder.testing(
            fetcher: InMemoryFetcher(json: Self.json), clock: ManualClock(), keys: Self.keys
        )
        .payloadFormat(CountryFormat()).build()
        let details = client.details(Self.checkout, for: Self.context("u1", "DE"))
        #expect(details.value == false)
        #expect(details.errorCode == .providerNotReady)
    }

    @Test("explain for a context names the rule, the attributes read and the context")
    func explain() async throws {
        let client = try await Self.client()
        let explanation = client.details(Self.checkout, for: Self.context("u1", "AT"))
        #expect(explanation.value == true)
        #expect(explanation.decision?.match?.ruleID == "dach")
        #expect(explanation.context == Self.context("u1", "AT"))
        #expect(explanation.description.contains("for context targetingKey=u1 country=\"AT\""))
        #expect(client.details(Self.checkout).context == client.context, "without one given, the client's own")
    }

    /// The request's context, as a server's middleware sets it (here a task-local of the test's own).
    struct RequestContext: EvaluationContextSource {
        @TaskLocal static var current: EvaluationContext?
        var currentContext: EvaluationContext? { Self.current }
    }

    @Test("with a context source, plain reads inside a request evaluate for the request's context")
    func contextSource() async throws {
        let client = try await Self.client(source: RequestContext())
        #expect(client[Self.checkout] == false)
        RequestContext.$current.withValue(Self.context("u1", "DE")) {
            #expect(client[Self.checkout] == true)
            #expect(client[Self.checkout] == true)
            #expect(client.view()[Self.checkout] == true)
            #expect(client.details(Self.checkout).decision?.match?.ruleID == "dach")
            #expect(client.details(Self.checkout).reason == .targetingMatch)
        }
        await RequestContext.$current.withValue(Self.context("u2", "SE")) {
            let color = await Task { client[Self.color] }.value
            #expect(color == "green")
        }
        #expect(client.view(for: Self.context("u3", "AT"))[Self.checkout] == true)
        #expect(client[Self.color] == "blue")
    }
}

/// A small seeded generator (SplitMix64), so a failing run can be repeated from its printed seed.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
