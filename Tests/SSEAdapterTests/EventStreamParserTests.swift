import Foundation
import SSEAdapter
import Testing

@Suite("EventStreamParser")
struct EventStreamParserTests {
    /// Every item the parser produces from `text`, fed in one chunk or one byte at a time.
    private func parse(_ text: String, byteAtATime: Bool = false) throws -> [EventStreamParser.Item] {
        try parse(Data(text.utf8), byteAtATime: byteAtATime)
    }

    private func parse(_ bytes: Data, byteAtATime: Bool = false, parser: EventStreamParser = EventStreamParser())
        throws -> [EventStreamParser.Item]
    {
        var parser = parser
        if !byteAtATime { return try parser.feed(bytes) }
        var items: [EventStreamParser.Item] = []
        for byte in bytes { items += try parser.feed(Data([byte])) }
        return items
    }

    private func events(_ items: [EventStreamParser.Item]) -> [ServerSentEvent] {
        items.compactMap { if case .event(let event) = $0 { event } else { nil } }
    }

    @Test("data lines are joined with line feeds (the standard's stock-ticker example)", arguments: [false, true])
    func multiLineData(byteAtATime: Bool) throws {
        let items = try parse("data: YHOO\ndata: +2\ndata: 10\n\n", byteAtATime: byteAtATime)
        #expect(events(items) == [ServerSentEvent(data: "YHOO\n+2\n10")])
    }

    @Test("comments, ids and the space after the colon (the standard's second example)")
    func commentsAndIDs() throws {
        let items = try parse(": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n")
        #expect(items.first == .comment(" test stream"))
        #expect(
            events(items) == [
                ServerSentEvent(data: "first event", lastEventID: "1"),
                ServerSentEvent(data: "second event", lastEventID: nil),
                ServerSentEvent(data: " third event", lastEventID: nil),
            ])
    }

    @Test("empty data lines: an empty event, a single line feed, and an unterminated event is dropped")
    func emptyData() throws {
        let items = try parse("data\n\ndata\ndata\n\ndata:")
        #expect(events(items).map(\.data) == ["", "\n"])
    }

    @Test("a blank line with no data dispatches nothing but still commits the id")
    func idWithoutData() throws {
        var parser = EventStreamParser()
        let items = try parser.feed(Data("id: 42\n\n".utf8))
        #expect(items.isEmpty)
        #expect(parser.lastEventID == "42")
    }

    @Test("CR, LF and CRLF all end lines, also when CRLF is split between chunks", arguments: ["\r", "\n", "\r\n"])
    func lineEndings(ending: String) throws {
        let text = "event: update\(ending)data: a\(ending)data: b\(ending)\(ending)"
        let expected = [ServerSentEvent(type: "update", data: "a\nb")]
        #expect(events(try parse(text)) == expected)
        #expect(events(try parse(text, byteAtATime: true)) == expected)
    }

    @Test("a CR at the end of a chunk followed by LF in the next is one line ending")
    func splitCRLF() throws {
        var parser = EventStreamParser()
        var items = try parser.feed(Data("data: x\r".utf8))
        items += try parser.feed(Data("\n\r\n".utf8))
        #expect(events(items) == [ServerSentEvent(data: "x")])
    }

    @Test("a byte order mark is skipped at the start of the stream only")
    func byteOrderMark() throws {
        let bom = Data([0xEF, 0xBB, 0xBF])
        #expect(events(try parse(bom + Data("data: a\n\n".utf8), byteAtATime: true)) == [ServerSentEvent(data: "a")])
        let twice = bom + bom + Data("data: a\n\n".utf8)
        #expect(events(try parse(twice)).isEmpty)  // the second mark starts an unknown field name
    }

    @Test("UTF-8 split between chunks decodes whole")
    func splitUTF8() throws {
        let items = try parse(Data("data: café ✓\n\n".utf8), byteAtATime: true)
        #expect(events(items) == [ServerSentEvent(data: "café ✓")])
    }

    @Test("retry takes only ASCII digits; unknown fields and an id with NUL are ignored")
    func fields() throws {
        let items = try parse("retry: 2500\nretry: 12a\nretry:\nfoo: bar\nid: a\u{0}b\ndata\n\n")
        #expect(items.first == .retry(milliseconds: 2500))
        #expect(items.filter { if case .retry = $0 { true } else { false } }.count == 1)
        #expect(events(items) == [ServerSentEvent(data: "", lastEventID: nil)])
    }

    @Test("a field name alone has an empty value; an event type applies to one event only")
    func fieldWithoutColonAndEventType() throws {
        let items = try parse("event: a\ndata: 1\n\ndata: 2\n\n")
        #expect(events(items).map(\.type) == ["a", "message"])
    }

    @Test("the last event ID carries over from an earlier connection")
    func carriedLastEventID() throws {
        let items = try parse(Data("data: x\n\n".utf8), parser: EventStreamParser(lastEventID: "7"))
        #expect(events(items) == [ServerSentEvent(data: "x", lastEventID: "7")])
    }

    @Test("a line longer than the cap is a typed error")
    func lineTooLong() {
        var parser = EventStreamParser(maxLineBytes: 16)
        #expect(throws: SSEError.self) { _ = try parser.feed(Data(("data: " + String(repeating: "x", count: 20)).utf8)) }
        var again = EventStreamParser(maxLineBytes: 16)
        do {
            _ = try again.feed(Data(String(repeating: "y", count: 17).utf8))
            Issue.record("expected lineTooLong")
        } catch {
            #expect(error.kind == .lineTooLong(limit: 16))
            #expect(error.message.contains("maxLineBytes"))
        }
    }

    @Test("an event whose data grows past the cap is a typed error, even in short lines")
    func eventTooLarge() {
        var parser = EventStreamParser(maxEventBytes: 10)
        do {
            _ = try parser.feed(Data("data: 12345\ndata: 67890\n".utf8))
            Issue.record("expected eventTooLarge")
        } catch {
            #expect(error.kind == .eventTooLarge(limit: 10))
            #expect(error.message.contains("maxEventBytes"))
        }
    }
}
