import ConfigDomain
import ConfigPorts
import Foundation
import LaunchDarklyFormat
import Testing

/// How an `EvaluationContext` becomes LaunchDarkly's context (FORMAT.md, "Contexts"), seen through a flag
/// that serves the context's key, kind and attributes back by rule.
@Suite("LaunchDarkly format: contexts")
struct LaunchDarklyContextTests {
    /// A flag that tells which rule matched: `key-u1`, `org-o1`, `name`, `anonymous`, `country`, else `other`.
    static func probe() throws -> DecodedPayload {
        try decodeLD(
            flagData(
                #""on": true, "variations": ["other", "key-u1", "org-o1", "name", "anonymous", "country", "org-country"], "#
                    + #""fallthrough": {"variation": 0}, "rules": ["#
                    + #"{"clauses": [{"attribute": "key", "op": "in", "values": ["u1"]}], "variation": 1},"#
                    + #"{"clauses": [{"contextKind": "org", "attribute": "key", "op": "in", "values": ["o1"]}], "variation": 2},"#
                    + #"{"clauses": [{"attribute": "name", "op": "in", "values": ["Zoë"]}], "variation": 3},"#
                    + #"{"clauses": [{"attribute": "anonymous", "op": "in", "values": [true]}], "variation": 4},"#
                    + #"{"clauses": [{"attribute": "country", "op": "in", "values": ["DE"]}], "variation": 5},"#
                    + #"{"clauses": [{"contextKind": "org", "attribute": "country", "op": "in", "values": ["DE"]}], "variation": 6}]"#
            ))
    }

    static func served(_ context: EvaluationContext) throws -> ConfigValue? { try probe().evaluate("f", in: context).value }

    @Test("a single user: the targeting key is the key, the attributes are the user's")
    func singleUser() throws {
        #expect(try Self.served(user("u1")) == "key-u1")
        #expect(try Self.served(user("u2", ["country": "DE"])) == "country")
        #expect(try Self.served(user("u2", ["name": "Zoë"])) == "name")
        #expect(try Self.served(user("u2", ["anonymous": true])) == "anonymous")
    }

    @Test("without a targeting key (or with an empty one), the key attribute; the targeting key wins over it")
    func keyAttribute() throws {
        #expect(try Self.served(EvaluationContext(attributes: ["key": "u1"])) == "key-u1")
        #expect(try Self.served(EvaluationContext(targetingKey: "", attributes: ["key": "u1"])) == "key-u1")
        #expect(try Self.served(EvaluationContext(targetingKey: "u2", attributes: ["key": "u1"])) == "other")
    }

    @Test("the kind attribute names the context's kind; a kind that is not a string leaves it a user")
    func kind() throws {
        #expect(try Self.served(EvaluationContext(targetingKey: "o1", attributes: ["kind": "org"])) == "org-o1")
        #expect(try Self.served(EvaluationContext(targetingKey: "o1", attributes: ["kind": "org", "country": "DE"])) == "org-o1")
        #expect(try Self.served(EvaluationContext(targetingKey: "u1", attributes: ["kind": 5])) == "key-u1")
    }

    @Test("name must be a string and anonymous a Boolean, else they are ignored; privateAttributes and _meta are no attributes")
    func builtIns() throws {
        #expect(try Self.served(user("u2", ["name": 5])) == "other")
        #expect(try Self.served(user("u2", ["anonymous": "true"])) == "other")
        let hidden = try decodeLD(
            flagData(
                #""on": true, "variations": [false, true], "fallthrough": {"variation": 0}, "rules": [{"clauses": [{"attribute": "privateAttributes", "op": "in", "values": ["country"]}], "variation": 1}]"#
            ))
        #expect(hidden.evaluate("f", in: user("u1", ["privateAttributes": ["country"]])).value == false)
    }

    @Test("kind multi: each object attribute is the context of its kind, keyed by its targetingKey or key")
    func multi() throws {
        let context = EvaluationContext(
            targetingKey: "ignored",
            attributes: [
                "kind": "multi", "user": ["key": "u2"], "org": ["targetingKey": "o2", "key": "o1", "country": "DE"],
                "note": "not an object: ignored",
            ])
        #expect(try Self.served(context) == "org-country")
        let both = EvaluationContext(attributes: ["kind": "multi", "user": ["key": "u1"], "org": ["key": "o1"]])
        #expect(try Self.served(both) == "key-u1")
        // One member is a single context of that kind.
        #expect(try Self.served(EvaluationContext(attributes: ["kind": "multi", "org": ["key": "o1"]])) == "org-o1")
    }

    @Test("contexts LaunchDarkly refuses: no key is TARGETING_KEY_MISSING, a bad kind INVALID_CONTEXT")
    func invalid() throws {
        let cases: [(EvaluationContext, EvaluationErrorCode)] = [
            (.empty, .targetingKeyMissing),
            (EvaluationContext(targetingKey: ""), .targetingKeyMissing),
            (EvaluationContext(attributes: ["key": 5]), .targetingKeyMissing),
            (EvaluationContext(attributes: ["kind": "multi", "user": ["key": ""]]), .targetingKeyMissing),
            (EvaluationContext(targetingKey: "u1", attributes: ["kind": "bad kind"]), .invalidContext),
            (EvaluationContext(targetingKey: "u1", attributes: ["kind": "kind"]), .invalidContext),
            (EvaluationContext(targetingKey: "u1", attributes: ["kind": "é"]), .invalidContext),
            (EvaluationContext(attributes: ["kind": "multi"]), .invalidContext),
            (EvaluationContext(attributes: ["kind": "multi", "user": ["key": "u1"], "a b": ["key": "x"]]), .invalidContext),
        ]
        for (context, code) in cases {
            let details = try Self.probe().evaluate("f", in: context)
            #expect(details.value == nil, "\(context)")
            #expect(details.reason == .error, "\(context)")
            #expect(details.errorCode == code, "\(context)")
            #expect(details.flagMetadata == ["reasonKind": "ERROR", "errorKind": "USER_NOT_SPECIFIED"], "\(context)")
        }
    }

    @Test("attribute names and keys compare by code points, and a path reads members of objects")
    func exactNames() throws {
        let payload = try decodeLD(
            flagData(
                #""on": true, "variations": [false, true], "fallthrough": {"variation": 0}, "rules": [{"clauses": [{"contextKind": "user", "attribute": "/é/~1x~0", "op": "in", "values": [1]}], "variation": 1}]"#
            ))
        #expect(payload.evaluate("f", in: user("u1", ["é": ["/x~": 1]])).value == true)
        #expect(payload.evaluate("f", in: user("u1", ["e\u{301}": ["/x~": 1]])).value == false)
        #expect(payload.evaluate("f", in: user("u1", ["é": ["/x~": nil]])).value == false)
    }
}
