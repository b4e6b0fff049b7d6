import ConfigDomain
import EnvAdapter
import FileCacheAdapter
import Foundation
import HTTPAdapter
import RemoteConfig

/// The demo's story, step by step, on an embedded server and a file cache in a temporary folder.
///
/// It uses the real parts (FlyingFox on 127.0.0.1, `HTTPFetcher`, `FileSnapshotCache`,
/// `EnvironmentOverrideSource`, the client) and the real clock, with a one-second TTL so the
/// stale step takes about a second.
final class DemoStory {
    private let examples: ExampleFiles
    private let workspace: URL
    private let keepFiles: Bool
    private let say = Narrator()
    private var server: DevConfigServer?
    private var port: UInt16 = 0
    private var library: DocumentLibrary?

    /// The served copy of the example config.
    private var servedFile: URL { workspace.appendingPathComponent("served/config.json") }
    /// The file cache's folder.
    private var cacheDirectory: URL { workspace.appendingPathComponent("cache") }

    /// Seconds a snapshot stays fresh in the demo (short, so it goes stale while you watch).
    static let ttl: TimeInterval = 1

    init(examples: ExampleFiles, keepFiles: Bool) {
        self.examples = examples
        self.keepFiles = keepFiles
        workspace = FileManager.default.temporaryDirectory.appendingPathComponent(
            "remote-config-demo-\(UUID().uuidString.prefix(8))")
    }

    /// Runs every step, then cleans up, whatever happens.
    func run() async throws(CLIFailure) {
        do throws(CLIFailure) {
            try await tell()
            await cleanUp()
        } catch {
            await cleanUp()
            throw error
        }
    }

    private func cleanUp() async {
        if let server { await server.stop() }
        server = nil
        if !keepFiles { try? FileManager.default.removeItem(at: workspace) }
    }

    // MARK: The story

    private func tell() async throws(CLIFailure) {
        say.console.line(
            say.strong("remote-config demo")
                + ": the whole story of a remote config, end to end, on this machine only (127.0.0.1 and a temporary folder).")

        // 1. Validate.
        say.step(1, "Check the config before publishing it")
        let manifest: KeyManifest
        do throws(ManifestError) {
            manifest = try KeyManifest.load(path: examples.manifest.path)
        } catch {
            throw CLIFailure.input("the example manifest is invalid: \(error)")
        }
        let exampleBytes = try read(examples.config)
        say.say("The example config is checked against its key manifest, with the rules the app itself uses")
        say.say("(the same as `remote-config validate config.json --keys manifest.json` in CI).")
        let validation: ConfigValidation
        do throws(ConfigFileError) {
            validation = try ConfigValidation.check(exampleBytes, source: "config.json", manifest: manifest)
        } catch {
            throw CLIFailure.input("the example config is invalid: \(error)")
        }
        say.detail(
            say.good("OK")
                + ": \(manifest.keys.count) keys declared, \(validation.accepted.count) values accepted, \(validation.problems.count) rejected."
        )

        // 2. Server.
        say.step(2, "Start a config server")
        try prepareWorkspace(exampleBytes)
        let library = try DocumentLibrary(path: servedFile.path)
        self.library = library
        try await startServer(port: 0)
        let url = "http://127.0.0.1:\(port)/config.json"
        say.say("An embedded server serves a copy of the example config at \(say.strong(url)).")
        say.say("Each answer carries a strong ETag (a hash of the bytes) and a Last-Modified date.")

        // 3. Client, defaults.
        say.step(3, "Build a client with a file cache; read typed flags")
        guard let configURL = URL(string: url) else { throw CLIFailure.input("cannot form the URL \(url)") }
        let fetcher = try makeFetcher(configURL)
        let client = try buildClient(fetcher: fetcher, environment: [:])
        say.say(
            "The client caches snapshots in \(cacheDirectory.path); a snapshot is fresh for \(Int(Self.ttl)) s, then stale for up to an hour."
        )
        say.say("Nothing is cached yet and nothing was fetched, so every read returns its key's default:")
        showReads(client)

        // 4. First fetch.
        say.step(4, "Fetch the remote values")
        let first = try await refresh(client, fetcher: fetcher)
        if case .modified(let payload)? = first.exchange?.outcome {
            say.say(
                "The client fetched \(Formatting.bytes(payload.bytes.count)) (\(say.good("200 OK")), ETag \(payload.validators.etag ?? "none")) and stored them in the file cache."
            )
        }
        if let error = first.error { throw CLIFailure.problem("the first fetch failed: \(error)") }
        say.say("The same reads now return the remote values, already converted and checked:")
        showReads(client)

        // 5. 304.
        say.step(5, "Refresh again: 304 Not Modified")
        let second = try await refresh(client, fetcher: fetcher)
        if case .notModified? = second.exchange?.outcome, let sent = second.exchange?.sent.etag {
            say.say(
                "The client sent If-None-Match \(sent); the server answered \(say.good("304 Not Modified")): nothing was downloaded."
            )
            say.say("The snapshot's freshness was renewed, and the cache rewrote only its metadata, not the payload.")
        } else {
            throw CLIFailure.problem("expected a 304 on the second refresh")
        }

        // 6. Down, stale.
        say.step(6, "Take the server down: stale values are still served")
        await stopServer()
        say.say("The server is stopped.")
        await waitUntilStale(client)
        let failed = try await refresh(client, fetcher: fetcher)
        guard let failure = failed.error else { throw CLIFailure.problem("expected the refresh to fail with the server down") }
        say.say(
            "A refresh fails with a typed error: \(say.bad(failure.kindName)) (\(retryWords(failure))). Nothing is thrown at the reader:"
        )
        let explanation = client.details(DemoFlags.newCheckout)
        say.detail(
            "new_checkout = \(client[DemoFlags.newCheckout])  still the remote value the client held, now "
                + "\(explanation.freshness.map { say.notice($0.rawValue) } ?? "?"), \(Formatting.age(explanation.snapshotAge ?? 0)) old"
        )
        await client.stop()

        // 7. Relaunch with environment overrides.
        say.step(7, "Relaunch offline with environment overrides")
        let environment = ["DEMO_THEME": "system", "DEMO_MAX_RETRIES": "99"]
        say.say(
            "The app relaunches while the server is still down, with DEMO_THEME=system and DEMO_MAX_RETRIES=99 in its environment."
        )
        let relaunched = try buildClient(fetcher: fetcher, environment: environment)
        say.say(
            "Its first read already sees the values cached on disk; the environment wins where its value passes the key's rules:")
        showReads(relaunched)
        for rejection in relaunched.details(DemoFlags.maxRetries).rejected {
            say.detail(
                say.notice("rejected")
                    + " \(rejection.origin ?? rejection.key)=\(rejection.value): \(rejection.reason), so the cached value is used"
            )
        }

        // 8. Back up, streamed update.
        say.step(8, "Bring the server back: an update streams in")
        var updates = relaunched.watch(DemoFlags.welcomeMessage).makeAsyncIterator()
        if let current = await updates.next() {
            say.say("A listener subscribes to client.watch(welcome_message) and gets the current value at once:")
            say.detail("→ \"\(current)\"")
        }
        try edit { $0["welcome_message"] = "Spring is here: free shipping all week!" }
        say.say("Someone edits the served file: a new welcome message.")
        do throws(CLIFailure) {
            try await startServer(port: port)
        } catch {
            throw CLIFailure.problem("the demo could not restart its server on port \(port) (\(error.message)); run it again")
        }
        say.say("The server is back on the same port. The client refreshes:")
        let third = try await refresh(relaunched, fetcher: fetcher)
        if let error = third.error { throw CLIFailure.problem("the refresh after the restart failed: \(error)") }
        if case .updated(let changed)? = third.result {
            say.say(
                "\(say.good("200 OK")): \(changed.count) key changed (\(changed.joined(separator: ", "))), and the listener got the update:"
            )
        }
        if let next = await updates.next() { say.detail("→ \"\(next)\"") }

        // 9. Rejected by rule.
        say.step(9, "Publish a bad value: it is rejected by its rule")
        try edit { $0["max_retries"] = 50 }
        let badBytes = try read(servedFile)
        if case .success(let check) = Result(catching: { () throws(ConfigFileError) -> ConfigValidation in
            try ConfigValidation.check(badBytes, source: "config.json", manifest: manifest)
        }), let problem = check.problems.first {
            say.say("Someone publishes max_retries = 50. `remote-config validate` would have refused it:")
            say.detail(
                say.bad("error") + "  \(problem.key): value \(problem.value) rejected by \(problem.rule): \(problem.reason)")
        }
        say.say("The client refreshes anyway. The payload is accepted, but that one value is not:")
        let fourth = try await refresh(relaunched, fetcher: fetcher)
        if let error = fourth.error { throw CLIFailure.problem("the refresh with a bad value failed: \(error)") }
        let retries = relaunched.details(DemoFlags.maxRetries)
        say.detail("max_retries = \(relaunched[DemoFlags.maxRetries])  from the \(retries.layer.shortName)")
        for rejection in retries.rejected {
            say.detail(say.notice("rejected") + " \(rejection.value) from \(rejection.origin ?? "?"): \(rejection.reason)")
        }

        // 10. Broken file.
        say.step(10, "Break the file: the server refuses it, the app never sees it")
        try write(Data("{\n  \"max_retries\": 5,\n  \"theme\": \"dark\"\n".utf8), to: servedFile)
        say.say("The served file is saved half-written (not valid JSON).")
        let fifth = try await refresh(relaunched, fetcher: fetcher)
        if case .notModified? = fifth.exchange?.outcome {
            say.say("The server kept serving the last good version, so the client's refresh got \(say.good("304 Not Modified")).")
        }
        say.say("Every read still returns a valid value: welcome_message = \"\(relaunched[DemoFlags.welcomeMessage])\".")
        try await TargetingStep(say: say).run(number: 11)
        await relaunched.stop()
        await stopServer()

        try await SignedConfigDemo(say: say, config: exampleBytes, workspace: workspace).tell(step: 12)

        say.console.line()
        let seconds = Date().timeIntervalSince(say.start)
        say.console.line(say.good("Done") + " in \(String(format: "%.1f", seconds)) s. Everything ran on 127.0.0.1.")
        if keepFiles {
            say.console.line("The files are kept in \(workspace.path); try: remote-config inspect \(cacheDirectory.path)")
        }
        say.console.line(
            "Next: serve your own config with `remote-config serve config.json` and point an HTTPFetcher at the URL it prints.")
    }

    // MARK: Steps' parts

    private func prepareWorkspace(_ bytes: Data) throws(CLIFailure) {
        do {
            try FileManager.default.createDirectory(at: servedFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw CLIFailure.input("cannot create the demo folder \(workspace.path): \(FileProblem.describe(error))")
        }
        try write(bytes, to: servedFile)
    }

    private func startServer(port requested: UInt16) async throws(CLIFailure) {
        guard let library else { return }
        let narrator = say
        let started = try await DevConfigServer.start(
            library: library, port: requested, pollInterval: 3600,
            onChange: { changes in
                for change in changes {
                    switch change {
                    case .loaded: break
                    case .reloaded(let document):
                        narrator.server("reloaded \(document.path): new version, etag \(document.etag)")
                    case .refused(let path, let reason, let kept):
                        narrator.server("refused \(path): \(reason); still serving etag \(kept?.etag ?? "none")")
                    case .removed(let path):
                        narrator.server("removed \(path)")
                    }
                }
            },
            onRequest: { record in narrator.server(record.logLine()) })
        server = started
        port = started.port
    }

    private func stopServer() async {
        if let server { await server.stop() }
        server = nil
    }

    private func makeFetcher(_ url: URL) throws(CLIFailure) -> RecordingFetcher {
        do throws(ConfigurationError) {
            return RecordingFetcher(try HTTPFetcher(url: url, configuration: .init(timeout: 5)))
        } catch {
            throw CLIFailure.input(error.message)
        }
    }

    private func buildClient(fetcher: RecordingFetcher, environment: [String: String]) throws(CLIFailure)
        -> RemoteConfigClient
    {
        var builder = RemoteConfigClient.builder(fetcher: fetcher)
            .cache(FileSnapshotCache(directory: cacheDirectory))
            .freshness(FreshnessPolicy(ttl: Self.ttl, maxStale: .seconds(3600)))
            .register(DemoFlags.all)
        if !environment.isEmpty {
            builder = builder.override(EnvironmentOverrideSource(prefix: "DEMO_", environment: environment))
        }
        do throws(ConfigError) {
            return try builder.build()
        } catch {
            throw CLIFailure.problem("the demo client did not build: \(error)")
        }
    }

    /// A refresh's outcome and the exchange it made.
    private struct Refresh {
        var result: RefreshResult?
        var error: ConfigError?
        var exchange: RecordingFetcher.Exchange?
    }

    private func refresh(_ client: RemoteConfigClient, fetcher: RecordingFetcher) async throws(CLIFailure) -> Refresh {
        let before = fetcher.exchanges.count
        var outcome = Refresh()
        do throws(ConfigError) {
            outcome.result = try await client.refresh(force: true)
        } catch {
            outcome.error = error
        }
        let exchanges = fetcher.exchanges
        if exchanges.count > before { outcome.exchange = exchanges.last }
        return outcome
    }

    private func showReads(_ client: RemoteConfigClient) {
        func row<Value>(_ name: String, _ value: String, _ explanation: EvaluationDetails<Value>) {
            say.detail(
                name.padding(toLength: 17, withPad: " ", startingAt: 0) + value.padding(toLength: 42, withPad: " ", startingAt: 0)
                    + "from " + explanation.layer.shortName)
        }
        row("new_checkout", "\(client[DemoFlags.newCheckout])", client.details(DemoFlags.newCheckout))
        row("max_retries", "\(client[DemoFlags.maxRetries])", client.details(DemoFlags.maxRetries))
        row("request_timeout", "\(client[DemoFlags.requestTimeout])", client.details(DemoFlags.requestTimeout))
        row("welcome_message", "\"\(client[DemoFlags.welcomeMessage])\"", client.details(DemoFlags.welcomeMessage))
        row("theme", "\"\(client[DemoFlags.theme])\"", client.details(DemoFlags.theme))
    }

    private func waitUntilStale(_ client: RemoteConfigClient) async {
        let progress = ProgressIndicator("Waiting for the snapshot to pass its \(Int(Self.ttl))-second TTL…")
        defer { progress.finish() }
        say.say("Waiting about \(Int(Self.ttl)) s for the snapshot to pass its TTL…")
        let deadline = Date().addingTimeInterval(Self.ttl + 5)
        while client.status.freshness == .fresh, Date() < deadline {
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
    }

    private func retryWords(_ error: ConfigError) -> String {
        guard case .fetch(let fetchError) = error else { return error.isRetryable ? "retryable" : "not retryable" }
        switch fetchError.retry {
        case .doNotRetry: return "do not retry"
        case .backoff: return "retry with backoff"
        case .after(let date): return "retry after \(Formatting.timestamp(date))"
        }
    }

    // MARK: Files

    private func read(_ url: URL) throws(CLIFailure) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            throw CLIFailure.input("cannot read \(url.path): \(FileProblem.describe(error))")
        }
    }

    private func write(_ data: Data, to url: URL) throws(CLIFailure) {
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw CLIFailure.input("cannot write \(url.path): \(FileProblem.describe(error))")
        }
    }

    /// Rewrites the served file with one change to its top-level members.
    private func edit(_ change: (inout [String: ConfigValue]) -> Void) throws(CLIFailure) {
        let bytes = try read(servedFile)
        var members: [String: ConfigValue]
        do throws(PayloadError) {
            members = try PlainJSONFormat().decode(bytes).values
        } catch {
            throw CLIFailure.input("the served file is not a config: \(error)")
        }
        change(&members)
        try write(Data(JSONWriter.pretty(.object(members)).utf8), to: servedFile)
    }
}
