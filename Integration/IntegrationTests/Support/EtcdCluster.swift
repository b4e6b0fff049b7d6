import ConfigPorts
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A 3-member etcd cluster of Debian's `etcd` on 127.0.0.1, on free ports, in a fresh temporary
/// folder, for the integration tests.
///
/// ``start()`` returns once every member reports healthy on `/health` (polled; it never sleeps to
/// wait), and ``stop()`` stops every member at once (SIGTERM, a grace period, SIGKILL) and deletes
/// the folder; ``with(_:)`` stops it whatever happens. Tests talk to it through its own small admin
/// client (puts, deletes, compaction, auth), never through the adapter under test.
final class EtcdCluster: Sendable {
    /// One member: its name, ports, data folder, and its process while it runs.
    struct Member: Sendable {
        var name: String
        var clientPort: UInt16
        var peerPort: UInt16
        var dataDirectory: URL
        var clientURL: URL { URL(string: "http://127.0.0.1:\(clientPort)") ?? URL(fileURLWithPath: "/") }
        var peerURL: String { "http://127.0.0.1:\(peerPort)" }
    }

    /// The etcd executable, or `nil` when it is not installed. `RC_ETCD_PATH` overrides the search.
    static let executable: URL? = {
        if let forced = ProcessInfo.processInfo.environment["RC_ETCD_PATH"] {
            return FileManager.default.isExecutableFile(atPath: forced) ? URL(fileURLWithPath: forced) : nil
        }
        var candidates = ["/usr/bin/etcd", "/usr/local/bin/etcd", "/opt/homebrew/bin/etcd"]
        if let path = ProcessInfo.processInfo.environment["PATH"] {
            candidates += path.split(separator: ":").map { "\($0)/etcd" }
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map { URL(fileURLWithPath: $0) }
    }()

    /// Whether etcd is installed.
    static var isAvailable: Bool { executable != nil }

    /// Why the etcd suites are skipped when it is not.
    static let skipReason: Comment =
        "etcd is not installed (looked in /usr/bin, /usr/local/bin and PATH); install it with apt-get install -y etcd-server"

    /// The temporary folder holding every member's data (removed by ``stop()``).
    let directory: URL
    /// The members, in the order of ``endpoints``.
    let members: [Member]
    private let executable: URL
    private let clusterToken: String
    private let processes: Locked<[ChildProcess?]>
    private let frozen = Locked<Set<Int>>([])
    private let admin = EtcdAdmin()

    private init(directory: URL, members: [Member], executable: URL) {
        self.directory = directory
        self.members = members
        self.executable = executable
        self.clusterToken = "rc-test-\(UUID().uuidString)"
        self.processes = Locked(Array(repeating: nil, count: members.count))
    }

    /// The members' client URLs.
    var endpoints: [URL] { members.map(\.clientURL) }

    // MARK: Starting and stopping

    /// Starts a cluster of `size` members and waits until every member is healthy. Tries new
    /// ports if one picked was taken in between.
    static func start(size: Int = 3) async throws -> EtcdCluster {
        guard let executable else { throw EtcdClusterError("etcd is not installed") }
        var lastError: (any Error)?
        for _ in 0..<3 {
            let cluster = try make(size: size, executable: executable)
            do {
                for index in cluster.members.indices { try cluster.launch(index) }
                try await cluster.waitUntilHealthy(cluster.members.indices)
                return cluster
            } catch {
                lastError = error
                await cluster.stop()
            }
        }
        throw lastError ?? EtcdClusterError("etcd did not start")
    }

    private static func make(size: Int, executable: URL) throws -> EtcdCluster {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("etcd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var members: [Member] = []
        for index in 0..<size {
            // NginxRunner.freePort binds port 0 on 127.0.0.1 and reads the port back.
            members.append(
                Member(
                    name: "m\(index)", clientPort: try NginxRunner.freePort(), peerPort: try NginxRunner.freePort(),
                    dataDirectory: directory.appendingPathComponent("m\(index)")))
        }
        return EtcdCluster(directory: directory, members: members, executable: executable)
    }

    /// Runs `body` with a started cluster and stops it afterwards, whatever happens.
    static func with<T: Sendable>(size: Int = 3, _ body: (EtcdCluster) async throws -> T) async throws -> T {
        let cluster = try await start(size: size)
        do {
            let result = try await body(cluster)
            await cluster.stop()
            return result
        } catch {
            await cluster.stop()
            throw error
        }
    }

    /// Stops every member still running and deletes the cluster's folder.
    func stop() async {
        await withTaskGroup(of: Void.self) { group in
            for index in members.indices { group.addTask { await self.stop(index) } }
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts member `index` (again, after ``kill(_:)``: it rejoins with the data it kept).
    private func launch(_ index: Int) throws {
        let member = members[index]
        let initialCluster = members.map { "\($0.name)=\($0.peerURL)" }.joined(separator: ",")
        let arguments = [
            "--name", member.name, "--data-dir", member.dataDirectory.path,
            "--listen-client-urls", member.clientURL.absoluteString,
            "--advertise-client-urls", member.clientURL.absoluteString,
            "--listen-peer-urls", member.peerURL, "--initial-advertise-peer-urls", member.peerURL,
            "--initial-cluster", initialCluster, "--initial-cluster-state", "new",
            "--initial-cluster-token", clusterToken,
            // A fast election, so a test that kills the leader waits about half a second for the next.
            "--heartbeat-interval", "50", "--election-timeout", "500",
            "--logger", "zap", "--log-level", "error",
        ]
        let child = try ChildProcess(executable, arguments: arguments, mergingErrors: true)
        processes.withLock { $0[index] = child }
    }

    /// Stops member `index` (SIGTERM, 1 s, SIGKILL) if it runs, thawing it first if frozen.
    private func stop(_ index: Int) async {
        guard let child = processes.withLock({ $0[index] }) else { return }
        thaw(index)
        // A short grace: a leader whose peers are stopping tries to hand its leadership over for
        // seconds, and the data is deleted anyway.
        _ = await child.stop(grace: 1)
        processes.withLock { $0[index] = nil }
    }

    // MARK: Faults

    /// Kills member `index` with SIGKILL (no goodbye to its peers or clients) and waits for its end.
    func kill(_ index: Int) async {
        guard let child = processes.withLock({ $0[index] }) else { return }
        _ = await child.kill()
        processes.withLock { $0[index] = nil }
    }

    /// Freezes member `index` (SIGSTOP): its connections stay open and say nothing. The admin
    /// operations leave it alone until ``thaw(_:)``.
    ///
    /// Returns once the member has stopped: a signal is delivered at the process's next scheduling
    /// point, and a write made before that could still reach it and be answered.
    func freeze(_ index: Int) {
        frozen.withLock { _ = $0.insert(index) }
        guard let child = processes.withLock({ $0[index] }), child.send(SIGSTOP) else { return }
        var info = siginfo_t()
        _ = waitid(P_PID, id_t(child.pid), &info, WSTOPPED | WNOWAIT)  // WNOWAIT: the child stays waitable
    }

    /// Lets a frozen member `index` run again (SIGCONT).
    func thaw(_ index: Int) {
        guard frozen.withLock({ $0.remove(index) }) != nil else { return }
        processes.withLock { $0[index] }?.send(SIGCONT)
    }

    /// Starts a killed member `index` again and waits until the whole cluster is healthy.
    func restart(_ index: Int) async throws {
        try launch(index)
        try await waitUntilHealthy(members.indices)
    }

    /// Starts the killed members `indices` again together (after the whole cluster was killed, no
    /// member becomes healthy alone) and waits until the whole cluster is healthy.
    func restart(_ indices: [Int]) async throws {
        for index in indices { try launch(index) }
        try await waitUntilHealthy(members.indices)
    }

    /// The index of the current leader, as the running members report it.
    func leader() async throws -> Int {
        var indexByID: [String: Int] = [:]
        var leaderID: String?
        for index in members.indices where isRunning(index) {
            guard let status = try? await admin.status(members[index].clientURL) else { continue }
            if let id = status.memberID { indexByID[id] = index }
            if let leader = status.leader, leader != "0" { leaderID = leader }
        }
        guard let leaderID, let index = indexByID[leaderID] else {
            throw EtcdClusterError("no running member knows a leader")
        }
        return index
    }

    /// Polls the running members until they report a leader (after ``kill(_:)``ing the last one),
    /// and returns its index; throws after 20 s (a safety net).
    func waitForLeader() async throws -> Int {
        let deadline = Date().addingTimeInterval(20)
        while true {
            if let leader = try? await leader() { return leader }
            guard Date() < deadline else { throw EtcdClusterError("no leader was elected within 20 s") }
            try await Task.sleep(nanoseconds: 25_000_000)
        }
    }

    /// Whether member `index` runs and answers (was started, and is not killed, stopped or frozen).
    func isRunning(_ index: Int) -> Bool {
        processes.withLock { $0[index] } != nil && !frozen.withLock { $0.contains(index) }
    }

    /// Polls `/health` on each of `indices` until every one answers healthy; throws when a member
    /// exits or 30 s pass (a safety net).
    func waitUntilHealthy(_ indices: some Sequence<Int>) async throws {
        let deadline = Date().addingTimeInterval(30)
        for index in indices {
            while true {
                if let child = processes.withLock({ $0[index] }), let ending = child.ending {
                    throw EtcdClusterError("etcd member \(index) exited at start (\(ending)): \(child.output.text)")
                }
                if await admin.isHealthy(members[index].clientURL) { break }
                guard Date() < deadline else {
                    throw EtcdClusterError("etcd member \(index) was not healthy within 30 s: \(output(of: index))")
                }
                try await Task.sleep(nanoseconds: 25_000_000)
            }
        }
    }

    /// What member `index` printed, for failure messages.
    func output(of index: Int) -> String { processes.withLock { $0[index] }?.output.text ?? "(not running)" }

    // MARK: Admin operations (retried on another member while the cluster elects a leader)

    /// Writes `value` to `key` and returns the revision of the write.
    @discardableResult
    func put(_ key: String, _ value: String, token: String? = nil) async throws -> Int64 {
        let body: [String: Any] = ["key": base64(key), "value": base64(value)]
        return try await anyMember { try await self.admin.call($0, "v3/kv/put", body, token: token).revision }
    }

    /// Deletes `key` and returns the revision of the deletion.
    @discardableResult
    func delete(_ key: String) async throws -> Int64 {
        try await anyMember { try await self.admin.call($0, "v3/kv/deleterange", ["key": self.base64(key)]).revision }
    }

    /// The revision of the last write to `key`, or `nil` when it does not exist.
    func modRevision(of key: String) async throws -> Int64? {
        try await anyMember { try await self.admin.call($0, "v3/kv/range", ["key": self.base64(key)]).modRevisions.first }
    }

    /// The value of `key`, or `nil` when it does not exist.
    func value(of key: String) async throws -> Data? {
        try await anyMember { try await self.admin.call($0, "v3/kv/range", ["key": self.base64(key)]).values.first }
    }

    /// Compacts the key-value history up to `revision`.
    func compact(_ revision: Int64) async throws {
        _ = try await anyMember {
            try await self.admin.call($0, "v3/kv/compaction", ["revision": String(revision), "physical": true])
        }
    }

    /// Turns authentication on: `root` (password `rootPassword`), and `user` with read-write
    /// access to every key starting with `prefix`.
    func enableAuth(rootPassword: String, user: String, password: String, prefix: String) async throws {
        let rangeEnd = Data(prefix.utf8.dropLast()) + Data([(prefix.utf8.last ?? 0) + 1])
        let steps: [(String, [String: Any])] = [
            ("v3/auth/user/add", ["name": "root", "password": rootPassword]),
            ("v3/auth/user/grant", ["user": "root", "role": "root"]),
            ("v3/auth/role/add", ["name": "app"]),
            (
                "v3/auth/role/grant",
                [
                    "name": "app",
                    "perm": ["key": base64(prefix), "range_end": rangeEnd.base64EncodedString(), "permType": "READWRITE"],
                ]
            ),
            ("v3/auth/user/add", ["name": user, "password": password]),
            ("v3/auth/user/grant", ["user": user, "role": "app"]),
            ("v3/auth/enable", [:]),
        ]
        for (path, body) in steps {
            do {
                _ = try await anyMember { try await self.admin.call($0, path, body) }
            } catch let refusal as EtcdAdmin.Refusal where path.hasSuffix("/add") && refusal.message.contains("already exists") {
                // A call whose answer was lost (a loaded machine) is made again, and etcd had already done it.
            }
        }
    }

    /// A token for `user`.
    func authenticate(_ user: String, _ password: String) async throws -> String {
        try await anyMember { try await self.admin.call($0, "v3/auth/authenticate", ["name": user, "password": password]).token }
    }

    /// Turns authentication off (as root), which also invalidates every token handed out.
    func disableAuth(rootPassword: String) async throws {
        let token = try await authenticate("root", rootPassword)
        _ = try await anyMember { try await self.admin.call($0, "v3/auth/disable", [:], token: token) }
    }

    /// Turns authentication on again (the users and roles are kept).
    func reenableAuth() async throws {
        _ = try await anyMember { try await self.admin.call($0, "v3/auth/enable", [:]) }
    }

    /// Runs `operation` on each running member in turn until one succeeds; retries every member
    /// for up to 20 s (a safety net) while the cluster has no leader.
    private func anyMember<T: Sendable>(_ operation: (URL) async throws -> T) async throws -> T {
        let deadline = Date().addingTimeInterval(20)
        var lastError: (any Error)?
        while Date() < deadline {
            for index in members.indices where isRunning(index) {
                do {
                    return try await operation(members[index].clientURL)
                } catch let error as EtcdAdmin.Refusal {
                    throw error
                } catch {
                    lastError = error
                }
            }
            try await Task.sleep(nanoseconds: 25_000_000)  // A short pause between rounds of a retry while a leader is elected.
        }
        throw lastError ?? EtcdClusterError("no member is running")
    }

    private func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }
}

/// The cluster could not be started or used.
struct EtcdClusterError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
