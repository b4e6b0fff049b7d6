import ArgumentParser
import Foundation

/// `remote-config demo`: the whole story, narrated, on an embedded server.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the whole story end to end on an embedded server, narrated in plain sentences (a few seconds).",
        discussion: """
            The demo starts a config server on 127.0.0.1 (a free port) serving a copy of the example config, \
            builds a client with a file cache in a temporary folder, and walks through: reading typed flags \
            (defaults first, then remote values), a 304 renewal, the server going down while stale values are \
            still served, a relaunch with environment overrides, the server coming back with an update that \
            streams to a listener, a value rejected by its rule, and a broken file the server refuses.

            It uses only 127.0.0.1 and a temporary folder, removed at the end (unless --keep-files).
            """)

    @Option(
        help: ArgumentHelp(
            "The folder holding config.json and manifest.json (default: the examples shipped with the tool).", valueName: "dir"))
    var examples: String?

    @Flag(help: "Keep the temporary folder (served file and cache) and print its path, to explore with `inspect`.")
    var keepFiles = false

    func run() async throws {
        try await reportingFailures {
            let files = try ExampleFiles.locate(explicit: examples)
            try await DemoStory(examples: files, keepFiles: keepFiles).run()
        }
    }
}
