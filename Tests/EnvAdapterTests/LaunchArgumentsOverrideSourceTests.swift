import ConfigDomain
import ConfigPorts
import EnvAdapter
import Testing

@Suite("LaunchArgumentsOverrideSource")
struct LaunchArgumentsOverrideSourceTests {
    private let keys = [stringKey("new_checkout"), stringKey("max_retries"), stringKey("api.base-url")]

    private func snapshot(_ arguments: [String], prefix: String = "rc", keys: [KeyDescriptor]? = nil) -> OverrideSnapshot {
        LaunchArgumentsOverrideSource(arguments: ["/path/to/App"] + arguments, prefix: prefix).overrides(
            for: keys ?? self.keys)
    }

    @Test(
        "reads every documented form, with the flag as origin",
        arguments: [
            (["-rc.new_checkout", "true"], "-rc.new_checkout"),
            (["-rc.new_checkout=true"], "-rc.new_checkout"),
            (["--rc-new_checkout=true"], "--rc-new_checkout"),
            (["--rc-new_checkout", "true"], "--rc-new_checkout"),
            (["--rc-new-checkout=true"], "--rc-new-checkout"),
            (["-rc.newCheckout", "true"], "-rc.newCheckout"),
            (["-rc.NEW_CHECKOUT", "true"], "-rc.NEW_CHECKOUT"),
        ])
    func forms(arguments: [String], origin: String) {
        let result = LaunchArgumentsOverrideSource(arguments: ["/App"] + arguments).overrides(for: keys)
        #expect(result.values == ["new_checkout": OverrideValue(.text("true"), origin: origin)])
        #expect(result.problems.isEmpty)
    }

    @Test("a key with dots and dashes is matched exactly")
    func dottedKey() {
        let result = snapshot(["-rc.api.base-url", "https://staging.example.com/?a=b"])
        #expect(
            result.values["api.base-url"] == OverrideValue(.text("https://staging.example.com/?a=b"), origin: "-rc.api.base-url"))
    }

    @Test("the value after '=' may itself contain '=' and may be empty")
    func inlineValues() {
        let result = snapshot(["--rc-api.base-url=https://x.example/?a=b", "--rc-new_checkout="])
        #expect(text(of: "api.base-url", in: result) == "https://x.example/?a=b")
        #expect(text(of: "new_checkout", in: result) == "")
        #expect(result.problems.isEmpty)
    }

    @Test("a value that starts with a dash is still a value")
    func negativeValue() {
        #expect(text(of: "max_retries", in: snapshot(["-rc.max_retries", "-5"])) == "-5")
    }

    @Test("the first element, the executable path, is skipped")
    func skipsExecutablePath() {
        let result = LaunchArgumentsOverrideSource(arguments: ["-rc.new_checkout", "true"]).overrides(for: keys)
        #expect(result.values.isEmpty)
        #expect(result.problems.isEmpty)
        #expect(LaunchArgumentsOverrideSource(arguments: []).overrides(for: keys) == .empty)
    }

    @Test("Xcode's -NSFoo YES arguments and other flags are ignored")
    func ignoresOtherArguments() {
        let result = snapshot([
            "-NSDoubleLocalizedStrings", "YES", "-AppleLanguages", "(fr)", "--verbose", "-rc", "positional",
            "-rc.new_checkout", "false", "-rcx.max_retries", "3", "--rcmax_retries=3",
        ])
        #expect(result.values == ["new_checkout": OverrideValue(.text("false"), origin: "-rc.new_checkout")])
        #expect(result.problems.isEmpty)
    }

    @Test("a flag at the end has no value, which is a problem")
    func missingValueAtEnd() {
        let result = snapshot(["-rc.new_checkout"])
        #expect(result.values.isEmpty)
        #expect(result.problems == ["-rc.new_checkout has no value; write -rc.new_checkout <value> or -rc.new_checkout=<value>"])
    }

    @Test("a flag followed by another flag has no value, and the next flag is still read")
    func missingValueBeforeFlag() {
        let result = snapshot(["--rc-new_checkout", "-rc.max_retries", "4"])
        #expect(result.values == ["max_retries": OverrideValue(.text("4"), origin: "-rc.max_retries")])
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.hasPrefix("--rc-new_checkout has no value") == true)
    }

    @Test("a flag without a key name is a problem", arguments: [["-rc.", "x"], ["--rc-=x"], ["-rc.=x"]])
    func emptyKey(arguments: [String]) {
        let result = snapshot(arguments)
        #expect(result.values.isEmpty)
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.contains("names no key") == true)
    }

    @Test("an unknown key is a problem, with a hint when one registered key is close")
    func unknownKey() {
        let result = snapshot(["-rc.new_chekout", "true", "--rc-colour=red"])
        #expect(result.values.isEmpty)
        #expect(
            result.problems == [
                "-rc.new_chekout names no registered key; did you mean -rc.new_checkout (key \"new_checkout\")?",
                "--rc-colour names no registered key",
            ])
    }

    @Test("an exact key name wins over mapping; a name that matches several keys only after mapping is a problem")
    func exactAndAmbiguous() {
        let colliding = [stringKey("new_checkout"), stringKey("newCheckout")]
        let result = snapshot(["-rc.newCheckout", "1", "--rc-new-checkout", "2"], keys: colliding)
        #expect(result.values == ["newCheckout": OverrideValue(.text("1"), origin: "-rc.newCheckout")])
        #expect(
            result.problems == [
                "--rc-new-checkout matches keys \"newCheckout\", \"new_checkout\" after mapping; write the exact key name"
            ])
    }

    @Test("a key given twice is a problem, and the last one wins")
    func givenTwice() {
        let result = snapshot(["-rc.max_retries", "1", "--rc-max-retries=2"])
        #expect(result.values == ["max_retries": OverrideValue(.text("2"), origin: "--rc-max-retries")])
        #expect(
            result.problems == [
                "key \"max_retries\" is given twice, by -rc.max_retries and then --rc-max-retries; the last one wins"
            ])
    }

    @Test("nothing after a lone -- is read")
    func stopsAtDoubleDash() {
        let result = snapshot(["-rc.max_retries", "1", "--", "-rc.new_checkout", "true"])
        #expect(result.values.keys.sorted() == ["max_retries"])
        #expect(result.problems.isEmpty)
    }

    @Test("the prefix is configurable, and the default prefix is then ignored")
    func customPrefix() {
        let result = snapshot(["-myapp.max_retries", "7", "--myapp-new-checkout=no", "-rc.api.base-url", "x"], prefix: "myapp")
        #expect(
            result.values == [
                "max_retries": OverrideValue(.text("7"), origin: "-myapp.max_retries"),
                "new_checkout": OverrideValue(.text("no"), origin: "--myapp-new-checkout"),
            ])
    }

    @Test("reports only registered keys, and problems never contain values")
    func onlyRegisteredKeys() {
        let result = snapshot(
            ["-rc.new_checkout", "true", "-rc.secret_tokn", "sk_live_secret"],
            keys: [stringKey("new_checkout"), stringKey("secret_token")])
        #expect(result.values.keys.sorted() == ["new_checkout"])
        #expect(result.problems.count == 1)
        #expect(result.problems.allSatisfy { !$0.contains("sk_live_secret") })
        #expect(LaunchArgumentsOverrideSource().name == "launch arguments")
    }
}
