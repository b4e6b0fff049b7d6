import FlyingFox
import FlyingSocks
import Foundation

/// A response body that sends the first bytes of a document and then fails, so the server
/// closes the connection before the declared `Content-Length` is reached (`serve --truncate`).
struct TruncatedBody: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8

    /// The bytes sent before the connection drops.
    var sent: Data

    func makeAsyncIterator() -> Iterator { Iterator(sent: sent) }

    /// Hands out ``sent`` in chunks, then throws.
    struct Iterator: AsyncBufferedIteratorProtocol {
        let sent: Data
        var offset = 0

        mutating func next() async throws -> UInt8? { try await nextBuffer(suggested: 1)?.first }

        mutating func nextBuffer(suggested count: Int) async throws -> Data? {
            guard offset < sent.count else { throw TruncatedBodyCut() }
            let end = Swift.min(offset + Swift.max(count, 1), sent.count)
            let chunk = sent.subdata(in: sent.startIndex + offset..<sent.startIndex + end)
            offset = end
            return chunk
        }
    }
}

/// Thrown by ``TruncatedBody`` to make the server drop the connection mid-body.
struct TruncatedBodyCut: Error {}
