import ConfigPorts
import Foundation

/// Keeps a change handler registered; cancel it, or let it go, to stop.
public final class ObservationToken: Sendable {
    private let cancelAction: Locked<(@Sendable () -> Void)?>

    init(_ cancel: @escaping @Sendable () -> Void) { cancelAction = Locked(cancel) }

    /// Stops the handler. Calling it twice is harmless.
    public func cancel() {
        let action = cancelAction.withLock { a in
            let current = a
            a = nil
            return current
        }
        action?()
    }

    deinit { cancel() }
}
