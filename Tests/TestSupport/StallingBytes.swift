import FlyingFox
import FlyingSocks
import Foundation

/// A response body that sends a prefix, then waits on a gate and drops the connection: a slow
/// server stalling mid-body.
package struct StallingBytes: AsyncBufferedSequence, Sendable {
    /// One byte of the body.
    package typealias Element = UInt8
    /// Sent at once.
    package let prefix: Data
    /// What the rest of the body waits for.
    package let gate: Gate

    /// A body that sends `prefix` and then stalls until `gate` releases it.
    package init(prefix: Data, gate: Gate) {
        self.prefix = prefix
        self.gate = gate
    }

    /// An iterator from the first byte.
    package func makeAsyncIterator() -> Iterator { Iterator(prefix: prefix, gate: gate) }

    /// Sends the prefix, then stalls.
    package struct Iterator: AsyncBufferedIteratorProtocol {
        let prefix: Data
        let gate: Gate
        var sent = false

        /// The next byte.
        package mutating func next() async throws -> UInt8? { try await nextBuffer(suggested: 1)?.first }

        /// The prefix, then a wait on the gate that ends by dropping the connection.
        package mutating func nextBuffer(suggested count: Int) async throws -> Data? {
            if !sent {
                sent = true
                return prefix
            }
            await gate.wait()
            throw TestServerError("stalled body released")
        }
    }
}
