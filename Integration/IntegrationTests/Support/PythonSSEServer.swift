import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `Integration/SSEServer/sse_server.py`, an SSE server on sse-starlette and uvicorn, as a child process.
final class PythonSSEServer: Sendable {
    private let child: ChildProcess
    /// The port it listens on, on 127.0.0.1.
    let port: Int

    private init(child: ChildProcess, port: Int) {
        self.child = child
        self.port = port
    }

    /// The `python3` on the PATH, if any.
    static let python: URL? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("python3") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Whether python3 can import sse-starlette and uvicorn (`.ci/run` installs them with pip).
    static let isAvailable: Bool = {
        guard let python else { return false }
        return ChildProcess.runBlocking(python, arguments: ["-c", "import sse_starlette, uvicorn"]).status == 0
    }()

    /// The script, found from this file's place in the repository.
    static var script: URL {
        URL(fileURLWithPath: #filePath).resolvingSymlinksInPath()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SSEServer/sse_server.py")
    }

    /// Runs `body` with a started server and stops it afterwards, whatever happens.
    static func with<T: Sendable>(_ body: (PythonSSEServer) async throws -> T) async throws -> T {
        guard let python else { throw ChildProcess.LaunchError(description: "python3 is not on the PATH") }
        let child = try ChildProcess(python, arguments: ["-u", script.path], mergingErrors: true)
        let line = await child.output.line(within: 30) { $0.hasPrefix("listening on port ") }
        guard let line, let port = Int(line.dropFirst("listening on port ".count)) else {
            _ = await child.stop(grace: 5)
            throw ChildProcess.LaunchError(description: "sse_server.py did not print its port; output:\n\(child.output.text)")
        }
        let server = PythonSSEServer(child: child, port: port)
        do {
            let result = try await body(server)
            _ = await child.stop(grace: 5)
            return result
        } catch {
            _ = await child.stop(grace: 5)
            throw error
        }
    }

    /// `http://127.0.0.1:<port><path>`.
    func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    /// Publishes `document` as the new version; returns its ETag.
    func publish(_ document: Data) async throws -> String {
        var request = URLRequest(url: url("/publish"))
        request.httpMethod = "POST"
        request.httpBody = document
        let (body, _) = try await Self.session.data(for: request)
        return String(decoding: body, as: UTF8.self)
    }

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()
}
