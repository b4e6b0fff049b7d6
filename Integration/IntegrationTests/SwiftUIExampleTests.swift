import Foundation
import TestSupport
import Testing

/// The SwiftUI-shaped example (`Integration/Examples/SwiftUIApp`), run headless as a real process.
@Suite("SwiftUI example, headless")
struct SwiftUIExampleTests {
    /// Runs the example with its servers and a cache folder of its own.
    func runExample(main: URL, experiments: URL) async throws -> ChildProcess.Outcome {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("swiftui-example-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        var environment = ProcessInfo.processInfo.environment
        environment["EXAMPLE_MAIN_URL"] = main.absoluteString
        environment["EXAMPLE_EXPERIMENTS_URL"] = experiments.absoluteString
        environment["EXAMPLE_CACHE_DIRECTORY"] = cache.path
        let outcome = try await ChildProcess.run(
            try BuiltProducts.executable(named: "SwiftUIExample"), arguments: [], environment: environment,
            currentDirectory: FileManager.default.temporaryDirectory)
        #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
        return outcome
    }

    @Test("offline, a first launch shows the shipped defaults file and Settings.bundle, each named")
    func offline() async throws {
        try await TestHTTPServer.with { server in
            let outcome = try await runExample(main: server.url("/absent.json"), experiments: server.url("/absent.json"))
            let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.contains("new_checkout = true (DEFAULT) from bundled defaults defaults.plist"))
            #expect(lines.contains("max_retries = 5 (DEFAULT) from bundled defaults Settings.bundle"))
            #expect(lines.contains("before refresh: new checkout true, attempts 6"))
            #expect(lines.contains { $0.hasPrefix("after set: theme dark [from override user settings (user settings:theme)") })
            #expect(lines.contains { $0.hasPrefix("provider default: failed:") })
            #expect(lines.contains { $0.hasPrefix("provider experiments: failed:") })
        }
    }

    @Test("with the main server up and the experiments server down, the main values apply and only experiments fails")
    func oneProviderDown() async throws {
        try await TestHTTPServer.with { server in
            server.publish(#"{"max_retries": 2, "banner_text": "From the server"}"#)
            let outcome = try await runExample(main: server.url(), experiments: server.url("/experiments.json"))
            let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.contains("max_retries = 2 (STATIC) from snapshot \(server.url().absoluteString)"), "\(lines)")
            #expect(lines.contains("banner_text = \"From the server\" (STATIC) from snapshot \(server.url().absoluteString)"))
            #expect(lines.contains("new_checkout = true (DEFAULT) from bundled defaults defaults.plist"))
            #expect(lines.contains("provider default: ok"))
            #expect(lines.contains { $0.hasPrefix("provider experiments: failed:") })
        }
    }
}
