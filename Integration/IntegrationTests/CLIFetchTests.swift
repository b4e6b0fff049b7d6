import ConfigDomain
import FileCacheAdapter
import Foundation
import Testing

/// `remote-config fetch` against `remote-config serve`, both real child processes.
@Suite("remote-config fetch through the real HTTP adapter, client and file cache")
struct CLIFetchTests {
    private var manifest: String { CLIProcess.examples.appendingPathComponent("manifest.json").path }

    private func exampleConfig() throws -> String {
        try String(contentsOf: CLIProcess.examples.appendingPathComponent("config.json"), encoding: .utf8)
    }

    @Test("with --cache-dir, the first fetch is a miss that stores, the next a 304 renewal, and --skip-if-fresh makes no request")
    func cacheMissThenRenewal() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let file = try scratch.write("config.json", try exampleConfig())
        let cache = scratch.path("cache")
        try await CLIServer.with([file.path, "--port", "0"]) { server in
            let first = try await CLIProcess.runJSON(["fetch", server.url(), "--cache-dir", cache])
            #expect(first.outcome.status == 0, "stderr: \(first.outcome.standardError)")
            #expect(first.json["status"] == 200)
            #expect(first.json["outcome"] == "modified")
            #expect(first.json["bytes"] == .int(Int64(try exampleConfig().utf8.count)))
            #expect(first.json["cache"]?["before"] == "miss")
            #expect(first.json["cache"]?["action"] == "stored the new payload")
            let etag = try #require(first.json["validators"]?["etag"]?.stringValue)

            let second = try await CLIProcess.runJSON(["fetch", server.url(), "--cache-dir", cache])
            #expect(second.outcome.status == 0)
            #expect(second.json["status"] == 304)
            #expect(second.json["sent"]?["etag"] == .string(etag), "the cached validators are sent")
            #expect(second.json["cache"]?["before"] == "hit")
            #expect(second.json["cache"]?["action"]?.stringValue?.hasPrefix("renewed by the 304") == true)
            #expect(second.json["values"]?.arrayValue?.count == 10, "the values come from the cache")

            let third = try await CLIProcess.runJSON(["fetch", server.url(), "--cache-dir", cache, "--skip-if-fresh"])
            #expect(third.json["outcome"] == "skipped")
            #expect(third.json["status"] == .null)

            let requests = server.output.split(separator: "\n").filter { $0.contains("GET /config.json ->") }
            #expect(requests.count == 2, "the skipped fetch made no request:\n\(server.output)")
            #expect(requests.last?.contains("-> 304 Not Modified") == true)
        }
    }

    @Test("the text output shows the status, the validators and a table of typed values with their provenance")
    func textOutputWithManifest() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let file = try scratch.write("config.json", try exampleConfig())
        try await CLIServer.with([file.path, "--port", "0"]) { server in
            let outcome = try await CLIProcess.run(["fetch", server.url(), "--keys", manifest])
            #expect(outcome.status == 0, "stderr: \(outcome.standardError)")
            let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
            #expect(lines.first == "GET \(server.url())")
            #expect(lines.contains { $0.hasPrefix("200 OK  379 B in ") && $0.hasSuffix("(unconditional request)") })
            #expect(lines.contains { $0.hasPrefix("  etag           \"") })
            #expect(lines.contains { $0.hasPrefix("  content-type   application/json") })
            #expect(lines.contains { $0.hasPrefix("KEY") && $0.contains("TYPE") && $0.contains("VALUE") && $0.hasSuffix("FROM") })
            func row(_ key: String) -> [String]? {
                lines.first { $0.hasPrefix(key + " ") }?.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            }
            #expect(row("max_retries") == ["max_retries", "int", "5", "remote"])
            #expect(row("theme") == ["theme", "string", "\"dark\"", "remote"])
            #expect(row("analytics_key") == ["analytics_key", "string", "<redacted>", "remote"])
            #expect(!outcome.standardOutput.contains("demo_key_4f9a2c"), "a secret key's value is never printed")
        }
    }

    @Test("values a rule rejects are shown with the rule and reason, and the key falls back to its default")
    func rejectionsAndProvenance() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let file = try scratch.write(
            "config.json", #"{"new_checkout": true, "max_retries": 42, "theme": "blue", "surprise": 1}"#)
        try await CLIServer.with([file.path, "--port", "0"]) { server in
            let (outcome, json) = try await CLIProcess.runJSON(["fetch", server.url(), "--keys", manifest])
            #expect(outcome.status == 1, "rejected values are a problem the tool reports")
            let rows = try #require(json["values"]?.arrayValue)
            func row(_ key: String) -> ConfigValue? { rows.first { $0["key"] == .string(key) } }
            #expect(row("new_checkout")?["value"] == true)
            #expect(row("new_checkout")?["from"] == "remote")
            #expect(row("max_retries")?["value"] == 3)
            #expect(row("max_retries")?["from"] == "default")
            #expect(row("max_retries")?["rejected"]?.element(0)?["rule"] == "range(0...10)")
            #expect(row("max_retries")?["rejected"]?.element(0)?["reason"] == "42 is outside 0...10")
            #expect(row("theme")?["rejected"]?.element(0)?["reason"] == "blue is not one of light, dark, system")
            #expect(row("welcome_message")?["from"] == "default", "a key missing from the payload uses its default")
            #expect(row("surprise")?["declared"] == false)

            let text = try await CLIProcess.run(["fetch", server.url(), "--keys", manifest])
            #expect(text.standardOutput.contains("  max_retries: value 42 rejected by range(0...10): 42 is outside 0...10"))
            #expect(text.standardOutput.contains("Not in the manifest (the app ignores them): surprise"))
        }
    }

    @Test(
        "a simulated failure reaches fetch as a typed error with retry advice, exit status 1 and one error line",
        arguments: [
            (["--status", "503", "--retry-after", "30"], "rateLimited", 503, "after"),
            (["--status", "500"], "httpStatus", 500, "backoff"),
            (["--status", "404"], "httpStatus", 404, "doNotRetry"),
            (["--truncate"], "truncatedBody", nil, "backoff"),
        ] as [([String], String, Int?, String)])
    func typedErrors(_ flags: [String], _ kind: String, _ status: Int?, _ retry: String) async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let file = try scratch.write("config.json", try exampleConfig())
        try await CLIServer.with([file.path, "--port", "0"] + flags) { server in
            let (outcome, json) = try await CLIProcess.runJSON(["fetch", server.url()])
            #expect(outcome.status == 1)
            #expect(json["outcome"] == "error")
            #expect(json["error"]?["kind"] == .string(kind))
            #expect(json["error"]?["status"] == (status.map { .int(Int64($0)) } ?? .null))
            #expect(json["error"]?["retry"] == .string(retry))
            if retry == "after" { #expect(json["error"]?["retryAfter"]?.stringValue != nil) }
            #expect(outcome.standardError.hasPrefix("error: fetch failed: "))
            #expect(outcome.standardError.split(separator: "\n").count == 1)

            let text = try await CLIProcess.run(["fetch", server.url()])
            let expected = "error  \(kind)" + (status.map { " (HTTP \($0))" } ?? "")
            #expect(text.standardOutput.contains(expected), "output: \(text.standardOutput)")
        }
    }

    @Test("when the server is gone, fetch fails with a transport error and still shows the cached values")
    func serverGoneServesCache() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let file = try scratch.write("config.json", try exampleConfig())
        let cache = scratch.path("cache")
        let server = try await CLIServer.start([file.path, "--port", "0"])
        let url = server.url()
        let stored = try await CLIProcess.run(["fetch", url, "--cache-dir", cache])
        await server.stop()
        #expect(stored.status == 0)
        let (outcome, json) = try await CLIProcess.runJSON(["fetch", url, "--cache-dir", cache, "--keys", manifest])
        #expect(outcome.status == 1)
        #expect(json["error"]?["kind"] == "transport")
        #expect(json["cache"]?["before"] == "hit")
        #expect(json["cache"]?["action"] == "kept: reads still get the cached values")
        let rows = try #require(json["values"]?.arrayValue)
        #expect(rows.first { $0["key"] == "max_retries" }?["value"] == 5)
        #expect(rows.first { $0["key"] == "max_retries" }?["from"] == "remote")
    }

    @Test("a plain-HTTP URL to another host is refused before any request, with exit status 2")
    func insecureURL() async throws {
        let outcome = try await CLIProcess.run(["fetch", "http://config.example.com/config.json"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.hasPrefix("error: HTTPFetcher:"))
        #expect(outcome.standardError.split(separator: "\n").count == 1)
    }

    @Test("an invalid manifest stops fetch before any request, with exit status 2")
    func invalidManifest() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let bad = try scratch.write("manifest.json", #"{"keys": [{"name": "a", "type": "boolean", "default": true}]}"#)
        let outcome = try await CLIProcess.run(["fetch", "http://127.0.0.1:9/config.json", "--keys", bad.path])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.contains("unknown type \"boolean\""))
    }

    @Test("a fetch whose payload has one rejected value exits 1, names the key, and shows the layer served instead")
    func rejectedValueExitsOne() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let config = try exampleConfig().replacingOccurrences(of: "\"max_retries\": 5", with: "\"max_retries\": 42")
        let file = try scratch.write("config.json", config)
        try await CLIServer.with([file.path, "--port", "0"]) { server in
            let outcome = try await CLIProcess.run(["fetch", server.url(), "--keys", manifest])
            #expect(outcome.status == 1, "stdout: \(outcome.standardOutput)")
            #expect(outcome.standardError.contains("1 key(s) had a value rejected (max_retries)"), "\(outcome.standardError)")
            #expect(outcome.standardOutput.contains("max_retries"))
        }
    }

}
