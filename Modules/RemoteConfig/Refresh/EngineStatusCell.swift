import Foundation

/// The refresh engine's status, shared by the engine and its client, behind a lock.
///
/// A class of its own rather than `Locked<EngineStatus>`: the metadata of a generic class is made
/// by the runtime from its mangled name on first use, and a client is made at launch, where each
/// such lookup delays the first read. A non-generic class's metadata is made by the compiler.
///
/// `@unchecked Sendable`: `status` is only read or written inside `withLock`, holding `lock`.
final class EngineStatusCell: @unchecked Sendable {
    private let lock = NSLock()
    private var status: EngineStatus

    init(_ status: EngineStatus) { self.status = status }

    /// Runs `body` on the status, holding the lock.
    @inline(__always)
    func withLock<R>(_ body: (inout EngineStatus) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&status)
    }

    /// A copy of the status.
    var current: EngineStatus { withLock { $0 } }
}
