import Foundation

/// A count several tasks add to, such as the bytes a test server handed over.
package final class ByteCounter: @unchecked Sendable {
    // @unchecked Sendable: `value` is only touched while holding `lock`.
    private let lock = NSLock()
    private var value = 0

    /// A count at zero.
    package init() {}

    /// Adds `count`.
    package func add(_ count: Int) {
        lock.lock()
        value += count
        lock.unlock()
    }

    /// The count so far.
    package var total: Int {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
