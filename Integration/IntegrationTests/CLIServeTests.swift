import ConfigDomain
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `remote-config serve` as a real child process, checked with plain HTTP requests.
@Suite("remote-config serve, a development config server in a child process")
struct CLIServeTests {
    private func exampleConfig() throws -> String {
        try String(contentsOf: CLIProcess.examples.appendingPathComponent("config.json"), encoding: .utf8)
    }

    @Test("a served file has a strong ETag, Last-Modified and a JSON type, and a matching validator gets 304")
    func validatorsAndNotModified() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let text = try exampleConfig()
        let file = try scratch.write("config.json", text)
        try await CLIServer.with([file.path, "--port", "0"]) { server in
            let first = try await CLIHTTPClient.get(server.url())
            #expect(first.status == 200)
            #expect(first.text == text)
            #expect(first.header("Content-Type") == "application/json")
            let etag = try #require(first.header("ETag"))
            #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""), "a strong ETag is quoted and has no W/ prefix: \(etag)")
            let lastModified = try #require(first.header("Last-Modified"))
            #expect(lastModified.hasSuffix(" GMT"))

            let byTag = try await CLIHTTPClient.get(server.url(), headers: ["If-None-Match": etag])
            #expect(byTag.status == 304)
            #expect(byTag.body.isEmpty)
            #expect(byTag.header("ETag") == etag)

            let byWeakTag = try await CLIHTTPClient.get(server.url(), headers: ["If-None-Match": "\"other\", W/\(etag)"])
            #expect(byWeakTag.status == 304, "If-None-Match compares weakly and accepts a list")

            let byDate = try await CLIHTTPClient.get(server.url(), headers: ["If-Modified-Since": lastModified])
            #expect(byDate.status == 304)

            let otherTag = try await CLIHTTPClient.get(server.url(), headers: ["If-None-Match": "\"something-else\""])
            #expect(otherTag.status == 200)
            #expect(otherTag.text == text)

            let root = try await CLIHTTPClient.get(server.url("/"))
            #expect(root.status == 200 && root.header("ETag") == etag, "a single file is also served at /")

            let logged = await server.waitForLine { $0.contains("-> 304 Not Modified") && $0.contains("if-modified-since") }
            #expect(logged != nil, "each request is logged with its status and validators:\n\(server.output)")
            #expect(server.output.contains("GET /config.json -> 200 OK  etag \(etag)"))
        }
    }

    @Test("a file that is not valid JSON is refused with the byte offset, and the last good version is still served")
    func refusesInvalidJSON() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let good = #"{"theme": "dark", "max_retries": 5}"#
        let file = try scratch.write("config.json", good)
        try await CLIServer.with([file.path, "--port", "0"]) { server in
            let first = try await CLIHTTPClient.get(server.url())
            let etag = try #require(first.header("ETag"))

            try scratch.write("config.json", "{\n  \"theme\": \"dark\",\n  \"max_retries\": \n}")
            let during = try await CLIHTTPClient.get(server.url())
            #expect(during.status == 200)
            #expect(during.text == good, "the last good version keeps being served")
            #expect(during.header("ETag") == etag)
            let refusal = await server.waitForLine { $0.hasPrefix("Refused /config.json") }
            let line = try #require(refusal, "output:\n\(server.output)")
            #expect(line.contains("not valid JSON at byte 39 (line 4, column 1): unexpected character '}'"))
            #expect(line.contains("still serving the last good version (etag \(etag))"))

            let fixed = #"{"theme": "light"}"#
            try scratch.write("config.json", fixed)
            let after = try await CLIHTTPClient.get(server.url(), headers: ["If-None-Match": etag])
            #expect(after.status == 200)
            #expect(after.text == fixed)
            #expect(after.header("ETag") != etag)
            #expect(await server.waitForLine { $0.hasPrefix("Reloaded /config.json") } != nil)
        }
    }

    @Test("a single file invalid from the start is refused: serve exits 1 with the line and column, and never listens")
    func invalidFromTheStart() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let file = try scratch.write("config.json", #"{"theme": "dark",}"#)
        let outcome = try await CLIProcess.run(["serve", file.path, "--port", "0"])
        #expect(outcome.status == 1)
        #expect(
            outcome.standardError.hasPrefix(
                "error: cannot serve \(file.path): not valid JSON at byte 16 (line 1, column 17): a comma before the closing"),
            "\(outcome.standardError)")
        #expect(!outcome.standardOutput.contains("Serving "), "it never started: \(outcome.standardOutput)")
    }

    @Test("a file in a folder that is invalid from the start answers 503 with the reason until it is fixed")
    func invalidInAFolderFromTheStart() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        try scratch.write("configs/config.json", #"{"theme": "dark",}"#)
        try await CLIServer.with([scratch.path("configs"), "--port", "0"]) { server in
            #expect(await server.waitForLine { $0.hasPrefix("Reloads when a file changes") } != nil, "the banner ends")
            #expect(
                server.output.contains(
                    "Refused /config.json: not valid JSON at byte 16 (line 1, column 17): a comma before the closing"))
            #expect(server.output.contains("nothing is served at this path until the file is fixed"))
            #expect(!server.output.contains(server.url("/config.json")), "the banner lists only URLs that answer")
            let before = try await CLIHTTPClient.get(server.url("/config.json"))
            #expect(before.status == 503)
            #expect(before.text.contains("not valid JSON at byte 16"))
            try scratch.write("configs/config.json", #"{"theme": "dark"}"#)
            let after = try await CLIHTTPClient.get(server.url("/config.json"))
            #expect(after.status == 200)
            #expect(after.text == #"{"theme": "dark"}"#)
        }
    }

    @Test("a folder serves each *.json file at /<name>.json, and a 404 names what exists")
    func servesAFolder() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        try scratch.write("configs/ios.json", #"{"platform": "ios"}"#)
        try scratch.write("configs/android.json", #"{"platform": "android"}"#)
        try scratch.write("configs/notes.txt", "not served")
        try await CLIServer.with([scratch.path("configs"), "--port", "0"]) { server in
            #expect(try await CLIHTTPClient.get(server.url("/ios.json")).text == #"{"platform": "ios"}"#)
            #expect(try await CLIHTTPClient.get(server.url("/android.json")).text == #"{"platform": "android"}"#)
            let missing = try await CLIHTTPClient.get(server.url("/notes.txt"))
            #expect(missing.status == 404)
            #expect(missing.text.contains("/android.json, /ios.json"))
            #expect(server.output.contains(server.url("/ios.json")), "every document's URL is printed at start")
        }
    }

    @Test("--status with --retry-after answers every request with that status and header")
    func simulatedStatus() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let file = try scratch.write("config.json", try exampleConfig())
        try await CLIServer.with([file.path, "--port", "0", "--status", "503", "--retry-after", "30"]) { server in
            let response = try await CLIHTTPClient.get(server.url())
            #expect(response.status == 503)
            #expect(response.header("Retry-After") == "30")
            // Standard error and standard output are read by separate threads: wait for the line.
            #expect(
                await server.waitForLine { $0.contains("Simulating trouble: every request gets status 503 with Retry-After 30.") }
                    != nil)
            #expect(
                await server.waitForLine { $0.contains("-> 503 Service Unavailable") && $0.contains("simulated status 503") }
                    != nil)
        }
    }

    @Test("--fail-rate with the same --seed fails the same requests")
    func failRateIsRepeatable() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let file = try scratch.write("config.json", #"{"a": 1}"#)
        func statuses(_ seed: [String]) async throws -> (statuses: [Int], output: String) {
            try await CLIServer.with([file.path, "--port", "0", "--fail-rate", "0.5"] + seed) { server in
                var result: [Int] = []
                for _ in 0..<16 { result.append(try await CLIHTTPClient.get(server.url()).status) }
                return (result, server.output)
            }
        }
        let first = try await statuses(["--seed", "42"])
        let second = try await statuses(["--seed", "42"])
        #expect(first.statuses == second.statuses)
        #expect(first.statuses.contains(500) && first.statuses.contains(200), "about half fail with 500: \(first.statuses)")
        #expect(first.output.contains("50% of requests get status 500 (seed 42; pass --seed 42 to repeat)."))

        // Without --seed, the seed printed at start repeats the run.
        let unseeded = try await statuses([])
        let printed = try #require(unseeded.output.range(of: "pass --seed ").map { unseeded.output[$0.upperBound...] })
        let seed = String(printed.prefix { $0.isNumber })
        let repeated = try await statuses(["--seed", seed])
        #expect(unseeded.statuses == repeated.statuses)
    }

    @Test(
        "serve stops cleanly on SIGTERM and on SIGINT, even when started with both signals blocked",
        arguments: [(SIGTERM, false), (SIGINT, false), (SIGTERM, true), (SIGINT, true)])
    func stopsOnSignal(_ signal: Int32, _ blocked: Bool) async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let file = try scratch.write("config.json", #"{"a": 1}"#)
        let server = try await CLIServer.start([file.path, "--port", "0"], blockingSignals: blocked)
        _ = try await CLIHTTPClient.get(server.url())
        let status = await server.stop(signal: signal)
        #expect(!server.wasKilledBySignal, "serve had to be killed:\n\(server.output)")
        #expect(status == 0)
        #expect(server.output.contains("Stopping (\(signal == SIGTERM ? "SIGTERM" : "SIGINT"))…"))
        #expect(server.output.hasSuffix("Stopped."))
    }

    #if os(Linux)
        @Test("the harness really starts a child with SIGTERM and SIGINT blocked")
        func harnessBlocksSignals() async throws {
            let child = try ChildProcess(
                URL(fileURLWithPath: "/bin/sleep"), arguments: ["30"], blocking: CLIServer.blockedSignals)
            let read = Result { try String(contentsOfFile: "/proc/\(child.pid)/status", encoding: .utf8) }
            _ = await child.kill()
            let status = try read.get()
            let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("SigBlk:") })
            let mask = try #require(UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16))
            #expect(mask & (1 << UInt64(SIGTERM - 1)) != 0)
            #expect(mask & (1 << UInt64(SIGINT - 1)) != 0)
        }
    #endif

    @Test("a port in use is one error line naming the port, with exit status 2")
    func portInUse() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let file = try scratch.write("config.json", #"{"a": 1}"#)
        try await CLIServer.with([file.path, "--port", "0"]) { server in
            let port = try #require(server.baseURL.split(separator: ":").last.map(String.init))
            let second = try await CLIProcess.run(["serve", file.path, "--port", port])
            #expect(second.status == 2)
            #expect(second.standardError.hasPrefix("error: cannot listen on 127.0.0.1:\(port)"))
            #expect(second.standardError.contains("--port 0"))
            #expect(second.standardError.split(separator: "\n").count == 1)
        }
    }

    @Test(
        "wrong serve arguments are refused before starting",
        arguments: [
            (["--retry-after", "30"], 64, "--retry-after needs --status"),
            (["--status", "503", "--truncate"], 64, "use either --status or --truncate"),
            (["--fail-rate", "1.5"], 64, "--fail-rate must be a fraction from 0 to 1"),
            (["--status", "200"], 64, "--status must be an HTTP status"),
        ])
    func refusesBadArguments(_ extra: [String], _ expectedStatus: Int32, _ message: String) async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let file = try scratch.write("config.json", #"{"a": 1}"#)
        let outcome = try await CLIProcess.run(["serve", file.path, "--port", "0"] + extra)
        #expect(outcome.status == expectedStatus)
        #expect(outcome.standardError.contains(message), "stderr: \(outcome.standardError)")
    }

    @Test("serving a path that does not exist is one error line with exit status 2")
    func missingPath() async throws {
        let outcome = try await CLIProcess.run(["serve", "/nonexistent/\(UUID().uuidString).json", "--port", "0"])
        #expect(outcome.status == 2)
        #expect(outcome.standardError.hasPrefix("error: nothing to serve at /nonexistent/"))
        #expect(outcome.standardError.split(separator: "\n").count == 1)
    }

    @Test("serve warns, when it loads one, about a file over the 2 MiB an app accepts")
    func warnsAboutLargeFiles() async throws {
        let scratch = try CLIScratch()
        defer { scratch.remove() }
        let padding = String(repeating: "x", count: 2 * 1024 * 1024)
        let file = try scratch.write("config.json", #"{"padding": "\#(padding)"}"#)
        try await CLIServer.with([file.path, "--port", "0"]) { server in
            let warning = await server.waitForLine { $0.contains("Warning") && $0.contains("/config.json") }
            #expect(warning?.contains("clients refuse it") == true, "output:\n\(server.output.prefix(2000))")
        }
    }

}
