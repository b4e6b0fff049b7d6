import ConfigDomain
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the built `remote-config` tool as a child process, once or as a long-running server.
enum CLIProcess {
    /// The built tool, next to the test binary.
    static func executable() throws -> URL { try EnvChildProcess.product(named: "remote-config") }

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
        -> EnvChildProcess.Outcome
    {
        let executable = try executable()
        await slots.acquire()
        let result = await Result {
            try await EnvChildProcess.run(executable, arguments: arguments, environment: environment, currentDirectory: directory)
        }
        await slots.release()
        let outcome = try result.get()
        #expect(!outcome.timedOut, "remote-config \(arguments.joined(separator: " ")) did not exit on its own")
        return outcome
    }

    /// Runs `remote-config <arguments> --json` and parses its standard output.
    static func runJSON(_ arguments: [String]) async throws -> (outcome: EnvChildProcess.Outcome, json: ConfigValue) {
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

/// A flag set once, from any thread.
final class LockedFlag: @unchecked Sendable {
    // @unchecked Sendable: `isSet` is only touched while holding `lock`.
    private let lock = NSLock()
    private var isSet = false

    /// Sets the flag; true only for the first caller.
    func setOnce() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        if isSet { return false }
        isSet = true
        return true
    }
}

/// A counting semaphore for child processes: at most `count` hold a slot; the others wait in order.
actor ChildSlots {
    private var free: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { free = count }

    /// Waits for a slot.
    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Gives a slot back, to the longest waiter if there is one.
    func release() {
        if waiters.isEmpty {
            free += 1
        } else {
            waiters.removeFirst().resume()
        }
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

/// A `remote-config serve` child: started, read line by line, stopped with SIGTERM (then SIGKILL).
final class CLIServer: @unchecked Sendable {
    // @unchecked Sendable: `process` is immutable after `init`; the output is a `LineLog` (locked).

    /// An error of the harness (the child did not start or say its URL).
    struct HarnessError: Error, CustomStringConvertible {
        var description: String
    }

    private let process: Process
    private let lines: LineLog
    private let slotReleased = LockedFlag()
    /// The base URL the server printed, `http://127.0.0.1:<port>`.
    let baseURL: String

    private init(process: Process, log: LineLog, baseURL: String) {
        self.process = process
        self.lines = log
        self.baseURL = baseURL
    }

    /// Starts `remote-config serve <arguments>` and waits until it prints its URL.
    ///
    /// - Parameter blockingSignals: start the child with SIGTERM and SIGINT blocked in its signal
    ///   mask, as a parent such as `swift test` may leave them, to check that it still stops.
    static func start(_ arguments: [String], blockingSignals: Bool = false) async throws -> CLIServer {
        let process = Process()
        process.executableURL = try CLIProcess.executable()
        process.arguments = ["serve"] + arguments
        process.environment = CLIProcess.environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        let log = LineLog()
        await CLIProcess.serverSlots.acquire()
        do {
            try await launch(process, blockingSignals: blockingSignals)
        } catch {
            await CLIProcess.serverSlots.release()
            throw error
        }
        log.read(from: output.fileHandleForReading)
        let line = await log.waitForLine(timeout: 30) { $0.hasPrefix("Serving ") && $0.contains(" on http://127.0.0.1:") }
        guard let line, let range = line.range(of: "http://127.0.0.1:") else {
            let server = CLIServer(process: process, log: log, baseURL: "")
            _ = await server.stop()
            throw HarnessError(description: "serve did not print its URL; output:\n\(log.text)")
        }
        let base = String(line[range.lowerBound...]).split(separator: " ").first.map(String.init) ?? ""
        return CLIServer(process: process, log: log, baseURL: base)
    }

    /// Runs `process`, from a thread of its own whose signal mask blocks SIGTERM and SIGINT when
    /// `blockingSignals` is set (a child inherits the mask of the thread that starts it).
    static func launch(_ process: Process, blockingSignals: Bool) async throws {
        guard blockingSignals else { return try process.run() }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, SIGTERM)
                sigaddset(&set, SIGINT)
                pthread_sigmask(SIG_BLOCK, &set, nil)
                continuation.resume(with: Result { try process.run() })
            }
        }
    }

    /// Runs `body` with a started server and stops it afterwards, whatever happens.
    static func with<T: Sendable>(_ arguments: [String], _ body: (CLIServer) async throws -> T) async throws -> T {
        let server = try await start(arguments)
        do {
            let result = try await body(server)
            _ = await server.stop()
            return result
        } catch {
            _ = await server.stop()
            throw error
        }
    }

    /// `<baseURL><path>`.
    func url(_ path: String = "/config.json") -> String { baseURL + path }

    /// Everything the server printed so far.
    var output: String { lines.text }

    /// Waits (up to `timeout` seconds, a safety net) for a printed line that satisfies `predicate`.
    func waitForLine(timeout: TimeInterval = 20, where predicate: @escaping @Sendable (String) -> Bool) async -> String? {
        await lines.waitForLine(timeout: timeout, where: predicate)
    }

    /// Sends `signal` (SIGTERM by default), waits up to `grace` seconds, then SIGKILLs; returns the exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM, grace: TimeInterval = 5) async -> Int32 {
        if process.isRunning {
            kill(process.processIdentifier, signal)
            if !(await waitForExit(seconds: grace)) {
                kill(process.processIdentifier, SIGKILL)
                _ = await waitForExit(seconds: 10)
            }
        }
        await lines.waitForEnd(timeout: 5)
        if slotReleased.setOnce() { await CLIProcess.serverSlots.release() }
        return process.isRunning ? -1 : process.terminationStatus
    }

    /// Whether the child was killed by a signal rather than exiting.
    var wasKilledBySignal: Bool { !process.isRunning && process.terminationReason == .uncaughtSignal }

    /// Polls the child's state until it exits or `seconds` pass (a child offers no async exit
    /// signal on every platform, so this bounded poll is the wait).
    private func waitForExit(seconds: TimeInterval) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning {
            if Date() > deadline { return false }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return true
    }
}

/// A child's output, split into lines as it arrives, with waiters for a line or the end.
final class LineLog: @unchecked Sendable {
    // @unchecked Sendable: every stored `var` is only touched while holding `lock`.
    private struct Waiter {
        var id: UUID
        var predicate: @Sendable (String) -> Bool
        var continuation: CheckedContinuation<String?, Never>
    }

    private let lock = NSLock()
    private var lines: [String] = []
    private var partial = Data()
    private var ended = false
    private var waiters: [Waiter] = []
    private var endWaiters: [(id: UUID, continuation: CheckedContinuation<Void, Never>)] = []
    /// Timers that fired before their waiter was registered.
    private var expired: Set<UUID> = []

    /// All lines so far, joined.
    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return lines.joined(separator: "\n")
    }

    /// Reads `handle` on a thread of its own until end of file.
    func read(from handle: FileHandle) {
        Thread.detachNewThread {
            while true {
                let data = handle.availableData
                if data.isEmpty { break }
                self.append(data)
            }
            self.finish()
        }
    }

    private func append(_ data: Data) {
        lock.lock()
        partial.append(data)
        var complete: [String] = []
        while let newline = partial.firstIndex(of: UInt8(ascii: "\n")) {
            complete.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
            partial = Data(partial[partial.index(after: newline)...])
        }
        lines.append(contentsOf: complete)
        var resumed: [(CheckedContinuation<String?, Never>, String)] = []
        waiters.removeAll { waiter in
            guard let match = complete.first(where: waiter.predicate) else { return false }
            resumed.append((waiter.continuation, match))
            return true
        }
        lock.unlock()
        for (continuation, line) in resumed { continuation.resume(returning: line) }
    }

    private func finish() {
        lock.lock()
        if !partial.isEmpty { lines.append(String(decoding: partial, as: UTF8.self)) }
        partial = Data()
        ended = true
        let pending = waiters
        waiters = []
        let ends = endWaiters
        endWaiters = []
        lock.unlock()
        for waiter in pending { waiter.continuation.resume(returning: nil) }
        for end in ends { end.continuation.resume() }
    }

    /// The first line (already printed or still to come) that satisfies `predicate`, or nil when
    /// the output ends or `timeout` seconds pass first.
    func waitForLine(timeout: TimeInterval, where predicate: @escaping @Sendable (String) -> Bool) async -> String? {
        let id = UUID()
        let timer = Task {
            guard (try? await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))) != nil else { return }
            self.expire(id)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            lock.lock()
            if let match = lines.first(where: predicate) {
                lock.unlock()
                continuation.resume(returning: match)
            } else if ended || expired.remove(id) != nil {
                lock.unlock()
                continuation.resume(returning: nil)
            } else {
                waiters.append(Waiter(id: id, predicate: predicate, continuation: continuation))
                lock.unlock()
            }
        }
    }

    /// Waits until the output ends (or `timeout` seconds pass).
    func waitForEnd(timeout: TimeInterval) async {
        let id = UUID()
        let timer = Task {
            guard (try? await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))) != nil else { return }
            self.expireEnd(id)
        }
        defer { timer.cancel() }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if ended || expired.remove(id) != nil {
                lock.unlock()
                continuation.resume()
            } else {
                endWaiters.append((id, continuation))
                lock.unlock()
            }
        }
    }

    private func expire(_ id: UUID) {
        lock.lock()
        let index = waiters.firstIndex { $0.id == id }
        let waiter = index.map { waiters.remove(at: $0) }
        if waiter == nil { expired.insert(id) }
        lock.unlock()
        waiter?.continuation.resume(returning: nil)
    }

    private func expireEnd(_ id: UUID) {
        lock.lock()
        let index = endWaiters.firstIndex { $0.id == id }
        let waiter = index.map { endWaiters.remove(at: $0) }
        if waiter == nil { expired.insert(id) }
        lock.unlock()
        waiter?.continuation.resume()
    }
}

extension ConfigValue {
    /// The element at `index`, if this is an array that long.
    func element(_ index: Int) -> ConfigValue? {
        guard let items = arrayValue, items.indices.contains(index) else { return nil }
        return items[index]
    }
}
