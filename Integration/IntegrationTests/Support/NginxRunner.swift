import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs Debian's nginx on 127.0.0.1 (a free port) from a fresh temporary prefix, serving files
/// from its `html` folder, with `daemon off;` and every path nginx writes (pid, error log,
/// access log, `*_temp_path`) under the prefix. The access log records status, body bytes and
/// conditional headers, so tests can count what reached the server.
///
/// Stopping follows the child-process rule: SIGTERM, a grace period, then SIGKILL, then wait.
final class NginxRunner: Sendable {
    /// One access-log line.
    struct AccessEntry: Sendable, Hashable {
        var status: Int
        var bodyBytes: Int
        var ifNoneMatch: String
        var ifModifiedSince: String
    }

    /// The nginx executable, or `nil` when it is not installed. `RC_NGINX_PATH` overrides the
    /// search (set it to a missing path to see the skip report).
    static let executable: URL? = {
        if let forced = ProcessInfo.processInfo.environment["RC_NGINX_PATH"] {
            return FileManager.default.isExecutableFile(atPath: forced) ? URL(fileURLWithPath: forced) : nil
        }
        var candidates = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/opt/homebrew/bin/nginx", "/usr/local/bin/nginx"]
        if let path = ProcessInfo.processInfo.environment["PATH"] {
            candidates += path.split(separator: ":").map { "\($0)/nginx" }
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map { URL(fileURLWithPath: $0) }
    }()

    /// Whether nginx is installed.
    static var isAvailable: Bool { executable != nil }

    /// The temporary prefix (removed by ``stop()``).
    let prefix: URL
    /// The folder nginx serves.
    let htmlDirectory: URL
    /// The port nginx listens on.
    let port: UInt16
    private let child: ChildProcess
    private let accessLog: URL
    private let errorLog: URL

    private init(prefix: URL, port: UInt16, child: ChildProcess) {
        self.prefix = prefix
        self.htmlDirectory = prefix.appendingPathComponent("html")
        self.port = port
        self.child = child
        self.accessLog = prefix.appendingPathComponent("logs/access.log")
        self.errorLog = prefix.appendingPathComponent("logs/error.log")
    }

    /// Starts nginx and waits until it accepts connections. Retries on a new port if the one
    /// picked was taken in between.
    static func start() async throws -> NginxRunner {
        guard let executable else { throw NginxError("nginx is not installed") }
        var lastError: (any Error)?
        for _ in 0..<3 {
            do {
                return try await launch(executable)
            } catch {
                lastError = error
            }
        }
        throw lastError ?? NginxError("nginx did not start")
    }

    private static func launch(_ executable: URL) async throws -> NginxRunner {
        let fileManager = FileManager.default
        let prefix = fileManager.temporaryDirectory.appendingPathComponent("nginx-\(UUID().uuidString)")
        for folder in ["html", "logs", "temp/client", "temp/proxy", "temp/fastcgi", "temp/uwsgi", "temp/scgi", "conf"] {
            try fileManager.createDirectory(at: prefix.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        // Worker processes may run as another user when the tests run as root: let them read.
        try fileManager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: prefix.path)
        try fileManager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: prefix.appendingPathComponent("html").path)
        let port = try freePort()
        let p = prefix.path
        let configuration = """
            daemon off;
            worker_processes 1;
            pid \(p)/nginx.pid;
            error_log \(p)/logs/error.log warn;
            events { worker_connections 64; }
            http {
                types { application/json json; text/plain txt; }
                default_type application/octet-stream;
                log_format probe '$status|$body_bytes_sent|$http_if_none_match|$http_if_modified_since';
                access_log \(p)/logs/access.log probe;
                client_body_temp_path \(p)/temp/client;
                proxy_temp_path \(p)/temp/proxy;
                fastcgi_temp_path \(p)/temp/fastcgi;
                uwsgi_temp_path \(p)/temp/uwsgi;
                scgi_temp_path \(p)/temp/scgi;
                server {
                    listen 127.0.0.1:\(port);
                    root \(p)/html;
                    location / { }
                }
            }
            """
        let configFile = prefix.appendingPathComponent("conf/nginx.conf")
        try configuration.write(to: configFile, atomically: true, encoding: .utf8)

        let child = try ChildProcess(executable, arguments: ["-p", p, "-c", configFile.path, "-e", "\(p)/logs/error.log"])
        let runner = NginxRunner(prefix: prefix, port: port, child: child)
        do {
            try await runner.waitUntilAccepting()
        } catch {
            await runner.stop()
            throw error
        }
        return runner
    }

    /// Runs `body` with a started nginx and stops it afterwards, whatever happens.
    static func with<T: Sendable>(_ body: (NginxRunner) async throws -> T) async throws -> T {
        let runner = try await start()
        do {
            let result = try await body(runner)
            await runner.stop()
            return result
        } catch {
            await runner.stop()
            throw error
        }
    }

    /// `http://127.0.0.1:<port>/<name>`.
    func url(_ name: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(name)") ?? URL(fileURLWithPath: "/")
    }

    /// Writes a file nginx serves, world-readable, with the given modification time.
    func write(_ text: String, to name: String, modified: Date) throws {
        let file = htmlDirectory.appendingPathComponent(name)
        try Data(text.utf8).write(to: file, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o644, .modificationDate: modified], ofItemAtPath: file.path)
    }

    /// The access log so far. nginx writes each line when the request completes, before the
    /// client has read the last byte, so a finished fetch is always logged.
    func accessEntries() throws -> [AccessEntry] {
        guard FileManager.default.fileExists(atPath: accessLog.path) else { return [] }
        let text = try String(contentsOf: accessLog, encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            // nginx writes a double quote in a logged value as \x22, and an empty value as "-".
            let fields = line.replacingOccurrences(of: "\\x22", with: "\"").split(
                separator: "|", omittingEmptySubsequences: false)
            guard fields.count == 4, let status = Int(fields[0]), let bytes = Int(fields[1]) else { return nil }
            func dash(_ text: Substring) -> String { text == "-" ? "" : String(text) }
            return AccessEntry(status: status, bodyBytes: bytes, ifNoneMatch: dash(fields[2]), ifModifiedSince: dash(fields[3]))
        }
    }

    /// The error log, for failure messages.
    func errorLogText() -> String { (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "" }

    /// Stops nginx (SIGTERM, up to 5 s grace, then SIGKILL), waits for it, and removes the prefix.
    func stop() async {
        _ = await child.stop(grace: 5)
        try? FileManager.default.removeItem(at: prefix)
    }

    /// Polls a TCP connect until nginx accepts, it exits, or 10 s pass.
    private func waitUntilAccepting() async throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if child.ending != nil {
                throw NginxError("nginx exited at start: \(errorLogText())")
            }
            if Self.canConnect(port: port) { return }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        throw NginxError("nginx did not accept connections on port \(port) within 10 s: \(errorLogText())")
    }

    /// A port that was free a moment ago on 127.0.0.1 (bind port 0, read it back, close).
    static func freePort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(socketStreamType), 0)
        guard descriptor >= 0 else { throw NginxError("socket() failed: \(errno)") }
        defer { close(descriptor) }
        var address = loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw NginxError("bind() failed: \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw NginxError("getsockname() failed: \(errno)") }
        return UInt16(bigEndian: address.sin_port)
    }

    private static func canConnect(port: UInt16) -> Bool {
        let descriptor = socket(AF_INET, Int32(socketStreamType), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = loopbackAddress(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return result == 0
    }

    private static var socketStreamType: Int {
        #if canImport(Glibc)
            Int(SOCK_STREAM.rawValue)
        #else
            Int(SOCK_STREAM)
        #endif
    }

    private static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }
}

/// nginx could not be started or stopped.
struct NginxError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
