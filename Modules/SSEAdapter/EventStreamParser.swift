import Foundation

/// Turns the bytes of a `text/event-stream` into events, following the WHATWG HTML standard
/// ("Interpreting an event stream").
///
/// Lines end with CR LF, LF or CR, also when a CR LF is split between two chunks. A leading byte
/// order mark is skipped. `:` lines are comments. `data:` lines accumulate, joined by LF; a blank
/// line dispatches the event (nothing when it has no data). `id:` sets the last event ID (ignored
/// when it contains NUL); `retry:` with only ASCII digits sets the reconnection time. Other fields
/// are ignored, and a field name without a colon has an empty value. An event not ended by a blank
/// line when the stream ends is never dispatched.
///
/// The caps turn a server that never ends a line or an event into a typed error instead of unbounded memory.
public struct EventStreamParser: Sendable {
    /// What a chunk of bytes produced, in order.
    public enum Item: Sendable, Hashable {
        /// A dispatched event.
        case event(ServerSentEvent)
        /// The server set the reconnection time, in milliseconds.
        case retry(milliseconds: Int)
        /// A comment line (often a heartbeat), without its colon.
        case comment(String)
    }

    /// The longest line accepted, in bytes (without its line ending).
    public let maxLineBytes: Int
    /// The most data one event may carry, in bytes.
    public let maxEventBytes: Int
    /// The last event ID, as of the last dispatch (sent back as `Last-Event-ID` when reconnecting).
    public private(set) var lastEventID: String?

    private var line: [UInt8] = []
    private var afterCR = false
    /// How many bytes of a leading byte order mark were seen; -1 once past the start of the stream.
    private var bomSeen = 0
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType = ""
    private var idBuffer: String?

    /// Creates a parser with the given caps; `lastEventID` carries over from an earlier connection.
    public init(maxLineBytes: Int = 64 * 1024, maxEventBytes: Int = 1024 * 1024, lastEventID: String? = nil) {
        self.maxLineBytes = maxLineBytes
        self.maxEventBytes = maxEventBytes
        self.lastEventID = lastEventID
        self.idBuffer = lastEventID
    }

    /// Parses the next chunk of the stream.
    ///
    /// - Throws: ``SSEError`` `.lineTooLong` or `.eventTooLarge` when a cap is passed; the stream
    ///   cannot be resynchronised after that, so drop the connection.
    public mutating func feed(_ chunk: Data) throws(SSEError) -> [Item] {
        var items: [Item] = []
        for byte in chunk {
            if bomSeen >= 0 {  // At the start of the stream: skip a byte order mark, once.
                if byte == Self.bom[bomSeen] {
                    bomSeen = bomSeen == 2 ? -1 : bomSeen + 1
                    continue
                }
                line.append(contentsOf: Self.bom[0..<bomSeen])  // Not a byte order mark after all.
                bomSeen = -1
            }
            switch byte {
            case 0x0A where afterCR:
                afterCR = false  // the LF of a CR LF
            case 0x0A, 0x0D:
                afterCR = byte == 0x0D
                try endLine(into: &items)
            default:
                afterCR = false
                guard line.count < maxLineBytes else {
                    throw SSEError(
                        .lineTooLong(limit: maxLineBytes),
                        message: "the event stream sent a line longer than \(maxLineBytes) bytes; the connection was "
                            + "dropped (raise maxLineBytes if the server sends such lines on purpose)")
                }
                line.append(byte)
            }
        }
        return items
    }

    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Processes the line collected so far.
    private mutating func endLine(into items: inout [Item]) throws(SSEError) {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            dispatch(into: &items)
            return
        }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        if colon == 0 {
            items.append(.comment(String(decoding: line.dropFirst(), as: UTF8.self)))
            return
        }
        let name = String(decoding: line[..<(colon ?? line.endIndex)], as: UTF8.self)
        var value = colon.map { line[($0 + 1)...] } ?? []
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        switch name {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            guard data.count + value.count + 1 <= maxEventBytes else {
                throw SSEError(
                    .eventTooLarge(limit: maxEventBytes),
                    message: "an event's data grew past \(maxEventBytes) bytes; the connection was dropped (raise "
                        + "maxEventBytes if the server sends whole payloads that large)")
            }
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
        case "id":
            if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }),
                let milliseconds = Int(String(decoding: value, as: UTF8.self))
            {
                items.append(.retry(milliseconds: milliseconds))
            }
        default:
            break  // Unknown fields are ignored.
        }
    }

    /// A blank line: dispatches the event collected, if it has data.
    private mutating func dispatch(into items: inout [Item]) {
        lastEventID = idBuffer.flatMap { $0.isEmpty ? nil : $0 }
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            eventType = ""
        }
        guard hasData else { return }
        let event = ServerSentEvent(
            type: eventType.isEmpty ? "message" : eventType, data: String(decoding: data, as: UTF8.self),
            lastEventID: lastEventID)
        items.append(.event(event))
    }
}
