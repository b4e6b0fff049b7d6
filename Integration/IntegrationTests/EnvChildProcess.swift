import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs an executable built by this package as a real child process and collects its output.
///
/// Children started from `swift test` inherit a signal mask that blocks SIGTERM, so a child that
/// outlives its deadline is asked to stop, given a grace period, then killed with SIGKILL, and
/// always waited for.
enum EnvChildProcess {
    /// How a run ended and what it printed.
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

    /// A problem starting the child.
    struct LaunchError: Error, CustomStringConvertible {
        var description: String
    }

    /// The directory holding this package's built products (`.build/<triple>/debug`): the
    /// directory of the running test binary.
    static var productsDirectory: URL {
        #if os(Linux)
            return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        #else
            if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
                return bundle.bundleURL.deletingLastPathComponent()
            }
            return Bundle.main.bundleURL
        #endif
    }

    /// The executable product `name`, or an error saying how to build it.
    static func product(named name: String) throws(LaunchError) -> URL {
        let url = productsDirectory.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw LaunchError(
                description: "\(name) is not built at \(url.path); run `swift build --build-tests` before the tests")
        }
        return url
    }

    /// Runs `executable` with exactly `arguments` and `environment`, waiting up to `deadline`
    /// seconds for it to exit on its own (a safety net, not a timed assertion).
    static func run(
        _ executable: URL, arguments: [String], environment: [String: String], currentDirectory: URL,
        deadline: TimeInterval = 120, grace: TimeInterval = 2
    ) async throws -> Outcome {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Outcome, any Error>) in
            // A thread of its own: the waits below block, and must not hold a cooperative-pool thread.
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        try runBlocking(
                            executable, arguments: arguments, environment: environment,
                            currentDirectory: currentDirectory, deadline: deadline, grace: grace)
                    })
            }
        }
    }

    private static func runBlocking(
        _ executable: URL, arguments: [String], environment: [String: String], currentDirectory: URL,
        deadline: TimeInterval, grace: TimeInterval
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = currentDirectory
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }

        let readers = DispatchGroup()
        let outputBuffer = Buffer()
        let errorBuffer = Buffer()
        try process.run()
        // Read both pipes until end of file on threads of their own, so a chatty child never
        // blocks on a full pipe.
        for (handle, buffer) in [(output.fileHandleForReading, outputBuffer), (errors.fileHandleForReading, errorBuffer)] {
            readers.enter()
            Thread.detachNewThread {
                buffer.set(handle.readDataToEndOfFile())
                readers.leave()
            }
        }

        var timedOut = false
        if exited.wait(timeout: .now() + deadline) == .timedOut {
            timedOut = true
            process.terminate()
            if exited.wait(timeout: .now() + grace) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                exited.wait()
            }
        }
        readers.wait()
        return Outcome(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputBuffer.get(), as: UTF8.self),
            standardError: String(decoding: errorBuffer.get(), as: UTF8.self),
            timedOut: timedOut)
    }

    // @unchecked Sendable: `data` is only touched while holding `lock`.
    private final class Buffer: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()

        func set(_ newData: Data) {
            lock.lock()
            defer { lock.unlock() }
            data = newData
        }

        func get() -> Data {
            lock.lock()
            defer { lock.unlock() }
            return data
        }
    }
}
