import ConfigDomain
import ConfigPorts
import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// fast-feature's OFREP server (PyPI `fast-feature`, pinned in `Integration/OFREPServer/requirements.txt`)
/// as the oracle of the OFREP differential: `Integration/OFREPServer/fast_feature_server.py` run as a
/// child process on 127.0.0.1 over a flags file it reads again on every request, so one server serves
/// every case: the test rewrites the file between cases.
///
/// The child gets an empty signal mask (a child of `swift test` would inherit one that blocks SIGTERM),
/// and is stopped with SIGTERM, a grace period, then SIGKILL.
final class FastFeatureOracle: Sendable {
    /// The port it listens on, on 127.0.0.1.
    let port: Int
    /// The flags file it reads on every request.
    let flagsFile: URL
    private let pid: pid_t
    private let ended: Eventual<Int32>
    private let output: Locked<Data>

    private init(port: Int, flagsFile: URL, pid: pid_t, ended: Eventual<Int32>, output: Locked<Data>) {
        self.port = port
        self.flagsFile = flagsFile
        self.pid = pid
        self.ended = ended
        self.output = output
    }

    /// `python3` on the PATH.
    static let python: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("python3") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Whether python3 can import fast-feature's OFREP router and uvicorn (`.ci/run` installs them).
    static let isAvailable: Bool = {
        guard let python else { return false }
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", "import fast_feature.ofrep, fast_feature.storage.inmemory, uvicorn"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return false
        }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// The launcher script, found from this file's place in the repository.
    static var script: URL {
        URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("OFREPServer/fast_feature_server.py")
    }

    /// An ephemeral session without a URL cache, for the test's own requests.
    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return URLSession(configuration: configuration)
    }()

    /// Runs `body` with a server over an empty flag set, and stops it afterwards, whatever happens.
    static func with<T: Sendable>(_ body: (FastFeatureOracle) async throws -> T) async throws -> T {
        guard let python else { throw OracleError(description: "python3 is not on the PATH") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rc-ofrep-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("flags.json")
        try Data(#"{"flags": []}"#.utf8).write(to: file, options: .atomic)

        let process = Process()
        process.executableURL = python
        process.arguments = ["-u", script.path, file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        let ended = Eventual<Int32>()
        process.terminationHandler = { ended.set($0.terminationStatus) }
        try launchUnmasked(process)
        let pid = process.processIdentifier

        // Read everything it prints on a thread of its own (a blocking read must not hold a pool
        // thread, and a full pipe would stall the server); the first line names the port.
        let output = Locked(Data())
        let portLine = Eventual<Int?>()
        let reader = pipe.fileHandleForReading
        Thread.detachNewThread {
            while true {
                let data = reader.availableData
                if data.isEmpty { break }
                let text = output.withLock { buffer -> String in
                    buffer.append(data)
                    return String(decoding: buffer, as: UTF8.self)
                }
                if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on port ") }) {
                    portLine.set(Int(line.dropFirst("listening on port ".count)))
                }
            }
            portLine.set(nil)
        }
        func stop() async {
            if ended.current == nil { kill(pid, SIGTERM) }
            if await ended.value(within: 5) == nil {
                if ended.current == nil { kill(pid, SIGKILL) }
                _ = await ended.value()
            }
        }
        // A safety net, not a timed assertion: the server prints its port once it listens.
        guard let found = await portLine.value(within: 60), let port = found else {
            await stop()
            let printed = output.withLock { String(decoding: $0, as: UTF8.self) }
            throw OracleError(
                description: "fast_feature_server.py did not print its port (is fast-feature installed? python3 -m pip "
                    + "install -r Integration/OFREPServer/requirements.txt); output:\n\(printed)")
        }
        let server = FastFeatureOracle(port: port, flagsFile: file, pid: pid, ended: ended, output: output)
        do {
            let result = try await body(server)
            await stop()
            return result
        } catch {
            await stop()
            throw error
        }
    }

    /// Runs `process` with the calling thread's signal mask empty (a child inherits the mask of the
    /// thread that starts it), then puts the mask back. Nothing in between suspends.
    private static func launchUnmasked(_ process: Process) throws {
        var empty = sigset_t()
        sigemptyset(&empty)
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, &empty, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
    }

    /// `http://127.0.0.1:<port>`: the OFREP endpoint.
    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// What the server printed so far (uvicorn's warnings, Python's tracebacks).
    var printed: String { output.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Replaces the flags file (atomically: a request never reads half a file).
    func serve(_ flagsFile: String) throws {
        try Data(flagsFile.utf8).write(to: self.flagsFile, options: .atomic)
    }

    /// The server's bulk evaluation for `body` (a plain POST, not through the library): status, ETag and body.
    func bulkEvaluation(_ body: String, ifNoneMatch: String? = nil) async throws -> (status: Int, etag: String?, body: Data) {
        var request = URLRequest(url: endpoint.appendingPathComponent("ofrep/v1/evaluate/flags"))
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let ifNoneMatch { request.setValue(ifNoneMatch, forHTTPHeaderField: "If-None-Match") }
        let (data, response) = try await Self.session.data(for: request)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "ETag"), data)
    }
}

/// The trait that skips a suite when fast-feature is missing, unless `RC_REQUIRE_ORACLES=1` makes it fail instead.
extension Trait where Self == ConditionTrait {
    static var requiringFastFeature: Self {
        .enabled(
            if: Oracle.isRequired || FastFeatureOracle.isAvailable,
            Comment(
                rawValue: "python3 cannot import fast_feature and uvicorn; install them with "
                    + "python3 -m pip install -r Integration/OFREPServer/requirements.txt"))
    }
}
