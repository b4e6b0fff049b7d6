import ConfigDomain
import Foundation
import Testing

/// The last good values survive a relaunch: three runs of `remote-config fetch` (real child processes, the
/// real HTTP adapter and file cache) against `remote-config serve`.
@Suite("Last good values across launches")
struct LastGoodRelaunchTests {
    private var manifest: String { CLIProcess.examples.appendingPathComponent("manifest.json").path }

    /// Every value of the example manifest, each one refused by its key's rules.
    private let everyValueRejected = """
        {"new_checkout": "yes", "max_retries": 99, "request_timeout": 0, "welcome_message": "", "theme": "neon",
         "api_base": "ftp://example.com", "beta_regions": 3, "retry_delays_ms": [], "analytics_key": "UPPER CASE"}
        """

    @Test("after a payload whose every value is rejected, an offline launch serves what the last run served")
    func offlineLaunchAfterRejectedPayload() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let example = try String(contentsOf: CLIProcess.examples.appendingPathComponent("config.json"), encoding: .utf8)
        let file = try scratch.write("config.json", example)
        let cache = scratch.path("cache")
        let url = try await CLIServer.with([file.path, "--port", "0"]) { server in
            let first = try await CLIProcess.runJSON(["fetch", server.url(), "--cache-dir", cache, "--keys", manifest])
            #expect(first.outcome.status == 0, "stderr: \(first.outcome.standardError)")
            #expect(row("max_retries", in: first.json)?["value"] == 5)
            #expect(row("max_retries", in: first.json)?["from"] == "remote")

            try scratch.write("config.json", everyValueRejected)
            let second = try await CLIProcess.runJSON(["fetch", server.url(), "--cache-dir", cache, "--keys", manifest])
            #expect(second.json["status"] == 200, "the server served the new file: \(second.outcome.standardOutput)")
            #expect(second.outcome.status == 1, "every value was rejected: the refresh failed")
            #expect(row("max_retries", in: second.json)?["value"] == 5)
            #expect(row("max_retries", in: second.json)?["from"] == "last good remote")
            #expect(row("max_retries", in: second.json)?["rejected"]?.arrayValue?.isEmpty == false)
            return server.url()
        }

        // The server has stopped: this launch is offline, with the rejected payload as the cache's newest.
        let offline = try await CLIProcess.runJSON(["fetch", url, "--cache-dir", cache, "--keys", manifest])
        #expect(offline.json["cache"]?["before"] == "hit")
        let expected: [(String, ConfigValue)] = [("max_retries", 5), ("theme", "dark"), ("request_timeout", 12.5), ("new_checkout", true)]
        for (key, value) in expected {
            #expect(row(key, in: offline.json)?["value"] == value, "\(key): \(offline.outcome.standardOutput)")
            #expect(row(key, in: offline.json)?["from"] == "last good remote", "\(key)")
        }
    }

    /// The row of `key` in a `fetch --json` report.
    private func row(_ key: String, in json: ConfigValue) -> ConfigValue? {
        json["values"]?.arrayValue?.first { $0["key"] == .string(key) }
    }
}
