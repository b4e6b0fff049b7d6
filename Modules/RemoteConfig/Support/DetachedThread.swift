#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Runs one short job on a new detached POSIX thread.
///
/// For work a client starts while it is built synchronously, at launch: the first `Task` of a
/// process starts the Swift runtime's thread pool (about 0.15–0.2 ms here, before the caller gets
/// its client back), where one plain thread costs about half of that. Later work goes to tasks.
enum DetachedThread {
    /// Runs `body` on a new thread; returns false (and runs nothing) when no thread could be made.
    static func run(_ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(Job(body)).toOpaque()
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else {
            Unmanaged<Job>.fromOpaque(context).release()
            return false
        }
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        #if canImport(Glibc)
            var thread = pthread_t()
        #else
            // An optional pointer where `pthread_t` is a pointer (Darwin, Musl).
            var thread: pthread_t?
        #endif
        let started = pthread_create(
            &thread, &attributes,
            { context in
                #if canImport(Darwin)
                    let job = Unmanaged<Job>.fromOpaque(context).takeRetainedValue()
                #else
                    guard let context else { return nil }
                    let job = Unmanaged<Job>.fromOpaque(context).takeRetainedValue()
                #endif
                job.body()
                return nil
            }, context)
        guard started == 0 else {
            Unmanaged<Job>.fromOpaque(context).release()
            return false
        }
        return true
    }

    /// The job a thread runs, passed through its one pointer-sized argument.
    private final class Job: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
