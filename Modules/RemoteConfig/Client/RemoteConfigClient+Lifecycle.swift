import ConfigPorts
import Foundation

/// A client is the ``ConfigurationLifecycle`` a service runner drives: ``run()`` runs its background
/// work until the runner cancels it, then stops the client (`ServiceLifecycleAdapter`'s `RemoteConfigService`).
extension RemoteConfigClient: ConfigurationLifecycle {
    /// Starts the background work (periodic refresh, push, override observation) unless it started
    /// already or the client stopped, then waits until the calling task is cancelled or ``stop()`` is
    /// called, and stops the client. What a service runner calls (`ServiceLifecycleAdapter`); see
    /// ``RemoteConfigBuilder/backgroundWork(_:)``.
    public func run() async {
        startBackgroundWork()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (runner: CheckedContinuation<Void, Never>) in
                // Cancellation is flagged before its handler runs, so checking it under the lock that the
                // handler takes means the runner is either resumed here or found by the handler.
                let wait = bookkeeping.withLock { book in
                    guard !book.stopped, !Task.isCancelled else { return false }
                    book.runners.append(runner)
                    return true
                }
                if !wait { runner.resume() }
            }
        } onCancel: {
            for runner in bookkeeping.withLock({ book in
                defer { book.runners = [] }; return book.runners
            }) { runner.resume() }
        }
        await stop()
    }

    /// Stops background refreshes, push and override observation, and finishes every stream (events
    /// and watches); a running ``run()`` returns.
    public func stop() async {
        let (tasks, runners) = bookkeeping.withLock { book in
            book.stopped = true
            defer { book.runners = [] }
            return (book.tasks, book.runners)
        }
        for task in tasks { task.cancel() }
        for engine in engines { engine.stop() }
        activator.stop()
        interception?.exposures?.finish()
        eventBroadcaster.finish()
        states.finish()
        for runner in runners { runner.resume() }
    }

    /// Starts the background work once, unless the client stopped.
    func startBackgroundWork() {
        bookkeeping.withLock { book in
            guard !book.started, !book.stopped else { return }
            book.started = true
            book.tasks = backgroundWork(self)
        }
    }
}

/// A client is the ``ResolvedConfiguration`` a bridge to another configuration API reads by name,
/// with its own reads: ``RemoteConfigClient/view(for:)``, ``RemoteConfigClient/fetch(_:for:)`` and
/// ``RemoteConfigClient/watch()``.
extension RemoteConfigClient: ResolvedConfiguration {}
