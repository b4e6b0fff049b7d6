import ConfigCatFormat
import ConfigDomain
import ConfigPorts
import Foundation
import RemoteConfig
import TestDoubles
import Testing

/// ConfigCat's config read through a client, the format's recognition of its documents, and the
/// warnings `lint()` gives for what would fail an evaluation.
@Suite("ConfigCat through a client")
struct ClientTests {
    static let config = #"""
        {"p": {"u": "https://cdn-global.configcat.com", "r": 0, "s": "salt"},
         "f": {"maxItems": {"t": 2, "v": {"i": 10}, "i": "ten",
                            "r": [{"c": [{"u": {"a": "Country", "c": 0, "l": ["DE"]}}], "s": {"v": {"i": 25}, "i": "de"}}]},
               "greeting": {"t": 1, "v": {"s": "Hello"}}}}
        """#
    static let maxItems = ConfigKey("maxItems", default: 1)
    static let greeting = ConfigKey("greeting", default: "Hi")

    @Test("a client serves each context the value the format's rules decide, and details say why")
    func client() async throws {
        let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: Self.config))
            .payloadFormat(ConfigCatFormat())
            .register(Self.maxItems, Self.greeting)
            .build()
        try await client.refresh()
        let german = EvaluationContext(targetingKey: "u1", attributes: ["country": "DE"])
        #expect(client[Self.maxItems, for: german] == 25)
        #expect(client[Self.maxItems, for: EvaluationContext(targetingKey: "u1")] == 10)
        #expect(client[Self.greeting] == "Hello")
        let details = client.details(Self.maxItems, for: german)
        #expect(details.reason == .targetingMatch)
        #expect(details.variant == "de")
        #expect(details.decision?.match?.ruleID == "r[0]")
        let fallback = client.details(Self.maxItems, for: EvaluationContext(targetingKey: "u1"))
        #expect(fallback.reason == .defaultValue)
        #expect(fallback.variant == "ten")
        #expect(client.details(Self.greeting).reason == .staticValue)
    }

    @Test("a failing evaluation serves the key's default; the rest of the config still serves")
    func failureServesTheDefault() async throws {
        let json =
            #"{"p": {"s": "s"}, "f": {"maxItems": {"t": 2, "v": {"s": "ten"}}, "greeting": {"t": 1, "v": {"s": "Hello"}}}}"#
        let client = try RemoteConfigClient.builder(fetcher: InMemoryFetcher(json: json))
            .payloadFormat(ConfigCatFormat()).register(Self.maxItems, Self.greeting).build()
        try await client.refresh()
        #expect(client[Self.maxItems] == 1)
        #expect(client.details(Self.maxItems).errorCode == .parseError)
        #expect(client[Self.greeting] == "Hello")
    }

    @Test(
        "recognizes config JSON and simple override files, not flagd's flags or other JSON",
        arguments: [
            (#"{"p": {"s": "x"}, "f": {"a": {"t": 0, "v": {"b": true}}}}"#, true), (#"{"f": {}}"#, true),
            (#"{"flags": {"a": true, "b": 1.5, "c": "x"}}"#, true),
            (#"{"flags": {"a": {"state": "ENABLED", "variants": {"on": true}, "defaultVariant": "on"}}}"#, false),
            (#"{"flags": {}}"#, false), (#"{"f": {"a": true}}"#, false), (#"{"features": {}}"#, false), ("[]", false),
            ("nope", false),
        ])
    func recognizes(json: String, recognized: Bool) {
        #expect(ConfigCatFormat.recognizes(Data(json.utf8)) == recognized)
        #expect(ConfigCatFormat().name == "configcat")
    }

    @Test("lint reports what would fail an evaluation, without evaluating")
    func lint() throws {
        let json = #"""
            {"p": {"s": "s"}, "s": [{"n": "", "r": [{"a": "A", "c": 99, "l": []}]}],
             "f": {"x": {"t": 1, "v": {"b": true},
                         "r": [{"c": [{"s": {"s": 0, "c": 3}}, {"s": {"s": 4, "c": 0}}, {}, {"u": {"a": "A", "c": 28}}],
                                "s": {"v": {"s": "a"}}, "p": [{"p": 50, "v": {"s": "b"}}]},
                               {"c": [{"p": {"f": "y", "c": 2, "v": {"s": "z"}}}, {"p": {"f": "none", "c": 0, "v": {"b": true}}}]}],
                         "p": [{"p": -5, "v": {"i": 1}}, {"p": 200, "v": {"s": "c"}}]},
                   "y": {"t": 0, "v": {"b": true}, "r": [{"c": [{"p": {"f": "x", "c": 0, "v": {"s": "a"}}}], "s": {"v": {"b": false}}}]},
                   "ok": {"t": 0, "v": {"b": true}}, "weird": {"t": 9, "v": {"b": true}}}}
            """#
        let payload = try Fixture.decode(json)
        let problems = try #require(payload.rules["x"]).lint()
        let texts = problems.map { "\($0.path ?? ""): \($0.reason)" }
        for expected in [
            "f.x.v: the rule cannot be read: Setting value is missing or invalid.",
            "s[0].n: the rule cannot be read: Segment name is missing.",
            "f.x.r[0].c[0].s.c: the rule cannot be read: Comparison operator is invalid.",
            "s[0].r[0].c: the rule cannot be read: Comparison operator is invalid: 99 is not one of 0 … 35.",
            "f.x.r[0].c[1].s.s: the rule cannot be read: Segment reference is invalid: the config has 1 segments.",
            "f.x.r[0].c[2]: the rule cannot be read: Condition is missing or invalid",
            "f.x.r[0].c[3].u.s: the rule cannot be read: Comparison value is missing.",
            "f.x.r[0]: the rule cannot be read: Targeting rule THEN part is missing or invalid",
            "f.x.r[1].c[0].p.c: the rule cannot be read: Comparison operator is invalid.",
            "f.x.r[1].c[0].p.v: the rule cannot be read: Type mismatch between the comparison value and prerequisite flag 'y' (boolean).",
            "f.x.r[1].c[1].p.f: the rule cannot be read: Prerequisite flag 'none' is missing.",
            "f.x.p[0].p: the rule cannot be read: Percentage option percentage is invalid.",
            "f.x.p[0].v: the rule cannot be read: Setting value is missing or invalid.",
            "f.x.p: the rollout's weights sum to 1.95, not 1",
            "f.x: the rule cannot be read: Circular dependency detected between the following depending flags: 'x' -> 'y' -> 'x'.",
        ] {
            #expect(texts.contains { $0.hasPrefix(expected) }, "missing: \(expected)\nin: \(texts.joined(separator: "\n"))")
        }
        #expect(try #require(payload.rules["ok"]).lint().isEmpty)
        #expect(try #require(payload.rules["weird"]).lint().map(\.path) == ["f.weird.t"])
    }
}
