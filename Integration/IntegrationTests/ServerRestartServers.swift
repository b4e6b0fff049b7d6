import ConfigPorts
import Foundation
import TestSupport

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A server the restart tests kill with SIGKILL and start again on the same port, keeping what it
/// published (a real server's store outlives its process). Version `n` is the document `{"version": n}`.
protocol RestartableServer: Sendable {
    /// The port it listens on, the same after every restart.
    var port: Int { get }
    /// Makes version `n` the current one; the server must be running.
    func publish(_ version: Int) async throws
    /// Kills the server with SIGKILL (no goodbye to its clients) and waits for its end.
    func kill() async
    /// Starts it again on the same port, carrying on from the last version published.
    func restart() async throws
    /// Stops it (SIGTERM, a grace period, SIGKILL) and removes its files; safe after ``kill()``.
    func stop() async
}

/// The test's own requests to servers: each on a session of its own, invalidated after the answer,
/// so that no idle connection of the harness counts in a test's `SocketCensus`.
enum HarnessHTTP {
    /// Sends `method` to `url` with `body`; returns the status and the body.
    @discardableResult
    static func send(_ method: String, _ url: URL, body: Data? = nil) async throws -> (status: Int, body: Data) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: 10)
        request.httpMethod = method
        request.httpBody = body
        request.setValue("close", forHTTPHeaderField: "Connection")
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }
}

/// A fresh temporary folder for one restartable server.
private func scratchFolder(_ name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rc-restart-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// `remote-config serve` over a config file: the file is its store, so a restart serves the last
/// version written.
final class RestartableServe: RestartableServer {
    let port: Int
    private let folder: URL
    private let file: URL
    private let current: Locked<CLIServer?>

    private init(port: Int, folder: URL, file: URL, server: CLIServer) {
        self.port = port
        self.folder = folder
        self.file = file
        self.current = Locked(server)
    }

    /// Starts serve on a free port with version 0.
    static func start() async throws -> RestartableServe {
        let folder = try scratchFolder("serve")
        let file = folder.appendingPathComponent("config.json")
        do {
            try writeAtomically(#"{"version": 0}"#, to: file)
            let server = try await CLIServer.start([file.path, "--port", "0", "--quiet"])
            guard let port = URL(string: server.baseURL)?.port else {
                await server.stop()
                throw CLIServer.HarnessError(description: "serve printed no port: \(server.baseURL)")
            }
            return RestartableServe(port: port, folder: folder, file: file, server: server)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Writes the file, then asks for it, so serve notices the change at once (not on its half-second timer).
    func publish(_ version: Int) async throws {
        try writeAtomically(#"{"version": \#(version)}"#, to: file)
        try await HarnessHTTP.send("HEAD", baseURL.appendingPathComponent("config.json"))
    }

    func kill() async {
        await current.withLock { $0.take() }?.stop(signal: SIGKILL, grace: 0)
    }

    func restart() async throws {
        let server = try await CLIServer.start([file.path, "--port", String(port), "--quiet"])
        current.withLock { $0 = server }
    }

    func stop() async {
        await current.withLock { $0.take() }?.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// `Integration/SSEServer/sse_server.py` (sse-starlette on uvicorn), keeping its version in a state
/// file, optionally run in a network namespace and listening on a given address.
final class RestartablePythonSSE: RestartableServer {
    let port: Int
    /// The address it listens on.
    let host: String
    private let folder: URL
    private let launch: @Sendable (_ port: Int) throws -> ChildProcess
    private let current: Locked<ChildProcess?>

    private init(
        port: Int, host: String, folder: URL, launch: @escaping @Sendable (Int) throws -> ChildProcess, child: ChildProcess
    ) {
        self.port = port
        self.host = host
        self.folder = folder
        self.launch = launch
        self.current = Locked(child)
    }

    /// Starts the server on `host` and a free port, with heartbeats every `ping` seconds; inside the
    /// network namespace `namespace` (through `ip netns exec`) when one is given.
    static func start(host: String = "127.0.0.1", ping: TimeInterval = 5, namespace: String? = nil) async throws
        -> RestartablePythonSSE
    {
        guard let python = PythonSSEServer.python else {
            throw ChildProcess.LaunchError(description: "python3 is not on the PATH")
        }
        let folder = try scratchFolder("sse")
        let state = folder.appendingPathComponent("state.json").path
        let launch: @Sendable (Int) throws -> ChildProcess = { port in
            let server = [
                python.path, "-u", PythonSSEServer.script.path, "--host", host, "--port", String(port), "--state", state,
                "--ping", String(ping),
            ]
            if let namespace {
                // `ip netns exec` enters the namespace and execs the server: the child's pid is the server's.
                return try ChildProcess(
                    URL(fileURLWithPath: LinkDownNetwork.ipPath), arguments: ["netns", "exec", namespace] + server,
                    mergingErrors: true)
            }
            return try ChildProcess(python, arguments: Array(server.dropFirst()), mergingErrors: true)
        }
        do {
            let child = try launch(0)
            let port = try await awaitPort(of: child, script: "sse_server.py")
            return RestartablePythonSSE(port: port, host: host, folder: folder, launch: launch, child: child)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// `http://<host>:<port><path>`.
    func url(_ path: String) -> URL { URL(string: "http://\(host):\(port)\(path)")! }

    func publish(_ version: Int) async throws {
        try await HarnessHTTP.send("POST", url("/publish"), body: Data(#"{"version": \#(version)}"#.utf8))
    }

    func kill() async {
        _ = await current.withLock { $0.take() }?.kill()
    }

    func restart() async throws {
        let child = try launch(port)
        current.withLock { $0 = child }
        _ = try await Self.awaitPort(of: child, script: "sse_server.py")
    }

    func stop() async {
        _ = await current.withLock { $0.take() }?.stop(grace: 5)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Reads the port from the child's first line (`listening on port N`); stops the child and throws when it says none.
    static func awaitPort(of child: ChildProcess, script: String) async throws -> Int {
        let line = await child.output.line(within: 30) { $0.hasPrefix("listening on port ") }
        guard let line, let port = Int(line.dropFirst("listening on port ".count)) else {
            _ = await child.stop(grace: 5)
            throw ChildProcess.LaunchError(description: "\(script) did not print its port; output:\n\(child.output.text)")
        }
        return port
    }
}

/// fast-feature's OFREP server (`Integration/OFREPServer/fast_feature_server.py`) over a flags file,
/// which is its store: it reads the file on every request.
final class RestartableFastFeature: RestartableServer {
    let port: Int
    private let folder: URL
    private let flagsFile: URL
    private let current: Locked<ChildProcess?>

    private init(port: Int, folder: URL, flagsFile: URL, child: ChildProcess) {
        self.port = port
        self.folder = folder
        self.flagsFile = flagsFile
        self.current = Locked(child)
    }

    /// The flags file for version `n`: one flag, `version`, whose only variant is `n`.
    private static func flags(_ version: Int) -> String {
        #"{"flags": [{"key": "version", "variants": {"v": \#(version)}, "defaultVariant": "v", "state": "ENABLED"}]}"#
    }

    /// Starts the server on a free port with version 0.
    static func start() async throws -> RestartableFastFeature {
        let folder = try scratchFolder("fast-feature")
        let file = folder.appendingPathComponent("flags.json")
        do {
            try writeAtomically(flags(0), to: file)
            let child = try launch(file, port: 0)
            let port = try await RestartablePythonSSE.awaitPort(of: child, script: "fast_feature_server.py")
            return RestartableFastFeature(port: port, folder: folder, flagsFile: file, child: child)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    private static func launch(_ file: URL, port: Int) throws -> ChildProcess {
        guard let python = PythonSSEServer.python else {
            throw ChildProcess.LaunchError(description: "python3 is not on the PATH")
        }
        return try ChildProcess(
            python, arguments: ["-u", FastFeatureServer.script.path, file.path, String(port)], mergingErrors: true)
    }

    /// `http://127.0.0.1:<port>`: the OFREP endpoint.
    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)")! }

    func publish(_ version: Int) async throws { try writeAtomically(Self.flags(version), to: flagsFile) }

    func kill() async {
        _ = await current.withLock { $0.take() }?.kill()
    }

    func restart() async throws {
        let child = try Self.launch(flagsFile, port: port)
        current.withLock { $0 = child }
        _ = try await RestartablePythonSSE.awaitPort(of: child, script: "fast_feature_server.py")
    }

    func stop() async {
        _ = await current.withLock { $0.take() }?.stop(grace: 5)
        try? FileManager.default.removeItem(at: folder)
    }
}
