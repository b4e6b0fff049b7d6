import ConfigDomain
import ConfigPorts
import Foundation
import Testing

@testable import EtcdAdapter

@Suite("ConfigurationState")
struct ConfigurationStateTests {
    private static func kv(_ key: String, _ value: Data, _ revision: Int64) -> GatewayKeyValue {
        GatewayKeyValue(
            key: Data(key.utf8).base64EncodedString(), value: value.isEmpty ? nil : value.base64EncodedString(),
            modRevision: GatewayInt(revision))
    }

    private static func state(_ layout: EtcdLayout, _ kvs: [GatewayKeyValue], revision: Int64 = 10) throws -> ConfigurationState {
        try ConfigurationState(
            layout: layout, range: RangeResponse(header: ResponseHeader(revision: GatewayInt(revision)), kvs: kvs))
    }

    @Test("under a prefix: JSON values are JSON, other text is a string, the prefix's own key is skipped")
    func prefixValues() throws {
        let state = try Self.state(
            .prefix("/f/"),
            [
                Self.kv("/f/", Data("ignored".utf8), 2), Self.kv("/f/n", Data("3".utf8), 3),
                Self.kv("/f/s", Data("plain text".utf8), 4), Self.kv("/f/q", Data(#""3""#.utf8), 5),
                Self.kv("/f/nested/b", Data("true".utf8), 6), Self.kv("/f/empty", Data(), 7),
            ])
        let payload = try state.payload(from: "http://e")
        #expect(
            try PlainJSONFormat().decode(payload.bytes).values
                == ["n": .int(3), "s": .string("plain text"), "q": .string("3"), "nested/b": .bool(true), "empty": .string("")])
        #expect(payload.validators.etag == "7/6")
        #expect(payload.contentType == "application/json")
        #expect(state.revision == 10)
    }

    @Test("a value that is not UTF-8 is refused, naming its key")
    func notText() throws {
        let state = try Self.state(.prefix("/f/"), [Self.kv("/f/bin", Data([0xFF, 0xFE]), 3)])
        let error = #expect(throws: EtcdError.self) { try state.payload(from: "http://e") }
        #expect(error?.kind == .invalidJSON)
        #expect(error?.message.contains("/f/bin at revision 3 is not UTF-8 text") == true)
    }

    @Test("events apply in order: puts replace, deletes remove, and the state moves to their revision")
    func events() throws {
        var state = try Self.state(.prefix("/f/"), [Self.kv("/f/a", Data("1".utf8), 3)], revision: 3)
        try state.apply(
            [
                WatchEvent(type: nil, kv: Self.kv("/f/b", Data("2".utf8), 4)),
                WatchEvent(type: "DELETE", kv: Self.kv("/f/a", Data(), 4)),
            ],
            revision: 4)
        #expect(state.revision == 4)
        #expect(try PlainJSONFormat().decode(state.payload(from: "e").bytes).values == ["b": .int(2)])
        #expect(state.version == "4/1")
    }

    @Test("a document must be a JSON object; its version is its mod_revision and the source names key and revision")
    func document() throws {
        let good = try Self.state(.document(key: "/c"), [Self.kv("/c", Data(#"{"a":1}"#.utf8), 8)])
        let payload = try good.payload(from: "http://e:2379")
        #expect(payload.validators.etag == "8")
        #expect(payload.source == "etcd http://e:2379 key /c at revision 8")

        let bad = try Self.state(.document(key: "/c"), [Self.kv("/c", Data("not json".utf8), 9)])
        let error = #expect(throws: EtcdError.self) { try bad.payload(from: "e") }
        #expect(error?.kind == .invalidJSON)
        #expect(
            error?.message.contains("/c at revision 9 is not a configuration: it is not valid JSON at byte ") == true,
            "\(String(describing: error))")
    }

    @Test("no key: keyMissing, saying how to publish one (a document) or what to put (a prefix)")
    func missing() throws {
        let document = #expect(throws: EtcdError.self) { try Self.state(.document(key: "/c"), []).payload(from: "http://e") }
        #expect(document?.kind == .keyMissing)
        #expect(document?.message.contains("remote-config publish config.json --etcd http://e --key /c") == true)
        let prefix = #expect(throws: EtcdError.self) { try Self.state(.prefix("/f/"), []).payload(from: "http://e") }
        #expect(prefix?.message.contains("etcdctl put /f/<name> <value>") == true)
    }

    @Test("a key or value that is not base64 is refused")
    func notBase64() throws {
        let kv = GatewayKeyValue(key: "%%%", value: nil, modRevision: GatewayInt(1))
        #expect(throws: EtcdError.self) { try Self.state(.prefix("/"), [kv]) }
    }
}
