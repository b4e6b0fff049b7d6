import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process of the integration tests: an executable started with an explicit signal mask,
/// its standard output and error collected as they arrive, stopped with a grace period.
///
/// Children started from `swift test` would inherit a signal mask that blocks SIGTERM (the test's
/// threads block it), so the child gets the mask asked for: empty by default. Stopping follows the
/// rule for children: a signal, a grace period, then SIGKILL, then wait. A thread of its own reaps the
/// child and reports its end; a signal is only sent while that report has not come, so a reused pid is
/// not hit (the window left is between that `waitpid` and its report). On Linux the child is started by
/// ``ChildSpawn`` (Foundation's `Process.run()` can crash a process with many descriptors open); elsewhere,
/// or on a glibc without what it needs, by `Process`.
final class ChildProcess: Sendable {
    /// How a child ended.
    enum Ending: Equatable, Sendable, CustomStringConvertible {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)

        /// The exit status, or the signal number when a signal ended it (as `Process.terminationStatus`).
        var status: Int32 {
            switch self {
            case .exited(let code): code
            case .signaled(let signal): signal
            }
        }

        var description: String {
            switch self {
            case .exited(let code): "exit status \(code)"
            case .signaled(let signal): "signal \(signal)"
            }
        }
    }

    /// How a run to completion ended and what it printed.
    struct Outcome: Sendable {
        /// The exit status, or the signal number when the child was killed.
        var status: Int32
        /// Everything written to standard output, as UTF-8.
        var standardOutput: String
        /// Everything written to standard error, as UTF-8.
        var standardError: String
        /// Whether the child had to be stopped because it outlived the deadline.
        var timedOut: Bool
    }

    /// A problem starting a child.
    struct LaunchError: Error, CustomStringConvertible {
        var description: String
    }

    /// Standard output, and standard error too when started with `mergingErrors`.
    let output: ChildOutput
    /// Standard error, or an empty output when it is merged into ``output``.
    let errors: ChildOutput
    /// The child's process identifier.
    let pid: pid_t
    private let ended = Eventual<Ending>()

    /// Starts `executable` with `arguments`, the given environment (this process's when nil) and
    /// directory, standard input from /dev/null, and a signal mask blocking exactly `blocked`.
    init(
        _ executable: URL, arguments: [String], environment: [String: String]? = nil, currentDirectory: URL? = nil,
        mergingErrors: Bool = false, blocking blocked: [Int32] = []
    ) throws {
        #if canImport(Glibc)
            if ChildSpawn.isAvailable {
                var outputEnds: [Int32] = [-1, -1]
                var errorEnds: [Int32] = [-1, -1]
                guard pipe(&outputEnds) == 0, mergingErrors || pipe(&errorEnds) == 0 else {
                    throw LaunchError(description: "cannot make a pipe: \(String(cString: strerror(errno)))")
                }
                if mergingErrors { errorEnds = outputEnds }
                defer {
                    close(outputEnds[1])
                    if !mergingErrors { close(errorEnds[1]) }
                }
                let pid: pid_t
                do {
                    pid = try ChildSpawn.spawn(
                        executable.path, arguments: arguments,
                        environment: environment ?? ProcessInfo.processInfo.environment,
                        directory: currentDirectory?.path, output: outputEnds[1], errors: errorEnds[1], blocking: blocked)
                } catch {
                    close(outputEnds[0])
                    if !mergingErrors { close(errorEnds[0]) }
                    throw error
                }
                self.pid = pid
                self.output = .reading(FileHandle(fileDescriptor: outputEnds[0], closeOnDealloc: true))
                self.errors =
                    mergingErrors ? .empty() : .reading(FileHandle(fileDescriptor: errorEnds[0], closeOnDealloc: true))
                Thread.detachNewThread { [ended] in ended.set(ChildSpawn.waitForEnd(of: pid)) }
                return
            }
        #endif
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let output = Pipe()
        let errors = mergingErrors ? output : Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [ended] process in
            ended.set(
                process.terminationReason == .uncaughtSignal
                    ? .signaled(process.terminationStatus) : .exited(process.terminationStatus))
        }
        try Self.launch(process, blocking: blocked)
        // Foundation keeps the running `Process` alive until it reports the end; only its pid is needed here.
        self.pid = process.processIdentifier
        self.output = .reading(output.fileHandleForReading)
        self.errors = mergingErrors ? .empty() : .reading(errors.fileHandleForReading)
    }

    /// Runs `process` with the calling thread's signal mask set to exactly `blocked` (a child
    /// inherits the mask of the thread that starts it), then puts the thread's mask back. Nothing
    /// in between suspends, so no other task runs on the thread meanwhile.
    private static func launch(_ process: Process, blocking blocked: [Int32]) throws {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in blocked { sigaddset(&mask, signal) }
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, &mask, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
    }

    /// Runs `executable` with exactly `arguments` and `environment`, waiting up to `deadline`
    /// seconds for it to exit on its own (a safety net, not a timed assertion) before stopping it
    /// (SIGTERM, `grace` seconds, SIGKILL).
    static func run(
        _ executable: URL, arguments: [String], environment: [String: String], currentDirectory: URL,
        deadline: TimeInterval = 120, grace: TimeInterval = 2
    ) async throws -> Outcome {
        let child = try ChildProcess(
            executable, arguments: arguments, environment: environment, currentDirectory: currentDirectory)
        let (ending, timedOut) = await child.finish(deadline: deadline, grace: grace)
        await child.output.waitForEnd(within: 30)
        await child.errors.waitForEnd(within: 30)
        return Outcome(
            status: ending.status, standardOutput: child.output.text, standardError: child.errors.text, timedOut: timedOut)
    }

    /// Runs `executable` with `arguments` to its end on the calling thread, for a command that takes
    /// milliseconds in synchronous code (a check in a static initializer), standard output and error
    /// together; returns its exit status (-1 when it could not start) and what it printed.
    static func runBlocking(_ executable: URL, arguments: [String]) -> (status: Int32, output: String) {
        #if canImport(Glibc)
            if ChildSpawn.isAvailable {
                var ends: [Int32] = [-1, -1]
                guard pipe(&ends) == 0 else { return (-1, "cannot make a pipe: \(String(cString: strerror(errno)))") }
                let reading = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
                let pid: pid_t
                do {
                    pid = try ChildSpawn.spawn(
                        executable.path, arguments: arguments, environment: ProcessInfo.processInfo.environment,
                        directory: nil, output: ends[1], errors: ends[1], blocking: [])
                } catch {
                    close(ends[1])
                    return (-1, "\(error)")
                }
                close(ends[1])
                // `readToEnd()` throws where `readDataToEndOfFile()` would stop the process (an interrupted read).
                let output = (try? reading.readToEnd()) ?? Data()
                return (ChildSpawn.waitForEnd(of: pid).status, String(decoding: output, as: UTF8.self))
            }
        #endif
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return (-1, "could not run \(executable.path): \(error)")
        }
        let output = (try? pipe.fileHandleForReading.readToEnd()) ?? Data()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// How the child ended, or nil while it runs.
    var ending: Ending? { ended.current }

    /// Sends `signal` unless the child has ended; true when it was sent.
    @discardableResult
    func send(_ signal: Int32) -> Bool {
        guard ended.current == nil else { return false }
        #if canImport(Glibc)
            return Glibc.kill(pid, signal) == 0
        #else
            return Darwin.kill(pid, signal) == 0
        #endif
    }

    /// Waits for the child to end.
    func waitForExit() async -> Ending { await ended.value() }

    /// Waits for the child to end; nil when `seconds` pass first.
    func waitForExit(within seconds: TimeInterval) async -> Ending? { await ended.value(within: seconds) }

    /// Sends `signal` (SIGTERM by default), waits up to `grace` seconds, then sends SIGKILL, and
    /// waits for the end.
    func stop(signal: Int32 = SIGTERM, grace: TimeInterval) async -> Ending {
        send(signal)
        if let ending = await waitForExit(within: grace) { return ending }
        send(SIGKILL)
        return await waitForExit()
    }

    /// Sends SIGKILL now and waits for the end.
    func kill() async -> Ending {
        send(SIGKILL)
        return await waitForExit()
    }

    /// Waits up to `deadline` seconds for the child to exit on its own, then stops it (SIGTERM,
    /// `grace` seconds, SIGKILL); says whether it had to be stopped.
    func finish(deadline: TimeInterval, grace: TimeInterval) async -> (ending: Ending, timedOut: Bool) {
        if let ending = await waitForExit(within: deadline) { return (ending, false) }
        return (await stop(grace: grace), true)
    }
}
