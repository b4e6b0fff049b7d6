import ConfigDomain
import ConfigPorts
import EnvAdapter
import Foundation
import Testing

/// What sources return is text; the client coerces it with each key's own converter and rules.
/// These tests put text in through a real source and resolve what comes out, as the client does.
@Suite("Text from override sources, coerced to each key's type")
struct TextCoercionTests {
    /// The snapshot an environment source gives when `variable` (without prefix) is set to `text`.
    private func environment(_ variable: String, _ text: String) -> OverrideSnapshot {
        EnvironmentOverrideSource(prefix: "MYAPP_", environment: ["MYAPP_" + variable: text]).overrides(
            for: SampleKeys.all)
    }

    @Test(
        "Bool reads true/false, 1/0, yes/no and on/off in any case",
        arguments: [
            ("true", true), ("false", false), ("1", true), ("0", false), ("yes", true), ("no", false),
            ("TRUE", true), ("No", false), ("on", true), ("off", false), (" yes ", true),
        ])
    func bool(text: String, expected: Bool) throws {
        let result = try #require(resolve(SampleKeys.newCheckout, in: environment("NEW_CHECKOUT", text)))
        #expect(try result.get() == expected)
    }

    @Test("Bool rejects other text, naming the variable", arguments: ["maybe", "2", "", "truee", "y"])
    func boolRejection(text: String) throws {
        let result = try #require(resolve(SampleKeys.newCheckout, in: environment("NEW_CHECKOUT", text)))
        guard case .failure(let rejection) = result else {
            Issue.record("\(text) was accepted as a Bool")
            return
        }
        #expect(rejection.key == "new_checkout")
        #expect(rejection.origin == "MYAPP_NEW_CHECKOUT")
        #expect(rejection.rule == "type(Bool)")
        #expect(rejection.value == text)
        #expect(rejection.description.contains("MYAPP_NEW_CHECKOUT"))
    }

    @Test("Int reads whole numbers", arguments: [("0", 0), ("7", 7), ("10", 10), (" 4 ", 4), ("2.0", 2)])
    func int(text: String, expected: Int) throws {
        let result = try #require(resolve(SampleKeys.maxRetries, in: environment("MAX_RETRIES", text)))
        #expect(try result.get() == expected)
    }

    @Test(
        "Int rejects text that is not a whole number, and values its rules refuse",
        arguments: [
            ("abc", "type(Int)"), ("2.5", "type(Int)"), ("", "type(Int)"), ("99999999999999999999", "type(Int)"),
            ("11", "range(0...10)"), ("-1", "range(0...10)"),
        ])
    func intRejection(text: String, rule: String) throws {
        let result = try #require(resolve(SampleKeys.maxRetries, in: environment("MAX_RETRIES", text)))
        guard case .failure(let rejection) = result else {
            Issue.record("\(text) was accepted for max_retries")
            return
        }
        #expect(rejection.rule == rule)
        #expect(rejection.origin == "MYAPP_MAX_RETRIES")
        #expect(rejection.value == text)
    }

    @Test("Double reads decimal numbers", arguments: [("0.25", 0.25), ("3", 3.0), ("1e-3", 0.001), ("-2.5", -2.5)])
    func double(text: String, expected: Double) throws {
        let result = try #require(resolve(SampleKeys.sampleRate, in: environment("SAMPLE_RATE", text)))
        #expect(try result.get() == expected)
    }

    @Test("Double rejects text that is not a finite number", arguments: ["fast", "nan", "inf", "", "1,5"])
    func doubleRejection(text: String) throws {
        let result = try #require(resolve(SampleKeys.sampleRate, in: environment("SAMPLE_RATE", text)))
        guard case .failure(let rejection) = result else {
            Issue.record("\(text) was accepted as a Double")
            return
        }
        #expect(rejection.rule == "type(Double)")
        #expect(rejection.origin == "MYAPP_SAMPLE_RATE")
    }

    @Test("String takes the text as it is, empty included", arguments: ["hi there", "", "  padded  ", "true", "{\"a\":1}"])
    func string(text: String) throws {
        let result = try #require(resolve(SampleKeys.greeting, in: environment("GREETING", text)))
        #expect(try result.get() == text)
    }

    @Test("URL reads an absolute URL and rejects text without a scheme")
    func url() throws {
        let good = try #require(resolve(SampleKeys.apiBaseURL, in: environment("API_BASE_URL", "https://staging.example.com/v2")))
        #expect(try good.get().absoluteString == "https://staging.example.com/v2")
        for bad in ["staging.example.com/v2", ""] {
            let result = try #require(resolve(SampleKeys.apiBaseURL, in: environment("API_BASE_URL", bad)))
            guard case .failure(let rejection) = result else {
                Issue.record("\(bad) was accepted as a URL")
                continue
            }
            #expect(rejection.rule == "type(URL)")
            #expect(rejection.origin == "MYAPP_API_BASE_URL")
        }
    }

    @Test("a String-backed enum reads its raw values and rejects others, listing the cases")
    func stringEnum() throws {
        #expect(try #require(resolve(SampleKeys.theme, in: environment("THEME", "dark"))).get() == .dark)
        let result = try #require(resolve(SampleKeys.theme, in: environment("THEME", "purple")))
        guard case .failure(let rejection) = result else {
            Issue.record("purple was accepted as a Theme")
            return
        }
        #expect(rejection.rule == "type(Theme)")
        #expect(rejection.reason.contains("light, dark"))
        #expect(rejection.origin == "MYAPP_THEME")
    }

    @Test("an Int-backed enum reads its raw values and rejects others")
    func intEnum() throws {
        #expect(try #require(resolve(SampleKeys.tier, in: environment("TIER", "1"))).get() == .pro)
        for bad in ["7", "pro"] {
            let result = try #require(resolve(SampleKeys.tier, in: environment("TIER", bad)))
            guard case .failure(let rejection) = result else {
                Issue.record("\(bad) was accepted as a Tier")
                continue
            }
            #expect(rejection.rule == "type(Tier)")
        }
    }

    @Test("arrays read JSON text and reject other text, naming the bad element")
    func arrays() throws {
        #expect(try #require(resolve(SampleKeys.tags, in: environment("TAGS", #"["a","b"]"#))).get() == ["a", "b"])
        #expect(try #require(resolve(SampleKeys.limits, in: environment("LIMITS", "[1, 2, 3]"))).get() == [1, 2, 3])
        #expect(try #require(resolve(SampleKeys.limits, in: environment("LIMITS", "[]"))).get() == [])

        let notJSON = try #require(resolve(SampleKeys.tags, in: environment("TAGS", "a,b")))
        guard case .failure(let rejection) = notJSON else {
            Issue.record("a,b was accepted as [String]")
            return
        }
        #expect(rejection.rule == "type([String])")
        #expect(rejection.reason.contains("JSON"))

        let badElement = try #require(resolve(SampleKeys.limits, in: environment("LIMITS", #"[1,"x"]"#)))
        guard case .failure(let elementRejection) = badElement else {
            Issue.record("[1,\"x\"] was accepted as [Int]")
            return
        }
        #expect(elementRejection.reason.contains("[1]"))
    }

    @Test("a Decodable struct reads JSON text and rejects text that does not decode")
    func decodable() throws {
        let good = try #require(resolve(SampleKeys.banner, in: environment("BANNER", #"{"title":"Sale","color":"red"}"#)))
        #expect(try good.get() == Banner(title: "Sale", color: "red"))
        for bad in [#"{"title":1,"color":"red"}"#, #"{"title":"x"}"#, "{not json", ""] {
            let result = try #require(resolve(SampleKeys.banner, in: environment("BANNER", bad)))
            guard case .failure(let rejection) = result else {
                Issue.record("\(bad) was accepted as a Banner")
                continue
            }
            #expect(rejection.rule == "type(Banner)")
            #expect(rejection.origin == "MYAPP_BANNER")
        }
    }

    @Test("one bad value is rejected for its key alone; the other keys still resolve")
    func rejectionIsPerKey() throws {
        let source = EnvironmentOverrideSource(
            prefix: "MYAPP_", environment: ["MYAPP_NEW_CHECKOUT": "maybe", "MYAPP_MAX_RETRIES": "5", "MYAPP_THEME": "dark"])
        let snapshot = source.overrides(for: SampleKeys.all)
        #expect(snapshot.problems.isEmpty)
        #expect(throws: Rejection.self) { try #require(resolve(SampleKeys.newCheckout, in: snapshot)).get() }
        #expect(try #require(resolve(SampleKeys.maxRetries, in: snapshot)).get() == 5)
        #expect(try #require(resolve(SampleKeys.theme, in: snapshot)).get() == .dark)
    }

    @Test("a rejected secret value is redacted in the rejection and its message")
    func secretRedaction() throws {
        let snapshot = EnvironmentOverrideSource(
            prefix: "MYAPP_", environment: ["MYAPP_API_TOKEN": "hunter2", "MYAPP_PIN": "12345"]
        ).overrides(for: SampleKeys.all)

        let token = try #require(resolve(SampleKeys.apiToken, in: snapshot))
        guard case .failure(let tokenRejection) = token else {
            Issue.record("hunter2 passed the token pattern")
            return
        }
        #expect(tokenRejection.value == Rejection.redacted)
        #expect(tokenRejection.origin == "MYAPP_API_TOKEN")
        #expect(!tokenRejection.description.contains("hunter2"))
        #expect(!tokenRejection.reason.contains("hunter2"))

        let pin = try #require(resolve(SampleKeys.pin, in: snapshot))
        guard case .failure(let pinRejection) = pin else {
            Issue.record("12345 passed the pin range")
            return
        }
        #expect(pinRejection.rule == "range(0...9999)")
        #expect(pinRejection.value == Rejection.redacted)
        #expect(!pinRejection.description.contains("12345"))

        let wrongType = try #require(resolve(SampleKeys.pin, in: environment("PIN", "12ab")))
        guard case .failure(let typeRejection) = wrongType else {
            Issue.record("12ab was accepted as an Int")
            return
        }
        #expect(!typeRejection.description.contains("12ab"))
    }

    @Test("a valid secret resolves to its value")
    func secretAccepted() throws {
        let snapshot = environment("API_TOKEN", "tok_abcd1234")
        #expect(try #require(resolve(SampleKeys.apiToken, in: snapshot)).get() == "tok_abcd1234")
    }

    @Test("text from every source resolves the same way, with each source's origin")
    func everySourceGivesTheSameText() throws {
        let snapshots = [
            (
                EnvironmentOverrideSource(prefix: "MYAPP_", environment: ["MYAPP_MAX_RETRIES": "42"])
                    .overrides(for: SampleKeys.all),
                "MYAPP_MAX_RETRIES"
            ),
            (
                LaunchArgumentsOverrideSource(arguments: ["/app", "-rc.max_retries", "42"])
                    .overrides(for: SampleKeys.all),
                "-rc.max_retries"
            ),
            (DotEnvOverrideSource(contents: "\n\nMAX_RETRIES=42\n").overrides(for: SampleKeys.all), ".env:3"),
        ]
        for (snapshot, origin) in snapshots {
            let result = try #require(resolve(SampleKeys.maxRetries, in: snapshot))
            guard case .failure(let rejection) = result else {
                Issue.record("42 passed range(0...10) from \(origin)")
                continue
            }
            #expect(rejection.origin == origin)
            #expect(rejection.rule == "range(0...10)")
            #expect(rejection.description.contains("(from \(origin))"))
        }
    }
}
