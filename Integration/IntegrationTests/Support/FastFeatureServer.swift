import Foundation
import Testing

/// fast-feature's OFREP server (PyPI `fast-feature`, pinned in `Integration/OFREPServer/requirements.txt`)
/// over a flags file, as a child process: `Integration/OFREPServer/fast_feature_server.py`.
final class FastFeatureServer: Sendable {
    private let child: ChildProcess
    /// The port it listens on, on 127.0.0.1.
    let port: Int
    /// The flags file it reads on every request; rewrite it to change the flags.
    let flagsFile: URL

    private init(child: ChildProcess, port: Int, flagsFile: URL) {
        self.child = child
        self.port = port
        self.flagsFile = flagsFile
    }

    /// Whether python3 can import fast-feature's OFREP router and uvicorn (`.ci/run` installs them).
    static let isAvailable: Bool = {
        guard let python = PythonSSEServer.python else { return false }
        return ChildProcess.runBlocking(python, arguments: ["-c", "import fast_feature.ofrep, fast_feature.storage.inmemory, uvicorn"]).status == 0
    }()

    /// Whether a missing server must fail the run instead of skipping it (CI sets `RC_REQUIRE_ORACLES=1`).
    static var isRequired: Bool { ProcessInfo.processInfo.environment["RC_REQUIRE_ORACLES"] == "1" }

    /// The launcher script, found from this file's place in the repository.
    static var script: URL {
        URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("OFREPServer/fast_feature_server.py")
    }

    /// Runs `body` with a server started over `flags` (the file's JSON), and stops it afterwards, whatever happens.
    static func with<T: Sendable>(flags: String, _ body: (FastFeatureServer) async throws -> T) async throws -> T {
        guard let python = PythonSSEServer.python else {
            throw ChildProcess.LaunchError(description: "python3 is not on the PATH")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rc-fast-feature-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("flags.json")
        try writeAtomically(flags, to: file)
        let child = try ChildProcess(python, arguments: ["-u", script.path, file.path], mergingErrors: true)
        let line = await child.output.line(within: 30) { $0.hasPrefix("listening on port ") }
        guard let line, let port = Int(line.dropFirst("listening on port ".count)) else {
            _ = await child.stop(grace: 5)
            throw ChildProcess.LaunchError(
                description: "fast_feature_server.py did not print its port (is fast-feature installed? python3 -m pip install "
                    + "-r Integration/OFREPServer/requirements.txt); output:\n\(child.output.text)")
        }
        let server = FastFeatureServer(child: child, port: port, flagsFile: file)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// `http://127.0.0.1:<port>`: the OFREP endpoint.
    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Stops the server (SIGTERM, then SIGKILL after 5 s); safe to call twice.
    func stop() async { _ = await child.stop(grace: 5) }
}

/// The trait that skips a suite when fast-feature is missing, unless `RC_REQUIRE_ORACLES=1` makes it fail instead.
extension Trait where Self == ConditionTrait {
    static var requiringFastFeature: Self {
        .enabled(
            if: FastFeatureServer.isRequired || FastFeatureServer.isAvailable,
            Comment(
                rawValue: "python3 cannot import fast_feature and uvicorn; install them with "
                    + "python3 -m pip install -r Integration/OFREPServer/requirements.txt"))
    }
}
