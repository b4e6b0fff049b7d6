import Foundation
import Testing

@testable import RemoteConfig

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The plain thread a synchronously built client finishes its first state on.
@Suite("Detached thread")
struct DetachedThreadTests {
    /// The calling thread's identity as a number (a pointer on Apple platforms).
    private static func currentThread() -> UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }

    @Test("the job runs on a thread other than the caller's")
    func runsOnAnotherThread() async {
        let caller = Self.currentThread()
        let jobThread: UInt? = await withCheckedContinuation { continuation in
            let started = DetachedThread.run { continuation.resume(returning: Self.currentThread()) }
            if !started { continuation.resume(returning: nil) }
        }
        guard let jobThread else {
            Issue.record("no thread could be made")
            return
        }
        #expect(jobThread != caller)
    }
}
