import ConfigPorts
import Foundation

/// A count several tasks add to, such as the bytes a test server handed over.
package final class ByteCounter: Sendable {
    private let value = Locked(0)

    /// A count at zero.
    package init() {}

    /// Adds `count`.
    package func add(_ count: Int) {
        value.withLock { $0 += count }
    }

    /// The count so far.
    package var total: Int { value.current }
}
