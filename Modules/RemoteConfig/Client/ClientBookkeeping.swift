import Foundation

/// A client's small mutable bookkeeping: how to cancel its background tasks, and the unregistered
/// names it has reported.
///
/// One non-generic class with one lock: a `Locked<…>` of each would make the runtime build two
/// generic types' metadata from their mangled names when the client is made at launch.
///
/// `@unchecked Sendable`: `cancels` and `reported` are only read or written holding `lock`.
final class ClientBookkeeping: @unchecked Sendable {
    private let lock = NSLock()
    /// Closures rather than `Task`s, so a client without background tasks asks the runtime for no `Task` type.
    private var cancels: [@Sendable () -> Void] = []
    private var reported: Set<String> = []

    /// Keeps `cancel` to run when the client stops or is released.
    func addCancel(_ cancel: @escaping @Sendable () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        cancels.append(cancel)
    }

    /// The cancel closures added so far, forgotten here.
    func takeCancels() -> [@Sendable () -> Void] {
        lock.lock()
        defer { lock.unlock() }
        let taken = cancels
        cancels.removeAll()
        return taken
    }

    /// Whether `name` is reported for the first time (and notes it).
    func reportsFirst(_ name: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return reported.insert(name).inserted
    }
}
