import ConfigDomain
import Foundation
import Testing

/// Runs the built `remote-config` tool as a child process, once or as a long-running server.
enum CLIProcess {
    /// The built tool, next to the test binary.
    static func executable() throws -> URL { try BuiltProducts.executable(named: "remote-config") }

    /// The environment children get: this one, without colour.
    static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        return environment
    }

    /// How many one-shot runs may be in flight at once. Each starts a process and does real work;
    /// dozens at once on two cores starve the other integration tests' one-second fetch timeouts.
    static let slots = ChildSlots(count: max(2, ProcessInfo.processInfo.activeProcessorCount))
    /// How many `serve` children may run at once (a separate pool, so a test holding a server can
    /// always get a one-shot slot).
    static let serverSlots = ChildSlots(count: max(2, ProcessInfo.processInfo.activeProcessorCount))

    /// Runs `remote-config <arguments>` to completion (a 120 s safety net, not a timed assertion).
    static func run(_ arguments: [String], in directory: URL = FileManager.default.temporaryDirectory) async throws
        -> ChildProcess.Outcome
    {
        let executable = try executable()
        await slots.acquire()
        let result = await Result {
            try await ChildProcess.run(executable, arguments: arguments, environment: environment, currentDirectory: directory)
        }
        slots.release()
        let outcome = try result.get()
        #expect(!outcome.timedOut, "remote-config \(arguments.joined(separator: " ")) did not exit on its own")
        return outcome
    }

    /// Runs `remote-config <arguments> --json` and parses its standard output.
    static func runJSON(_ arguments: [String]) async throws -> (outcome: ChildProcess.Outcome, json: ConfigValue) {
        let outcome = try await run(arguments + ["--json"])
        let json = try JSONParser().parse(outcome.standardOutput)
        return (outcome, json)
    }

    /// The example files shipped with the tool (`Integration/CLI/Examples`).
    static var examples: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("CLI/Examples")
    }
}

extension Result where Failure == any Error {
    /// The result of an async throwing body.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}

/// A fresh temporary directory for one test, removed by ``remove()``.
struct CLIScratch {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("CLI-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` inside the directory and returns its URL.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file, options: .atomic)
        return file
    }

    /// A path inside the directory.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

extension ConfigValue {
    /// The element at `index`, if this is an array that long.
    func element(_ index: Int) -> ConfigValue? {
        guard let items = arrayValue, items.indices.contains(index) else { return nil }
        return items[index]
    }
}
