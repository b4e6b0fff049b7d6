import ArgumentParser
import FileCacheAdapter
import Foundation
import HTTPAdapter
import RemoteConfig

/// `remote-config fetch <url>`: one fetch through the real HTTP adapter and client.
struct FetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch a config once through the real HTTP adapter and client, and show what the app would read.",
        discussion: """
            Prints the HTTP status (200, 304 or the error), the validators (ETag, Last-Modified), the size and \
            the time, then every value as a table.

            With --cache-dir the fetch goes through the file cache, as in an app: the first run is a miss and \
            stores the payload; the next run sends the cached validators and a 304 renews the cache without \
            rewriting the payload. If the fetch fails, the values still come from the cache.

            With --keys the values are read through typed keys declared in a manifest: each shows its \
            provenance (remote, last good remote, default) and any value the rules rejected.

            Exit status: 0 when the fetch succeeded (or was skipped by --skip-if-fresh) and no value was \
            rejected; 1 when it failed (the error's kind and retry advice are printed) or a key's value was \
            rejected; 2 when the URL, manifest or settings are unusable.

            Examples:
              remote-config fetch http://127.0.0.1:8080/config.json
              remote-config fetch http://127.0.0.1:8080/config.json --cache-dir /tmp/rc-cache --keys manifest.json
              remote-config fetch https://cdn.example.com/app/config.json --header "Authorization: Bearer $TOKEN" --json
            """)

    @Argument(help: "The config URL: https://…, or http:// to 127.0.0.1 or localhost.")
    var url: String

    @Option(help: ArgumentHelp("Fetch through a file cache in this directory (created if needed).", valueName: "directory"))
    var cacheDir: String?

    @Option(help: "The configuration's name in the cache (several can share a directory).")
    var name: String = "default"

    @Option(
        name: .customLong("keys"),
        help: ArgumentHelp("A key manifest (JSON): read values through typed keys with rules.", valueName: "manifest.json"))
    var keys: String?

    @Option(help: ArgumentHelp("Seconds a snapshot stays fresh, for the freshness shown (default 12 h).", valueName: "seconds"))
    var ttl: Double = 43_200

    @Option(help: ArgumentHelp("Seconds past the TTL a snapshot may be served as stale (default 7 days).", valueName: "seconds"))
    var maxStale: Double = 604_800

    @Flag(help: "With --cache-dir: make no request when the cached snapshot is still fresh under --ttl.")
    var skipIfFresh = false

    @Option(help: ArgumentHelp("Give up after this many seconds.", valueName: "seconds"))
    var timeout: Double = 15

    @Option(
        name: .customLong("header"),
        help: ArgumentHelp(
            "A request header, \"Name: value\"; repeat for more. Authorization values are never printed.", valueName: "header"))
    var headers: [String] = []

    @Flag(help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        guard ttl > 0, ttl.isFinite else { throw ValidationError("--ttl must be more than zero seconds") }
        guard maxStale >= 0, maxStale.isFinite else { throw ValidationError("--max-stale must be zero or more seconds") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be more than zero seconds") }
        if skipIfFresh && cacheDir == nil { throw ValidationError("--skip-if-fresh needs --cache-dir") }
        for header in headers where parseHeader(header) == nil {
            throw ValidationError("--header must look like \"Name: value\", got \"\(header.prefix(40))\"")
        }
    }

    private func parseHeader(_ text: String) -> (String, String)? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon].trimmingCharacters(in: .whitespaces)
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : (name, value)
    }

    func run() async throws {
        try await reportingFailures {
            let report = try await perform()
            let renderer = FetchReportRenderer(report: report, manifestGiven: keys != nil, ttl: ttl, maxStale: maxStale)
            if json {
                Console.shared.line(JSONWriter.pretty(renderer.json()))
            } else {
                renderer.printText()
            }
            if let error = report.error {
                throw CLIFailure.problem(error.description)
            }
            let rejected = report.rows.filter { !$0.rejected.isEmpty }.map(\.key)
            if !rejected.isEmpty {
                throw CLIFailure.problem(
                    "\(rejected.count) key(s) had a value rejected (\(rejected.joined(separator: ", "))); "
                        + "the app serves the next layer for each, as shown")
            }
        }
    }

    private func perform() async throws(CLIFailure) -> FetchReport {
        let manifest = try keys.map { path throws(CLIFailure) in try CommandInputs.manifest(at: path) }
        guard let target = URL(string: url), target.scheme != nil, target.host != nil else {
            throw CLIFailure.input("\"\(url)\" is not an absolute URL; use http://127.0.0.1:8080/config.json or https://…")
        }
        var configuration = HTTPFetcher.Configuration(timeout: timeout)
        for header in headers {
            if let (name, value) = parseHeader(header) { configuration.headers[name] = value }
        }
        let fetcher: HTTPFetcher
        do throws(ConfigurationError) {
            fetcher = try HTTPFetcher(url: target, configuration: configuration)
        } catch {
            throw CLIFailure.input(error.message)
        }
        let recorder = RecordingFetcher(fetcher)
        let format = KeyListingFormat()
        let events = EventLog()
        var builder = RemoteConfigClient.builder(fetcher: recorder)
            .freshness(FreshnessPolicy(ttl: ttl, maxStale: .seconds(maxStale)))
            .payloadFormat(format)
            .observer(events)
        if let manifest { builder = builder.register(manifest.keys.map(\.typed.representable)) }
        var report = FetchReport(url: url)
        if let cacheDir {
            let directory = URL(fileURLWithPath: cacheDir)
            builder = builder.cache(FileSnapshotCache(directory: directory), name: name)
            report.cacheLocation = (directory.path, name)
        }
        let client: RemoteConfigClient
        do throws(ConfigError) {
            client = try builder.build()
        } catch {
            throw CLIFailure.input(error.description)
        }
        if cacheDir != nil {
            report.cacheBefore = .miss
            for event in events.all {
                switch event {
                case .cacheLoaded(_, let fetchedAt, let freshness):
                    report.cacheBefore = .hit(fetchedAt: fetchedAt, freshness: freshness)
                case .cacheUnreadable(let error): report.cacheBefore = .unreadable(error.message)
                default: break
                }
            }
        }
        if skipIfFresh, client.status.freshness == .fresh {
            report.skippedBecauseFresh = true
        } else {
            let progress = ProgressIndicator("Fetching \(url)…")
            do throws(ConfigError) {
                report.result = try await client.refresh(force: true)
            } catch {
                report.error = error
            }
            progress.finish()
            report.exchange = recorder.exchanges.last
        }
        for event in events.all {
            if case .cacheWriteFailed(let error) = event { report.cacheWriteFailure = error.message }
        }
        report.finalFreshness = client.status.freshness
        report.rows = rows(client: client, manifest: manifest, payloadKeys: format.lastKeys)
        await client.stop()
        return report
    }

    private func rows(client: RemoteConfigClient, manifest: KeyManifest?, payloadKeys: [String]) -> [FetchReport.Row] {
        var rows: [FetchReport.Row] = []
        if let manifest {
            for key in manifest.keys {
                let explanation = key.typed.explain(in: client)
                rows.append(
                    FetchReport.Row(
                        key: key.name, type: key.type.rawValue, value: explanation.value, from: explanation.layer.shortName,
                        declared: true, rejected: explanation.rejected))
            }
        }
        for name in payloadKeys where manifest?.key(named: name) == nil {
            guard let raw = client.view().entry(forName: name)?.value else { continue }
            rows.append(
                FetchReport.Row(
                    key: name, type: raw.kind.rawValue, value: raw.jsonText(),
                    from: manifest == nil ? "remote" : "remote (not in the manifest)", declared: manifest == nil, rejected: []))
        }
        return rows
    }
}
