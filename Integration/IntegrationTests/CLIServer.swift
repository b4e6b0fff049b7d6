import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `remote-config serve` child: started, read line by line, stopped with SIGTERM (then SIGKILL).
final class CLIServer: Sendable {
    /// An error of the harness (the child did not start or say its URL).
    struct HarnessError: Error, CustomStringConvertible {
        var description: String
    }

    private let child: ChildProcess
    /// Set when the server slot has been given back (a server may be stopped more than once).
    private let slotReturned = Eventual<Void>()
    /// The base URL the server printed, `http://127.0.0.1:<port>`.
    let baseURL: String
    /// The signals a server started with `blockingSignals` has blocked.
    static let blockedSignals = [SIGTERM, SIGINT]

    private init(child: ChildProcess, baseURL: String) {
        self.child = child
        self.baseURL = baseURL
    }

    /// Starts `remote-config serve <arguments>` and waits until it prints its URL.
    ///
    /// - Parameter blockingSignals: start the child with SIGTERM and SIGINT blocked in its signal
    ///   mask, as a parent such as `swift test` may leave them, to check that it still stops.
    static func start(_ arguments: [String], blockingSignals: Bool = false) async throws -> CLIServer {
        let executable = try CLIProcess.executable()
        await CLIProcess.serverSlots.acquire()
        let child: ChildProcess
        do {
            child = try ChildProcess(
                executable, arguments: ["serve"] + arguments, environment: CLIProcess.environment, mergingErrors: true,
                blocking: blockingSignals ? blockedSignals : [])
        } catch {
            CLIProcess.serverSlots.release()
            throw error
        }
        let line = await child.output.line(within: 30) { $0.hasPrefix("Serving ") && $0.contains(" on http://127.0.0.1:") }
        guard let line, let range = line.range(of: "http://127.0.0.1:") else {
            let server = CLIServer(child: child, baseURL: "")
            _ = await server.stop()
            throw HarnessError(description: "serve did not print its URL; output:\n\(server.output)")
        }
        let base = String(line[range.lowerBound...]).split(separator: " ").first.map(String.init) ?? ""
        return CLIServer(child: child, baseURL: base)
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

    /// Everything the server printed so far, line by line.
    var output: String { child.output.lines.joined(separator: "\n") }

    /// Waits (up to `timeout` seconds, a safety net) for a printed line that satisfies `predicate`.
    func waitForLine(timeout: TimeInterval = 20, where predicate: @escaping @Sendable (String) -> Bool) async -> String? {
        await child.output.line(within: timeout, where: predicate)
    }

    /// Sends `signal` (SIGTERM by default), waits up to `grace` seconds, then SIGKILLs; returns the exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM, grace: TimeInterval = 5) async -> Int32 {
        let ending = await child.stop(signal: signal, grace: grace)
        await child.output.waitForEnd(within: 5)
        if slotReturned.set(()) { CLIProcess.serverSlots.release() }
        return ending.status
    }

    /// Whether the child was killed by a signal rather than exiting.
    var wasKilledBySignal: Bool {
        if case .signaled? = child.ending { return true }
        return false
    }
}
