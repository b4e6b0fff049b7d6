import ConfigPorts
import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Waits for SIGINT (Ctrl-C) or SIGTERM with dispatch signal sources, so a server stops cleanly.
///
/// A process started by another one may inherit a signal mask that blocks SIGTERM (children of
/// `swift test` do). ``unblock()`` unblocks both signals first, so `kill <pid>` always works.
final class SignalWaiter: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Int32, Never>?
        var received: Int32?
        /// The signal sources, kept to cancel them.
        var sources: [any DispatchSourceSignal] = []
    }

    private let state = Locked(State())
    private let queue = DispatchQueue(label: "remote-config.signals")

    /// Unblocks SIGINT and SIGTERM for this thread and the process, and starts listening for them.
    init() {
        Self.unblock()
        for signalNumber in [SIGINT, SIGTERM] {
            // The default action would end the process before the source sees the signal.
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { [weak self] in self?.deliver(signalNumber) }
            source.resume()
            state.withLock { $0.sources.append(source) }
        }
    }

    /// Unblocks SIGINT and SIGTERM in the calling thread's mask (inherited by threads it starts).
    static func unblock() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }

    /// Suspends until SIGINT or SIGTERM arrives, and returns which.
    func wait() async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let received = state.withLock { state -> Int32? in
                if let received = state.received { return received }
                state.continuation = continuation
                return nil
            }
            if let received { continuation.resume(returning: received) }
        }
    }

    /// Stops listening and restores the default actions.
    func cancel() {
        for source in state.withLock({ $0.sources }) { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    /// The signal's name, `SIGINT` or `SIGTERM`.
    static func name(of signalNumber: Int32) -> String {
        signalNumber == SIGINT ? "SIGINT" : signalNumber == SIGTERM ? "SIGTERM" : "signal \(signalNumber)"
    }

    private func deliver(_ signalNumber: Int32) {
        let (isFirst, waiting) = state.withLock { state -> (Bool, CheckedContinuation<Int32, Never>?) in
            guard state.received == nil else { return (false, nil) }
            state.received = signalNumber
            defer { state.continuation = nil }
            return (true, state.continuation)
        }
        // A second Ctrl-C while stopping: stop at once.
        guard isFirst else { _exit(128 + signalNumber) }
        waiting?.resume(returning: signalNumber)
    }
}
