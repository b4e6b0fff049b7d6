import ConfigDomain
import ConfigPorts
import EnvAdapter
import Foundation
import Testing

@Suite("EnvironmentOverrideSource")
struct EnvironmentOverrideSourceTests {
    private let keys = [stringKey("new_checkout"), stringKey("max_retries"), stringKey("api.base-url")]

    @Test("reads prefix + mapped name for each registered key, with the variable name as origin")
    func readsMappedVariables() {
        let source = EnvironmentOverrideSource(
            prefix: "MYAPP_",
            environment: ["MYAPP_NEW_CHECKOUT": "false", "MYAPP_API_BASE_URL": "https://staging.example.com", "HOME": "/root"])
        let snapshot = source.overrides(for: keys)
        #expect(
            snapshot.values == [
                "new_checkout": OverrideValue(.text("false"), origin: "MYAPP_NEW_CHECKOUT"),
                "api.base-url": OverrideValue(.text("https://staging.example.com"), origin: "MYAPP_API_BASE_URL"),
            ])
        #expect(snapshot.problems.isEmpty)
        #expect(source.name == "environment")
    }

    @Test("reports only registered keys, however many variables carry the prefix")
    func onlyRegisteredKeys() {
        let environment = [
            "MYAPP_NEW_CHECKOUT": "true", "MYAPP_MAX_RETRIES": "4", "MYAPP_SOMETHING_ELSE": "x", "OTHER_NEW_CHECKOUT": "false",
        ]
        let snapshot = EnvironmentOverrideSource(prefix: "MYAPP_", environment: environment)
            .overrides(for: [stringKey("new_checkout")])
        #expect(Set(snapshot.values.keys) == ["new_checkout"])
        #expect(text(of: "new_checkout", in: snapshot) == "true")
    }

    @Test("with no registered keys there are no values")
    func noKeys() {
        let snapshot = EnvironmentOverrideSource(prefix: "MYAPP_", environment: ["MYAPP_NEW_CHECKOUT": "true"])
            .overrides(for: [])
        #expect(snapshot.values.isEmpty)
        #expect(snapshot.problems == ["MYAPP_NEW_CHECKOUT is set but overrides no registered key"])
    }

    @Test("an empty value is returned as empty text, for the key to accept or reject")
    func emptyValue() {
        let snapshot = EnvironmentOverrideSource(prefix: "MYAPP_", environment: ["MYAPP_NEW_CHECKOUT": ""])
            .overrides(for: keys)
        #expect(text(of: "new_checkout", in: snapshot) == "")
    }

    @Test("a misspelt prefixed variable is a problem with a did-you-mean hint")
    func typoHint() {
        let snapshot = EnvironmentOverrideSource(prefix: "MYAPP_", environment: ["MYAPP_NEW_CHEKOUT": "false"])
            .overrides(for: keys)
        #expect(snapshot.values.isEmpty)
        #expect(
            snapshot.problems == [
                "MYAPP_NEW_CHEKOUT is set but overrides no registered key; did you mean MYAPP_NEW_CHECKOUT (key \"new_checkout\")?"
            ])
    }

    @Test("a variable that differs only in letter case is a problem that says names are case-sensitive")
    func caseHint() throws {
        let snapshot = EnvironmentOverrideSource(prefix: "MYAPP_", environment: ["myapp_new_checkout": "false"])
            .overrides(for: keys)
        #expect(snapshot.values.isEmpty)
        let problem = try #require(snapshot.problems.first)
        #expect(problem.contains("did you mean MYAPP_NEW_CHECKOUT"))
        #expect(problem.contains("case-sensitive"))
    }

    @Test("a prefixed variable close to no key is a problem without a hint")
    func unknownWithoutHint() {
        let snapshot = EnvironmentOverrideSource(prefix: "MYAPP_", environment: ["MYAPP_LOG_LEVEL": "debug"])
            .overrides(for: keys)
        #expect(snapshot.problems == ["MYAPP_LOG_LEVEL is set but overrides no registered key"])
    }

    @Test("problems name variables but never their values")
    func problemsDoNotEchoValues() {
        let snapshot = EnvironmentOverrideSource(
            prefix: "MYAPP_", environment: ["MYAPP_API_TOKNE": "sk_live_secret", "MYAPP_PASSWORD": "hunter2"]
        ).overrides(for: keys + [stringKey("api_token")])
        #expect(snapshot.problems.count == 2)
        for problem in snapshot.problems {
            #expect(!problem.contains("sk_live_secret") && !problem.contains("hunter2"))
        }
    }

    @Test("without a prefix, unrelated variables are ignored and only close ones are reported")
    func emptyPrefix() {
        let environment = ["PATH": "/usr/bin", "HOME": "/root", "NEW_CHECKOUT": "true", "MAX_RETRIESS": "3"]
        let snapshot = EnvironmentOverrideSource(prefix: "", environment: environment).overrides(for: keys)
        #expect(text(of: "new_checkout", in: snapshot) == "true")
        #expect(snapshot.values.count == 1)
        #expect(
            snapshot.problems == [
                "MAX_RETRIESS is set but overrides no registered key; did you mean MAX_RETRIES (key \"max_retries\")?"
            ])
    }

    @Test("two keys that map to one variable are reported, and the variable overrides neither")
    func collision() {
        let colliding = [stringKey("new_checkout"), stringKey("newCheckout"), stringKey("max_retries")]
        let source = EnvironmentOverrideSource(
            prefix: "MYAPP_", environment: ["MYAPP_NEW_CHECKOUT": "true", "MYAPP_MAX_RETRIES": "2"])
        let snapshot = source.overrides(for: colliding)
        #expect(snapshot.values.keys.sorted() == ["max_retries"])
        #expect(
            snapshot.problems == [
                "keys \"newCheckout\", \"new_checkout\" both map to MYAPP_NEW_CHECKOUT, so it overrides none of them; "
                    + "rename a key or supply a KeyMapping.custom"
            ])
    }

    @Test("a custom mapping decides the variable names")
    func customMapping() {
        let mapping = KeyMapping.custom { $0.replacingOccurrences(of: ".", with: "__").uppercased() }
        let source = EnvironmentOverrideSource(
            prefix: "APP_", environment: ["APP_API__BASE-URL": "https://x.example", "APP_NEW_CHECKOUT": "true"], mapping: mapping)
        let snapshot = source.overrides(for: keys)
        #expect(snapshot.values["api.base-url"] == OverrideValue(.text("https://x.example"), origin: "APP_API__BASE-URL"))
        #expect(text(of: "new_checkout", in: snapshot) == "true")
    }

    @Test("by default the source reads the process environment")
    func defaultEnvironment() {
        #expect(EnvironmentOverrideSource(prefix: "MYAPP_").environment == ProcessInfo.processInfo.environment)
    }
}
