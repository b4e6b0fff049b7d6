import ConfigDomain
import EnvAdapter
import Testing

@Suite("KeyMapping and VariableIndex")
struct KeyMappingTests {
    @Test(
        "the standard mapping turns key names into variable names",
        arguments: [
            ("new_checkout", "NEW_CHECKOUT"),
            ("newCheckout", "NEW_CHECKOUT"),
            ("NewCheckout", "NEW_CHECKOUT"),
            ("new-checkout", "NEW_CHECKOUT"),
            ("NEW_CHECKOUT", "NEW_CHECKOUT"),
            ("api.base-url", "API_BASE_URL"),
            ("apiBaseURL", "API_BASE_URL"),
            ("HTTPTimeout", "HTTP_TIMEOUT"),
            ("httpTimeout", "HTTP_TIMEOUT"),
            ("retry2Count", "RETRY2_COUNT"),
            ("oauth2_token", "OAUTH2_TOKEN"),
            ("ipv6Enabled", "IPV6_ENABLED"),
            ("HTTP2Enabled", "HTTP2_ENABLED"),
            ("v2", "V2"),
            ("2fa_enabled", "2FA_ENABLED"),
            ("a..b", "A_B"),
            ("_leading.and.trailing_", "LEADING_AND_TRAILING"),
            ("feature/flags list", "FEATURE_FLAGS_LIST"),
            ("café_mode", "CAFÉ_MODE"),
            ("cafe\u{301}_mode", "CAFE\u{301}_MODE"),
            ("straße", "STRASSE"),
            ("x", "X"),
            ("", ""),
            ("._-", ""),
        ])
    func standardMapping(key: String, variable: String) {
        #expect(KeyMapping.standard(key) == variable)
        #expect(KeyMapping.standard.variableName(for: key) == variable)
    }

    @Test(
        "a variable name maps back to exactly the registered key that produced it",
        arguments: ["new_checkout", "newCheckout", "api.base-url", "HTTPTimeout", "retry2Count", "x"])
    func reverseMapping(keyName: String) throws {
        let others = ["max_retries", "sample_rate", "theme"].map(stringKey)
        let index = VariableIndex(keys: others + [stringKey(keyName)], prefix: "MYAPP_")
        let variable = try #require(index.variable(forKey: keyName))
        #expect(variable == "MYAPP_" + KeyMapping.standard(keyName))
        #expect(index.key(forVariable: variable)?.name == keyName)
        #expect(index.lookup(variable) == .key(stringKey(keyName)))
        #expect(index.collisions.isEmpty)
        #expect(index.problems.isEmpty)
    }

    @Test("every registered key round-trips through its variable name")
    func roundTripOfAllSampleKeys() {
        let index = VariableIndex(keys: SampleKeys.all, prefix: "MYAPP_")
        for key in SampleKeys.all {
            let variable = index.variable(forKey: key.name)
            #expect(variable.flatMap(index.key(forVariable:))?.name == key.name, "\(key.name)")
        }
        #expect(index.entries.count == SampleKeys.all.count)
    }

    @Test("a variable name that no registered key produces is unknown")
    func unknownVariable() {
        let index = VariableIndex(keys: [stringKey("new_checkout")], prefix: "MYAPP_")
        #expect(index.lookup("MYAPP_OLD_CHECKOUT") == .unknown)
        #expect(index.lookup("NEW_CHECKOUT") == .unknown)
        #expect(index.lookup("myapp_new_checkout") == .unknown)
        #expect(index.key(forVariable: "MYAPP_OLD_CHECKOUT") == nil)
        #expect(index.variable(forKey: "old_checkout") == nil)
    }

    @Test(
        "two registered keys that map to one variable are reported, and the variable maps to neither",
        arguments: [
            (["new_checkout", "newCheckout"], "MYAPP_NEW_CHECKOUT"),
            (["api.base-url", "api_base_url", "apiBaseUrl"], "MYAPP_API_BASE_URL"),
            (["HTTPTimeout", "http-timeout"], "MYAPP_HTTP_TIMEOUT"),
        ])
    func collision(names: [String], variable: String) throws {
        let index = VariableIndex(keys: names.map(stringKey) + [stringKey("other")], prefix: "MYAPP_")
        #expect(index.collisions == [VariableIndex.Collision(variable: variable, keys: names.sorted())])
        #expect(index.lookup(variable) == .ambiguous(names.sorted()))
        #expect(index.key(forVariable: variable) == nil)
        for name in names { #expect(index.variable(forKey: name) == nil) }
        #expect(index.variable(forKey: "other") == "MYAPP_OTHER")
        let problem = try #require(index.problems.first)
        #expect(index.problems.count == 1)
        #expect(problem.contains(variable))
        for name in names { #expect(problem.contains("\"\(name)\"")) }
        #expect(problem.contains("KeyMapping.custom"))
    }

    @Test("the same key registered twice is not a collision")
    func duplicateRegistrationIsNotACollision() {
        let index = VariableIndex(keys: [stringKey("a"), stringKey("a")], prefix: "P_")
        #expect(index.collisions.isEmpty)
        #expect(index.key(forVariable: "P_A")?.name == "a")
    }

    @Test("a key that maps to an empty name is reported and cannot be overridden")
    func emptyMappedName() throws {
        let index = VariableIndex(keys: [stringKey("..."), stringKey("ok")], prefix: "MYAPP_")
        #expect(index.lookup("MYAPP_") == .unknown)
        #expect(index.variable(forKey: "...") == nil)
        let problem = try #require(index.problems.first)
        #expect(problem.contains("\"...\"") && problem.contains("empty variable name"))
    }

    @Test("a custom mapping is used both ways, and its collisions are reported")
    func customMapping() {
        let mapping = KeyMapping.custom { $0.uppercased() }
        #expect(mapping("api.base-url") == "API.BASE-URL")
        let index = VariableIndex(keys: [stringKey("api.base-url")], prefix: "APP_", mapping: mapping)
        #expect(index.key(forVariable: "APP_API.BASE-URL")?.name == "api.base-url")
        #expect(index.key(forVariable: "APP_API_BASE_URL") == nil)

        let colliding = VariableIndex(keys: [stringKey("a"), stringKey("b")], mapping: .custom { _ in "SAME" })
        #expect(colliding.collisions == [VariableIndex.Collision(variable: "SAME", keys: ["a", "b"])])
    }

    @Test(
        "a close unknown name suggests the one registered variable it resembles",
        arguments: [
            ("MYAPP_NEW_CHEKOUT", "MYAPP_NEW_CHECKOUT"),
            ("MYAPP_NEW_CHECKOUTS", "MYAPP_NEW_CHECKOUT"),
            ("MYAPP_new_checkout", "MYAPP_NEW_CHECKOUT"),
            ("MYAP_NEW_CHECKOUT", "MYAPP_NEW_CHECKOUT"),
            ("MYAPP_MAX_RETRY", "MYAPP_MAX_RETRIES"),
        ])
    func suggestion(unknown: String, expected: String) {
        let index = VariableIndex(keys: [stringKey("new_checkout"), stringKey("max_retries")], prefix: "MYAPP_")
        #expect(index.suggestion(for: unknown)?.variable == expected)
    }

    @Test("no suggestion when nothing is close or two names are equally close")
    func noSuggestion() {
        let index = VariableIndex(keys: [stringKey("new_checkout"), stringKey("max_retries")], prefix: "MYAPP_")
        #expect(index.suggestion(for: "MYAPP_COMPLETELY_DIFFERENT") == nil)
        #expect(index.suggestion(for: "PATH") == nil)
        #expect(index.suggestion(for: "PS1") == nil)
        #expect(index.suggestion(for: "") == nil)
        #expect(index.suggestion(for: "OTHER_NEW_CHECKOUT") == nil)
        let twins = VariableIndex(keys: [stringKey("flag_a"), stringKey("flag_b")], prefix: "X_")
        #expect(twins.suggestion(for: "X_FLAG_C") == nil)
    }

    @Test("the closest of several close names is suggested")
    func closestWins() {
        let index = VariableIndex(keys: [stringKey("sample_rate"), stringKey("sample_rates_v2")], prefix: "APP_")
        #expect(index.suggestion(for: "APP_SAMPLE_RAT")?.key.name == "sample_rate")
        #expect(index.suggestion(for: "APP_SAMPLE_RATES_V3")?.key.name == "sample_rates_v2")
        let unprefixed = VariableIndex(keys: [stringKey("sample_rate")])
        #expect(unprefixed.suggestion(for: "SAMPEL_RATE")?.variable == "SAMPLE_RATE")
        #expect(unprefixed.suggestion(for: "RATE") == nil)
    }
}
