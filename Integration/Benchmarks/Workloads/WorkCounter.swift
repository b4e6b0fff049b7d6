import ConfigPorts
import Foundation

/// Hands out a total of work in chunks, so parallel readers each take the next chunk when done and
/// all stay busy until the total is done.
///
/// With a fixed share per reader, a reader that another process slowed would set the wall time
/// alone, and a throughput figure would measure the machine's noise. Taking a chunk costs one lock
/// round trip per ``chunk`` units.
package final class WorkCounter: Sendable {
    /// The units handed out so far.
    private let handedOut = Locked(0)
    /// The work to hand out in all.
    package let total: Int
    /// The most one ``take()`` hands out.
    package let chunk: Int

    /// Hands out `total` units, `chunk` at a time.
    package init(total: Int, chunk: Int = 65_536) {
        self.total = total
        self.chunk = chunk
    }

    /// The size of the next chunk, or nil when every unit has been handed out.
    package func take() -> Int? {
        let first = handedOut.withLock { handedOut in
            defer { handedOut += chunk }
            return handedOut
        }
        return first < total ? min(chunk, total - first) : nil
    }
}
