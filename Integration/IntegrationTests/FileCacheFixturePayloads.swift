import ConfigDomain
import Foundation

// The same derivations as Integration/Fixtures/CacheWriter/FixturePayloads.swift (an executable
// target cannot be imported): what the fixture may have written, recomputed byte for byte.
enum FileCacheFixturePayloads {
    static func crashPayload(_ counter: Int) -> Data {
        let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        var bytes = Array("{\"counter\":\(counter),\"fill\":\"".utf8)
        let fillCount = (counter &* 7_919) % 4_096 + 16
        for k in 0..<fillCount { bytes.append(letters[(counter &+ k) % 26]) }
        bytes += Array("\"}".utf8)
        return Data(bytes)
    }

    static func crashMetadata(_ counter: Int, renewed: Bool) -> SnapshotMetadata {
        SnapshotMetadata(
            fetchedAt: Date(timeIntervalSinceReferenceDate: Double(counter) + (renewed ? 0.5 : 0)),
            validators: Validators(etag: "\"c\(counter)\(renewed ? "-renewed" : "")\"", lastModified: nil),
            contentHash: ContentHash(of: crashPayload(counter)), source: "crash-loop", ttlHint: renewed ? 60 : nil)
    }

    static func hammerPayload(writer: Int, step: Int) -> Data {
        let fill = String(repeating: String(UnicodeScalar(UInt8(97 + writer % 26))), count: 2_000 + (step % 13) * 100)
        return Data("{\"writer\":\(writer),\"step\":\(step),\"fill\":\"\(fill)\"}".utf8)
    }

    /// The integer after `"<field>":` at the start of a fixture payload.
    static func leadingInteger(_ field: String, in payload: Data) -> Int? {
        let text = String(decoding: payload.prefix(64), as: UTF8.self)
        guard let range = text.range(of: "\"\(field)\":") else { return nil }
        return Int(text[range.upperBound...].prefix(while: { $0.isNumber }))
    }
}
