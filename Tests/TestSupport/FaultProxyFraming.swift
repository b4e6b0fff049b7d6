import Foundation

/// Splits what a server sends on one connection into whole pieces at HTTP/1.1 message boundaries,
/// so the ``FaultProxy`` can cut or repeat an event stream's events whole.
///
/// A response head is one piece; each chunk of a `Transfer-Encoding: chunked` body is one piece (its
/// size line, data and CR LF), as is the last chunk with its trailers. A `Content-Length` body, a
/// body read until the connection closes, and anything the framer cannot read are forwarded as they
/// come. Pieces of a head or a chunk are held until complete.
struct ResponseFraming {
    /// A piece of the server's bytes, ready to forward.
    struct Piece {
        var bytes: [UInt8]
        /// Whether it is one whole data chunk of a chunked body (what `halfEvent` cuts and `replay` repeats).
        var isChunk: Bool
        /// Whether the stream is between two chunks of a chunked body after it (where a replay fits).
        var endsBetweenChunks: Bool
    }

    private enum Phase: Equatable {
        /// Reading a response head, up to its blank line.
        case head
        /// Reading a chunk: its size line, then `size` bytes of data and CR LF.
        case chunk
        /// Reading the last chunk's trailers, up to a blank line.
        case trailers
        /// Forwarding this many more bytes of a `Content-Length` body.
        case counted(Int)
        /// Forwarding everything as it comes (a body read until close, or bytes the framer cannot read).
        case opaque
    }

    private var phase = Phase.head
    private var held: [UInt8] = []
    /// The largest head or chunk held before the framer gives up and forwards bytes as they come.
    private let limit = 8 * 1024 * 1024

    /// Takes the server's next bytes and returns the pieces they complete.
    mutating func feed(_ bytes: [UInt8]) -> [Piece] {
        held.append(contentsOf: bytes)
        var pieces: [Piece] = []
        while let piece = nextPiece() { pieces.append(piece) }
        return pieces
    }

    /// The next whole piece held, or nil when more bytes are needed.
    private mutating func nextPiece() -> Piece? {
        guard !held.isEmpty else { return nil }
        switch phase {
        case .opaque:
            return take(held.count, isChunk: false)
        case .counted(let remaining):
            let count = min(remaining, held.count)
            phase = remaining - count == 0 ? .head : .counted(remaining - count)
            return take(count, isChunk: false)
        case .head:
            guard let end = Self.blankLineEnd(in: held) else { return overLimit() }
            phase = Self.bodyPhase(afterHead: held[..<end])
            return take(end, isChunk: false)
        case .chunk:
            guard let lineEnd = Self.lineEnd(in: held, from: 0) else { return overLimit() }
            let sizeText = String(decoding: held[..<(lineEnd - 2)], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                phase = .opaque
                return take(held.count, isChunk: false)
            }
            if size == 0 {
                phase = .trailers
                return take(lineEnd, isChunk: false)
            }
            let total = lineEnd + size + 2
            guard held.count >= total else { return overLimit() }
            return take(total, isChunk: true)
        case .trailers:
            guard let end = Self.lineEnd(in: held, from: 0) else { return overLimit() }
            if end == 2 { phase = .head }  // the blank line that ends the message
            return take(end, isChunk: false)
        }
    }

    /// Removes and returns the first `count` bytes held.
    private mutating func take(_ count: Int, isChunk: Bool) -> Piece {
        let piece = Piece(bytes: Array(held[..<count]), isChunk: isChunk, endsBetweenChunks: phase == .chunk)
        held.removeFirst(count)
        return piece
    }

    /// Nil (wait for more), unless what is held is past the limit: then forward it as it comes.
    private mutating func overLimit() -> Piece? {
        guard held.count > limit else { return nil }
        phase = .opaque
        return take(held.count, isChunk: false)
    }

    /// How the body after `head` is framed.
    private static func bodyPhase(afterHead head: ArraySlice<UInt8>) -> Phase {
        let lines = String(decoding: head, as: UTF8.self).split(separator: "\r\n")
        let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first }.flatMap { Int($0) } ?? 0
        if (100..<200).contains(status) || status == 204 || status == 304 { return .head }
        var length: Int?
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
            let value = parts[1].trimmingCharacters(in: .whitespaces).lowercased()
            if name == "transfer-encoding" && value.contains("chunked") { return .chunk }
            if name == "content-length" { length = Int(value) }
        }
        guard let length else { return .opaque }
        return length > 0 ? .counted(length) : .head
    }

    /// The index just past the first CR LF CR LF, or nil.
    private static func blankLineEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 3..<bytes.count
        where bytes[index] == 0x0A && bytes[index - 1] == 0x0D && bytes[index - 2] == 0x0A && bytes[index - 3] == 0x0D {
            return index + 1
        }
        return nil
    }

    /// The index just past the first CR LF at or after `start`, or nil.
    private static func lineEnd(in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= start + 2 else { return nil }
        for index in (start + 1)..<bytes.count where bytes[index] == 0x0A && bytes[index - 1] == 0x0D {
            return index + 1
        }
        return nil
    }
}
