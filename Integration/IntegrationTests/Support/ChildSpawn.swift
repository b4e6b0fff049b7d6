import Foundation

#if canImport(Glibc)
    import Glibc

    /// Starts a child with `posix_spawn` directly, on Linux, closing every descriptor above 2 in the child.
    ///
    /// Why not `Foundation.Process`: on Linux its `run()` lists `/proc/self/fd` to find the descriptors to
    /// close in the child, and copies 256 bytes of each directory entry, reading past glibc's buffer; when
    /// the process has some 1,300 descriptors open (hundreds of tests in flight do), the read can cross into
    /// an unmapped page and the whole test process crashes (swift-corelibs-foundation pull request 5472,
    /// not in Swift 6.3.1). glibc 2.34 and later close them in the child with
    /// `posix_spawn_file_actions_addclosefrom_np`; Swift's Glibc module does not import it (nor
    /// `…_addchdir_np`), so both are looked up by name, and ``isAvailable`` is false where they are missing.
    enum ChildSpawn {
        private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        private typealias ChangeDirectory =
            @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

        /// The addresses of the two glibc functions (0 when missing), as integers so that they can be shared.
        private static let closeFromAddress = Int(bitPattern: dlsym(nil, "posix_spawn_file_actions_addclosefrom_np"))
        private static let changeDirectoryAddress = Int(bitPattern: dlsym(nil, "posix_spawn_file_actions_addchdir_np"))

        /// Whether this glibc has both functions.
        static var isAvailable: Bool { closeFromAddress != 0 && changeDirectoryAddress != 0 }

        /// Starts `executable` with `arguments`, exactly `environment`, in `directory`, standard input from
        /// /dev/null, standard output and error to `output` and `errors`, in a process group of its own, with
        /// a signal mask blocking exactly `blocked`; returns its pid. The caller reaps it.
        static func spawn(
            _ executable: String, arguments: [String], environment: [String: String], directory: String?,
            output: Int32, errors: Int32, blocking blocked: [Int32]
        ) throws(ChildProcess.LaunchError) -> pid_t {
            guard let closeFromPointer = UnsafeRawPointer(bitPattern: closeFromAddress),
                let changeDirectoryPointer = UnsafeRawPointer(bitPattern: changeDirectoryAddress)
            else { throw ChildProcess.LaunchError(description: "this glibc cannot close descriptors in a spawned child") }
            let closeFrom = unsafeBitCast(closeFromPointer, to: CloseFrom.self)
            let changeDirectory = unsafeBitCast(changeDirectoryPointer, to: ChangeDirectory.self)

            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }

            var failure = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            if failure == 0 { failure = posix_spawn_file_actions_adddup2(&actions, output, 1) }
            if failure == 0 { failure = posix_spawn_file_actions_adddup2(&actions, errors, 2) }
            if failure == 0 { failure = closeFrom(&actions, 3) }
            if failure == 0, let directory { failure = changeDirectory(&actions, directory) }
            var mask = sigset_t()
            sigemptyset(&mask)
            for signal in blocked { sigaddset(&mask, signal) }
            if failure == 0 { failure = posix_spawnattr_setsigmask(&attributes, &mask) }
            if failure == 0 { failure = posix_spawnattr_setpgroup(&attributes, 0) }
            if failure == 0 {
                failure = posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
            }
            guard failure == 0 else { throw launchError(executable, failure) }

            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer {
                for pointer in argv { free(pointer) }
                for pointer in envp { free(pointer) }
            }
            var pid = pid_t()
            failure = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            guard failure == 0 else { throw launchError(executable, failure) }
            return pid
        }

        /// Waits for `pid` to end, on the calling thread, and says how.
        static func waitForEnd(of pid: pid_t) -> ChildProcess.Ending {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            // The wait status: the low 7 bits are the signal that ended it (0: it exited), the next 8 its exit status.
            let signal = status & 0x7f
            return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
        }

        private static func launchError(_ executable: String, _ code: Int32) -> ChildProcess.LaunchError {
            ChildProcess.LaunchError(description: "cannot start \(executable): \(String(cString: strerror(code)))")
        }
    }
#endif
