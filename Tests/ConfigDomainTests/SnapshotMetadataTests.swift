import ConfigDomain
import Foundation
import Testing

@Suite("Snapshot metadata and validators")
struct SnapshotMetadataTests {
    let hash = ContentHash(of: Data("x".utf8))
    let fetched = Date(timeIntervalSince1970: 1_000)
    let later = Date(timeIntervalSince1970: 2_000)

    @Test("renewed moves fetchedAt and takes new validators, keeping hash, source and ttl hint")
    func renewedTakesNewValidators() {
        let metadata = SnapshotMetadata(
            fetchedAt: fetched, validators: Validators(etag: #""v1""#, lastModified: "Mon, 01 Jan 2024 00:00:00 GMT"),
            contentHash: hash, source: "https://example.com/config.json", ttlHint: 60)
        let renewed = metadata.renewed(
            at: later, validators: Validators(etag: #""v2""#, lastModified: "Tue, 02 Jan 2024 00:00:00 GMT"))
        #expect(renewed.fetchedAt == later)
        #expect(renewed.validators == Validators(etag: #""v2""#, lastModified: "Tue, 02 Jan 2024 00:00:00 GMT"))
        #expect(renewed.contentHash == hash)
        #expect(renewed.source == "https://example.com/config.json")
        #expect(renewed.ttlHint == 60)
    }

    @Test("renewed keeps a validator the answer did not repeat")
    func renewedKeepsMissingValidators() {
        let metadata = SnapshotMetadata(
            fetchedAt: fetched, validators: Validators(etag: #"W/"v1""#, lastModified: "Mon"), contentHash: hash, source: "s")
        #expect(metadata.renewed(at: later, validators: .none).validators == Validators(etag: #"W/"v1""#, lastModified: "Mon"))
        #expect(
            metadata.renewed(at: later, validators: Validators(etag: #""v2""#)).validators
                == Validators(etag: #""v2""#, lastModified: "Mon"))
    }

    @Test("metadata survives a Codable round trip")
    func metadataCodable() throws {
        let metadata = SnapshotMetadata(
            fetchedAt: fetched, validators: Validators(etag: "e"), contentHash: hash, source: "s", ttlHint: 5)
        let back = try JSONDecoder().decode(SnapshotMetadata.self, from: JSONEncoder().encode(metadata))
        #expect(back == metadata)
    }

    @Test("validators: empty means unconditional, and describe themselves")
    func validators() {
        #expect(Validators.none.isEmpty)
        #expect(Validators.none.description == "none")
        #expect(!Validators(etag: "e").isEmpty)
        #expect(!Validators(lastModified: "m").isEmpty)
        #expect(Validators(etag: #""abc""#, lastModified: "Mon").description == #"etag="abc" lastModified=Mon"#)
        #expect(Validators(lastModified: "Mon").description == "lastModified=Mon")
    }

    @Test("metadata carries the signature text through a Codable round trip, and a 304 renewal keeps it")
    func metadataKeepsSignature() throws {
        let metadata = SnapshotMetadata(
            fetchedAt: Date(timeIntervalSince1970: 1), contentHash: ContentHash(of: Data()), source: "s", signature: "keyid=k1")
        #expect(try JSONDecoder().decode(SnapshotMetadata.self, from: JSONEncoder().encode(metadata)) == metadata)
        #expect(metadata.renewed(at: Date(timeIntervalSince1970: 2), validators: .none).signature == "keyid=k1")
        let unsigned = Data(#"{"fetchedAt":0,"validators":{},"contentHash":{"value":1,"byteCount":0},"source":"s"}"#.utf8)
        #expect(try JSONDecoder().decode(SnapshotMetadata.self, from: unsigned).signature == nil, "older encodings decode")
    }
}
