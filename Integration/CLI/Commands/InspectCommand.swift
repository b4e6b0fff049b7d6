import ArgumentParser
import ConfigDomain
import FileCacheAdapter
import Foundation

/// `remote-config inspect <cache-dir>`: what a file cache holds, without changing it.
struct InspectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "List what a file cache directory holds: configurations, freshness, validators, integrity.",
        discussion: """
            For each cached configuration: when it was fetched and how old it is, whether it is fresh, stale \
            or expired under --ttl and --max-stale, its validators (ETag, Last-Modified), its size, whether \
            its checksums verify, and any snapshot pending activation at the next launch. Then the files \
            moved to quarantine/ because they were damaged, and any file the cache did not expect.

            Inspecting reads and verifies every file but changes nothing (a damaged file stays where it is).

            Exit status: 0 when every file the cache uses verifies; 1 when one is damaged (a snapshot, pending \
            or last-good slot, or a renewal, that a load would refuse and quarantine: the app then falls back to \
            an older layer); 2 when the directory does not exist or cannot be read; 64 for wrong usage. Files \
            already quarantined are listed but are not a failure: the cache has set them aside.

            Example:
              remote-config inspect ~/Library/Caches/MyApp/RemoteConfig --ttl 3600
            """)

    @Argument(help: "The cache directory (as given to FileSnapshotCache or fetch --cache-dir).")
    var directory: String

    @Option(
        help: ArgumentHelp("Seconds a snapshot stays fresh (default 12 h, the library's standard policy).", valueName: "seconds"))
    var ttl: Double = 43_200

    @Option(help: ArgumentHelp("Seconds past the TTL a snapshot may be served as stale (default 7 days).", valueName: "seconds"))
    var maxStale: Double = 604_800

    @Flag(help: "Print the result as JSON.")
    var json = false

    func validate() throws {
        guard ttl > 0, ttl.isFinite else { throw ValidationError("--ttl must be more than zero seconds") }
        guard maxStale >= 0, maxStale.isFinite else { throw ValidationError("--max-stale must be zero or more seconds") }
    }

    func run() async throws {
        try await reportingFailures {
            let url = URL(fileURLWithPath: directory)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CLIFailure.input("no cache directory at \(directory)")
            }
            let report: CacheDirectoryReport
            do throws(CacheError) {
                report = try await FileSnapshotCache(directory: url).inspect()
            } catch {
                throw CLIFailure.input("cannot read the cache directory \(directory): \(error.message)")
            }
            let printer = CacheReportPrinter(
                report: report, policy: FreshnessPolicy(ttl: ttl, maxStale: .seconds(maxStale)), now: Date())
            if json {
                Console.shared.line(JSONWriter.pretty(printer.json()))
            } else {
                printer.printText()
            }
            let damaged = printer.damagedFiles
            if !damaged.isEmpty {
                throw CLIFailure.problem(
                    "\(directory) holds \(damaged.count) damaged file\(damaged.count == 1 ? "" : "s") (\(damaged.joined(separator: ", "))); "
                        + "the app refuses and quarantines each at its next load")
            }
        }
    }
}
