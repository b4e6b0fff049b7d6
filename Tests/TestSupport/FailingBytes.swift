import FlyingFox
import FlyingSocks
import Foundation

/// The bytes of a response body: `prefix`, then `fillerCount` spaces made on the fly (so a huge
/// body costs no memory), then either the end or a thrown error, which makes FlyingFox close the
/// connection mid-body.
package struct FailingBytes: AsyncBufferedSequence, Sendable {
    /// One byte of the body.
    package typealias Element = UInt8
    /// Sent first.
    package var prefix = Data()
    /// How many spaces follow the prefix.
    package var fillerCount = 0
    /// Whether the body ends by dropping the connection rather than by ending.
    package var failAtEnd = true
    /// Counts what is handed to FlyingFox, when given.
    package var counter: ByteCounter?

    /// A body of `prefix` and `fillerCount` spaces that fails at the end when `failAtEnd` is set.
    package init(prefix: Data = Data(), fillerCount: Int = 0, failAtEnd: Bool = true, counter: ByteCounter? = nil) {
        self.prefix = prefix
        self.fillerCount = fillerCount
        self.failAtEnd = failAtEnd
        self.counter = counter
    }

    /// An iterator from the first byte.
    package func makeAsyncIterator() -> Iterator { Iterator(source: self) }

    /// Hands the body over in chunks.
    package struct Iterator: AsyncBufferedIteratorProtocol {
        let source: FailingBytes
        var offset = 0

        /// The next byte.
        package mutating func next() async throws -> UInt8? { try await nextBuffer(suggested: 1)?.first }

        /// The next chunk of at most `count` bytes; nil at the end, or a thrown error to drop the connection.
        package mutating func nextBuffer(suggested count: Int) async throws -> Data? {
            let total = source.prefix.count + source.fillerCount
            if offset >= total {
                if source.failAtEnd { throw TestServerError("connection dropped on purpose") }
                return nil
            }
            let end = Swift.min(offset + Swift.max(count, 1), total)
            var chunk = Data()
            if offset < source.prefix.count {
                let start = source.prefix.startIndex
                chunk.append(source.prefix.subdata(in: start + offset..<start + Swift.min(end, source.prefix.count)))
            }
            let fillerStart = Swift.max(offset, source.prefix.count)
            if end > fillerStart { chunk.append(Data(repeating: UInt8(ascii: " "), count: end - fillerStart)) }
            offset = end
            source.counter?.add(chunk.count)
            return chunk
        }
    }
}
