import ConfigDomain
import Foundation
import Testing

/// Starts `OverridePrinterFixture` as a real child process with real environment variables, real
/// arguments and a real `.env` file, and checks every line it prints.
@Suite("Environment, argument and .env overrides in a real child process")
struct EnvOverridesIntegrationTests {
    /// The fixture's `theme` type, mirrored (same name, same cases) to compute the rejection it prints.
    private enum Theme: String, CaseIterable, Sendable {
        case light, dark
    }

    /// A fresh directory for one test's files, removed by ``remove()``.
    private struct Scratch {
        let url: URL

        init() throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("EnvOverrides-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }

        func write(_ name: String, _ contents: String) throws -> URL {
            let file = url.appendingPathComponent(name)
            try Data(contents.utf8).write(to: file)
            return file
        }

        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    /// Runs the fixture and returns its output lines parsed as JSON, after checking it exited cleanly.
    private func runFixture(arguments: [String], environment: [String: String], in scratch: Scratch) async throws
        -> (lines: [ConfigValue], text: String)
    {
        let fixture = try BuiltProducts.executable(named: "OverridePrinterFixture")
        let outcome = try await ChildProcess.run(
            fixture, arguments: arguments, environment: environment, currentDirectory: scratch.url)
        #expect(!outcome.timedOut, "the fixture did not exit on its own")
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        #expect(outcome.standardError.isEmpty)
        let lines = try outcome.standardOutput.split(separator: "\n").map { try JSONParser().parse(String($0)) }
        return (lines, outcome.standardOutput)
    }

    private func keyLine(_ name: String, _ value: ConfigValue, _ origin: String, rejection: Rejection? = nil) -> ConfigValue {
        [
            "name": .string(name), "value": value, "origin": .string(origin),
            "rejection": rejection.map { .string($0.description) } ?? .null,
        ]
    }

    private func problemLine(_ source: String, _ problem: String) -> ConfigValue {
        ["source": .string(source), "problem": .string(problem)]
    }

    /// The rejection `key` gives `text` from `origin`, computed by the domain rather than copied.
    private func rejection<Value>(_ key: ConfigKey<Value>, _ text: String, from origin: String) throws -> Rejection {
        guard case .failure(let rejection) = key.resolve(text: text, origin: origin) else {
            throw ChildProcess.LaunchError(description: "\(text) unexpectedly passes \(key.name)")
        }
        return rejection
    }

    @Test("arguments win over the environment, which wins over .env, which wins over defaults, each with its exact origin")
    func precedence() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let dotEnv = try scratch.write(
            "fixture.env",
            """
            # overrides for the fixture
            NEW_CHECKOUT=no
            MAX_RETRIES=1
            export THEME="dark"
            API_TOKEN='tok_abcd1234'

            """)
        let arguments = [
            "-NSDoubleLocalizedStrings", "YES", "--env-file", dotEnv.path, "-rc.new_checkout", "true",
            #"--rc-tags=["beta","qa"]"#, "-rc.api.base-url", "https://staging.example.com/v2",
        ]
        let environment = [
            "MYAPP_NEW_CHECKOUT": "false", "MYAPP_MAX_RETRIES": "7", "MYAPP_BANNER": #"{"title":"Sale","color":"red"}"#,
        ]

        let (lines, _) = try await runFixture(arguments: arguments, environment: environment, in: scratch)

        #expect(
            lines == [
                keyLine("new_checkout", true, "-rc.new_checkout"),
                keyLine("max_retries", 7, "MYAPP_MAX_RETRIES"),
                keyLine("sample_rate", 0.5, "default"),
                keyLine("api.base-url", "https://staging.example.com/v2", "-rc.api.base-url"),
                keyLine("theme", "dark", "\(dotEnv.path):4"),
                keyLine("tags", ["beta", "qa"], "--rc-tags"),
                keyLine("banner", ["title": "Sale", "color": "red"], "MYAPP_BANNER"),
                keyLine("api_token", .string(Rejection.redacted), "\(dotEnv.path):5"),
            ])
    }

    @Test("a rejected value falls through to the next layer, secrets stay redacted, and every problem is printed")
    func rejectionsAndProblems() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let dotEnv = try scratch.write("fixture.env", "NEW_CHECKOUT=yes\r\nBROKEN LINE\r\nTHEME='dark\r\n")
        let arguments = ["--env-file", dotEnv.path, "-rc.max_retries", "42", "-rc.theme", "purple", "-rc.sample_rate"]
        let environment = ["MYAPP_MAX_RETRIES": "5", "MYAPP_API_TOKEN": "hunter2", "MYAPP_NEW_CHEKOUT": "true"]

        let (lines, text) = try await runFixture(arguments: arguments, environment: environment, in: scratch)

        let maxRetries = ConfigKey("max_retries", default: 3, rules: [.range(0...10)])
        let theme = ConfigKey("theme", default: Theme.light)
        let apiToken = ConfigKey("api_token", default: "", rules: [.pattern("tok_[a-z0-9]{8}")], secret: true)
        #expect(
            lines == [
                keyLine("new_checkout", true, "\(dotEnv.path):1"),
                keyLine(
                    "max_retries", 5, "MYAPP_MAX_RETRIES", rejection: try rejection(maxRetries, "42", from: "-rc.max_retries")),
                keyLine("sample_rate", 0.5, "default"),
                keyLine("api.base-url", "file:///unset", "default"),
                keyLine("theme", "light", "default", rejection: try rejection(theme, "purple", from: "-rc.theme")),
                keyLine("tags", [], "default"),
                keyLine("banner", ["title": "none", "color": "blue"], "default"),
                keyLine(
                    "api_token", .string(Rejection.redacted), "default",
                    rejection: try rejection(apiToken, "hunter2", from: "MYAPP_API_TOKEN")),
                problemLine(
                    "launch arguments", "-rc.sample_rate has no value; write -rc.sample_rate <value> or -rc.sample_rate=<value>"),
                problemLine(
                    "environment",
                    "MYAPP_NEW_CHEKOUT is set but overrides no registered key; did you mean MYAPP_NEW_CHECKOUT (key \"new_checkout\")?"
                ),
                problemLine(".env file", "\(dotEnv.path):2: expected NAME=VALUE but the line has no '='; line skipped"),
                problemLine(".env file", "\(dotEnv.path):3: the value of THEME has no closing single quote; line skipped"),
            ])
        #expect(!text.contains("hunter2"))
    }

    @Test("a missing .env file is reported and every key keeps its default")
    func missingDotEnvFile() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let absent = scratch.url.appendingPathComponent("absent.env")

        let (lines, _) = try await runFixture(arguments: ["--env-file", absent.path], environment: [:], in: scratch)

        #expect(
            lines == [
                keyLine("new_checkout", false, "default"),
                keyLine("max_retries", 3, "default"),
                keyLine("sample_rate", 0.5, "default"),
                keyLine("api.base-url", "file:///unset", "default"),
                keyLine("theme", "light", "default"),
                keyLine("tags", [], "default"),
                keyLine("banner", ["title": "none", "color": "blue"], "default"),
                keyLine("api_token", .string(Rejection.redacted), "default"),
                problemLine(".env file", "no .env file at \(absent.path); no overrides read from it"),
            ])
    }
}
