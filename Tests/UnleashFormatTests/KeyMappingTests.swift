import ConfigDomain
import Foundation
import Testing

@testable import UnleashFormat

/// How features become keys, and how the evaluation context becomes Unleash's context.
@Suite("Keys and context mapping")
struct KeyMappingTests {
    static let checkout = feature(
        "new-checkout", strategy: #"{"name": "userWithId", "parameters": {"userIds": "u1"}}"#,
        extra: """
            "variants": [
              {"name": "blue", "weight": 500, "stickiness": "default", "payload": {"type": "json", "value": "{\\"color\\": \\"#00f\\", \\"size\\": 2}"}},
              {"name": "count", "weight": 0, "payload": {"type": "number", "value": "3"}},
              {"name": "plain", "weight": 0, "overrides": [{"contextName": "userId", "values": ["u1"]}]}
            ]
            """)

    @Test("each feature gives a Boolean key, a variant-name key and a payload key; plain values fail closed")
    func keys() throws {
        let json = payload([Self.checkout])
        let decoded = try decode(json)
        #expect(Set(decoded.rules.keys) == ["new-checkout", "new-checkout.variant", "new-checkout.payload"])
        #expect(decoded.values == ["new-checkout": false, "new-checkout.variant": "disabled"])
        #expect(try UnleashFormat().decode(Data(json.utf8)).values == decoded.values)
    }

    @Test("the variant's payload: json as its value, number as a number, string and csv as text; none leaves the default")
    func payloads() throws {
        let json = try decode(payload([Self.checkout]))
        let u2 = context([:], key: "u2")
        // u2 is not in userIds: the feature is off, the variant is "disabled" and there is no payload.
        #expect(json.decision("new-checkout", u2)?.value == .bool(false))
        #expect(json.variant("new-checkout", u2) == "disabled")
        #expect(json.decision("new-checkout.payload", u2)?.value == nil)
        // u1 is in, and an override gives "plain", which has no payload.
        let u1 = context([:], key: "u1")
        #expect(json.variant("new-checkout", u1) == "plain")
        #expect(json.decision("new-checkout.payload", u1)?.value == nil)

        let typed = try decode(
            payload([
                feature(
                    "n", strategy: #"{"name": "default"}"#,
                    extra: #""variants": [{"name": "v", "weight": 1, "payload": {"type": "number", "value": "2.5"}}]"#),
                feature(
                    "i", strategy: #"{"name": "default"}"#,
                    extra: #""variants": [{"name": "v", "weight": 1, "payload": {"type": "number", "value": "7"}}]"#),
                feature(
                    "c", strategy: #"{"name": "default"}"#,
                    extra: #""variants": [{"name": "v", "weight": 1, "payload": {"type": "csv", "value": "a,b"}}]"#),
                feature(
                    "j", strategy: #"{"name": "default"}"#,
                    extra: #""variants": [{"name": "v", "weight": 1, "payload": {"type": "json", "value": "{\"on\": true}"}}]"#),
            ]))
        #expect(typed.decision("n.payload")?.value == .double(2.5))
        #expect(typed.decision("i.payload")?.value == .int(7))
        #expect(typed.decision("c.payload")?.value == .string("a,b"))
        #expect(typed.decision("j.payload")?.value == ["on": true])
    }

    @Test("key suffixes are configurable, and a feature's own name wins over a derived key")
    func suffixes() throws {
        let custom = try decode(
            payload([Self.checkout]), format: UnleashFormat(variantKeySuffix: "__variant", payloadKeySuffix: "__payload"))
        #expect(Set(custom.rules.keys) == ["new-checkout", "new-checkout__variant", "new-checkout__payload"])

        let clash = try decode(
            payload([feature("a", strategy: #"{"name": "default"}"#), feature("a.variant", strategy: #"{"name": "default"}"#)]))
        #expect(clash.decision("a.variant")?.value == .bool(true), "the feature named a.variant keeps its Boolean key")
        #expect(clash.decision("a.variant.variant")?.value == .string("disabled"))
    }

    @Test("userId is the attribute userId, else the targeting key; other fields are attributes or members of properties")
    func contextMapping() throws {
        let userRule = feature("u", strategy: #"{"name": "userWithId", "parameters": {"userIds": "u1"}}"#)
        let envRule = feature(
            "e", strategy: constrained(#"{"contextName": "environment", "operator": "IN", "values": ["prod"]}"#))
        let payload = try decode(payload([userRule, envRule]))
        #expect(payload.isEnabled("u", context([:], key: "u1")))
        #expect(!payload.isEnabled("u", context(["userId": "u2"], key: "u1")), "the attribute wins over the targeting key")
        #expect(payload.isEnabled("u", context(["userId": nil], key: "u1")), "a null attribute counts as missing")
        #expect(payload.decision("u", context([:], key: "u1"))?.attributesRead == ["targetingKey"])
        #expect(payload.isEnabled("e", context(["environment": "prod"])))
        #expect(payload.isEnabled("e", context(["properties": ["environment": "prod"]])))
        #expect(!payload.isEnabled("e", context(["environment": "dev", "properties": ["environment": "prod"]])))
    }

    @Test("an unknown feature's keys have no rules (the app's default applies)")
    func unknownFeature() throws {
        let payload = try decode(payload([]))
        #expect(payload.rules.isEmpty && payload.values.isEmpty)
        #expect(!payload.isEnabled("missing"))
    }
}
