import ConfigDomain
import Foundation
import Testing

@Suite("ConfigKey.resolve: typed value or a rejection that says key, value, rule, reason and origin")
struct KeyResolutionTests {
    let retries = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])

    @Test("a valid value comes back typed")
    func validValue() throws {
        #expect(try retries.resolve(.int(5)).get() == 5)
        #expect(try retries.resolve(.double(10.0)).get() == 10)
    }

    @Test("a value outside the rule is rejected with every part filled in")
    func ruleRejection() throws {
        let rejection = try #require(retries.resolve(.int(42), origin: "env MYAPP_RETRIES").failure)
        #expect(
            rejection
                == Rejection(
                    key: "max_retries", value: "42", rule: "range(0...10)", reason: "42 is outside 0...10",
                    origin: "env MYAPP_RETRIES"))
        #expect(
            rejection.description
                == #"key "max_retries": value 42 rejected by range(0...10): 42 is outside 0...10 (from env MYAPP_RETRIES)"#)
    }

    @Test("a value of the wrong type is rejected by the type rule")
    func typeRejection() {
        #expect(
            retries.resolve(.string("3")).failure
                == Rejection(key: "max_retries", value: #""3""#, rule: "type(Int)", reason: "expected Int, found a JSON string"))
    }

    @Test("rules run in order and the first failing one is reported")
    func firstFailingRule() {
        let key = ConfigKey(
            "name", default: "x", rules: [.nonEmpty, .length(1...3), .pattern("[a-z]+")])
        #expect(key.resolve(.string("")).failure?.rule == "nonEmpty")
        #expect(key.resolve(.string("abcd")).failure?.rule == "length(1...3)")
        #expect(key.resolve(.string("AB")).failure?.rule == "pattern([a-z]+)")
        #expect(key.resolve(.string("ab")).failure == nil)
    }

    @Test("override text is coerced, then validated; the rejection shows the text as typed")
    func textResolution() throws {
        #expect(try retries.resolve(text: " 7 ").get() == 7)
        #expect(
            retries.resolve(text: "abc", origin: "--max_retries").failure
                == Rejection(
                    key: "max_retries", value: "abc", rule: "type(Int)", reason: "not a whole number that fits in Int",
                    origin: "--max_retries"))
        #expect(retries.resolve(text: "11").failure?.reason == "11 is outside 0...10")
    }

    @Test("validate runs the rules on a typed value")
    func validateTyped() throws {
        #expect(try retries.validate(4).get() == 4)
        #expect(retries.validate(-1, origin: "default").failure?.description.contains("-1 is outside 0...10") == true)
        #expect(retries.validate(-1, origin: "default").failure?.origin == "default")
    }

    @Test("a rejection without origin says nothing about one")
    func noOrigin() {
        let description = retries.resolve(.int(11)).failure?.description
        #expect(description == #"key "max_retries": value 11 rejected by range(0...10): 11 is outside 0...10"#)
    }
}

@Suite("Secret keys never show their value")
struct SecretKeyTests {
    let token = ConfigKey("api_token", default: "none", rules: [.oneOf(["none", "test-token"]), .length(4...64)], secret: true)

    @Test("a rule rejection redacts the value and keeps the reason free of it")
    func ruleRejectionRedacted() throws {
        let rejection = try #require(token.resolve(.string("sk_live_123456"), origin: "remote").failure)
        #expect(rejection.value == Rejection.redacted)
        #expect(rejection.rule == "oneOf(none, test-token)")
        #expect(rejection.reason == "the value is not one of none, test-token")
        #expect(!rejection.description.contains("sk_live_123456"))
        #expect(rejection.description.contains("<redacted>"))
    }

    @Test("a type rejection redacts the value")
    func typeRejectionRedacted() throws {
        let rejection = try #require(token.resolve(.int(987_654)).failure)
        #expect(rejection.value == Rejection.redacted)
        #expect(rejection.reason == "expected String, found a JSON int")
        #expect(!rejection.description.contains("987654"))
    }

    @Test("text rejections redact too")
    func textRejectionRedacted() throws {
        let rejection = try #require(token.resolve(text: "sk_live_abcdef").failure)
        #expect(rejection.value == Rejection.redacted)
        #expect(!rejection.description.contains("sk_live_abcdef"))
    }

    @Test("a reason that would quote part of a structured secret is replaced by one naming only the rule")
    func structuredSecret() throws {
        let key = ConfigKey(
            decoding: "credentials", default: Banner(title: "", color: "", maxShows: 0), secret: true)
        let value: ConfigValue = ["title": "hunter2-password", "color": "c", "maxShows": "not-a-number-secret"]
        let rejection = try #require(key.resolve(value).failure)
        #expect(rejection.value == Rejection.redacted)
        #expect(rejection.reason == "the value is not a valid Banner; details are hidden because the key is secret")
        #expect(!rejection.description.contains("hunter2"))
        #expect(!rejection.description.contains("not-a-number-secret"))
    }

    @Test("an enum secret's unknown raw value is hidden")
    func enumSecret() throws {
        let key = ConfigKey("plan", default: Theme.light, secret: true)
        let rejection = try #require(key.resolve(.string("internal-plan-x")).failure)
        #expect(!rejection.description.contains("internal-plan-x"))
    }

    @Test("a numeric secret outside a range says so without the number")
    func numericSecret() throws {
        let key = ConfigKey("pin", default: 1234, rules: [.range(1000...9999)], secret: true)
        let rejection = try #require(key.resolve(.int(12)).failure)
        #expect(rejection.reason == "the value is outside 1000...9999")
        #expect(try #require(key.resolve(.int(10_000)).failure).reason == "the value is outside 1000...9999")
        // 99 appears inside "9999": rather than risk showing it, the reason names only the rule.
        let clash = try #require(key.resolve(.int(99)).failure)
        #expect(clash.reason == "the value fails range(1000...9999); details are hidden because the key is secret")
    }

    @Test("render, descriptor and validate hide the value")
    func renderingHidden() throws {
        #expect(token.render("sk_live_123") == Rejection.redacted)
        #expect(token.descriptor.description == "api_token: String = <redacted>")
        #expect(token.descriptor.isSecret)
        let rejection = try #require(token.validate("sk_live_123").failure)
        #expect(rejection.value == Rejection.redacted)
        #expect(!rejection.description.contains("sk_live_123"))
    }

    @Test("Rejection.redact removes every occurrence and leaves text without the secret alone")
    func redactHelper() {
        #expect(Rejection.redact("a secret and a secret", secret: "secret") == "a <redacted> and a <redacted>")
        #expect(Rejection.redact("nothing here", secret: "") == "nothing here")
    }
}
