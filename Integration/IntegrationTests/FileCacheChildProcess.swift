import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process started with `posix_spawn`, its standard output on a pipe.
///
/// The child gets an empty signal mask and default SIGTERM handling (`swift test` blocks SIGTERM
/// and children would inherit that). Blocking calls (reading the pipe, `waitpid`) run on a
/// dispatch queue and are awaited through continuations, never on the cooperative pool.
final class FileCacheChild: @unchecked Sendable {
    // @unchecked Sendable: `exited` is only touched while holding `lock` (an NSLock); `buffered`
    // only by the one `line(startingWith:)` call in flight (callers await each before the next);
    // `pid` and `output` are immutable after init.
    let pid: pid_t
    private let output: Int32
    private let lock = NSLock()
    private var buffered: [UInt8] = []
    private var exited = false

    private static let queue = DispatchQueue(label: "FileCacheChild.io", attributes: .concurrent)

    /// The directory holding the package's built products (next to the test bundle).
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

    /// The CacheWriterFixture executable, or nil when it has not been built.
    static var fixture: URL? {
        let url = productsDirectory.appendingPathComponent("CacheWriterFixture")
        return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
    }

    /// Spawns `executable` with `arguments`.
    init(_ executable: URL, _ arguments: [String]) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        // Close-on-exec on both ends, so children spawned by parallel tests do not keep our pipe
        // open (`pipe2` is not exported by the Glibc module; the window before `fcntl` is tiny,
        // and no assertion depends on end-of-file).
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)

        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t?
            var attributes: posix_spawnattr_t?
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawnattr_init(&attributes)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable.path, &actions, &attributes, argv, environ)
        close(fds[1])
        guard status == 0 else {
            close(fds[0])
            throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL)
        }
        pid = child
        output = fds[0]
    }

    deinit { close(output) }

    /// Waits for a line of output starting with `prefix`; nil at end of output.
    func line(startingWith prefix: String) async -> String? {
        await withCheckedContinuation { continuation in
            Self.queue.async { continuation.resume(returning: self.readLine(startingWith: prefix)) }
        }
    }

    private func readLine(startingWith prefix: String) -> String? {
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while true {
            if let newline = buffered.firstIndex(of: 0x0A) {
                let line = String(decoding: buffered[..<newline], as: UTF8.self)
                buffered.removeSubrange(...newline)
                if line.hasPrefix(prefix) { return line }
                continue
            }
            let n = read(output, &chunk, chunk.count)
            if n > 0 {
                buffered += chunk[..<n]
            } else if n == 0 || errno != EINTR {
                return nil
            }
        }
    }

    /// How a child ended.
    enum Ending: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        var description: String {
            switch self {
            case .exited(let code): "exit status \(code)"
            case .signaled(let signal): "signal \(signal)"
            }
        }
    }

    /// Sends SIGKILL now and reaps the child.
    func kill() async -> Ending {
        _ = signalUnlessReaped(SIGKILL)
        return await wait()
    }

    /// Waits for the child to end; after `grace` seconds sends SIGTERM, and SIGKILL one second later.
    func wait(grace: Double? = nil) async -> Ending {
        if let grace {
            Self.queue.asyncAfter(deadline: .now() + grace) { [self] in
                if signalUnlessReaped(SIGTERM) {
                    Self.queue.asyncAfter(deadline: .now() + 1) { [self] in _ = signalUnlessReaped(SIGKILL) }
                }
            }
        }
        return await withCheckedContinuation { continuation in
            Self.queue.async {
                // Wait without reaping, mark the child as ended, then reap: while `exited` is false
                // the pid cannot have been reused, so the watchdog never signals a stranger.
                var info = siginfo_t()
                while waitid(P_PID, id_t(self.pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
                self.lock.lock()
                self.exited = true
                self.lock.unlock()
                var status: Int32 = 0
                while waitpid(self.pid, &status, 0) < 0 && errno == EINTR {}
                let signal = status & 0x7F
                continuation.resume(returning: signal == 0 ? .exited((status >> 8) & 0xFF) : .signaled(signal))
            }
        }
    }

    /// Sends `signal` if the child has not been reaped yet (so a reused pid is never signalled).
    private func signalUnlessReaped(_ signal: Int32) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !exited else { return false }
        #if canImport(Glibc)
            return Glibc.kill(pid, signal) == 0
        #else
            return Darwin.kill(pid, signal) == 0
        #endif
    }
}
