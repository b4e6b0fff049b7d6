import ConfigDomain
import ConfigPorts
import EnvAdapter
import Testing

@Suite("changes(for:) of the fixed sources")
struct OverrideChangesTests {
    private let keys = [stringKey("new_checkout")]

    @Test("the environment source yields its current overrides once, then finishes")
    func environment() async {
        let source = EnvironmentOverrideSource(prefix: "MYAPP_", environment: ["MYAPP_NEW_CHECKOUT": "true"])
        let yielded = await collect(source.changes(for: keys))
        #expect(yielded == [source.overrides(for: keys)])
        #expect(yielded.first?.values["new_checkout"]?.origin == "MYAPP_NEW_CHECKOUT")
    }

    @Test("the launch-arguments source yields its current overrides once, then finishes")
    func launchArguments() async {
        let source = LaunchArgumentsOverrideSource(arguments: ["/App", "-rc.new_checkout", "true"])
        let yielded = await collect(source.changes(for: keys))
        #expect(yielded == [source.overrides(for: keys)])
        #expect(yielded.first?.values["new_checkout"]?.origin == "-rc.new_checkout")
    }

    @Test("the .env source yields its current overrides once, then finishes")
    func dotEnv() async {
        let source = DotEnvOverrideSource(contents: "NEW_CHECKOUT=true\nBROKEN")
        let yielded = await collect(source.changes(for: keys))
        #expect(yielded == [source.overrides(for: keys)])
        #expect(yielded.first?.problems.count == 1)
    }
}
