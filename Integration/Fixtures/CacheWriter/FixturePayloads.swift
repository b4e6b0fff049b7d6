import ConfigDomain
import ConfigPorts
import Foundation

// The snapshots this fixture writes are derived from a counter, so a test can recompute, byte
// for byte, everything the fixture may have written. FileCacheFixturePayloads.swift in
// Integration/IntegrationTests holds the same derivation; keep the two in step.

/// The payload of crash-loop step `counter`: JSON whose length varies from step to step, so a
/// torn write would show as a wrong length, not only as wrong bytes.
func crashPayload(_ counter: Int) -> Data {
    let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
    var bytes = Array("{\"counter\":\(counter),\"fill\":\"".utf8)
    let fillCount = (counter &* 7_919) % 4_096 + 16
    for k in 0..<fillCount { bytes.append(letters[(counter &+ k) % 26]) }
    bytes += Array("\"}".utf8)
    return Data(bytes)
}

/// The metadata of crash-loop step `counter`, as stored (`renewed == false`) or after a renewal.
func crashMetadata(_ counter: Int, renewed: Bool) -> SnapshotMetadata {
    SnapshotMetadata(
        fetchedAt: Date(timeIntervalSinceReferenceDate: Double(counter) + (renewed ? 0.5 : 0)),
        validators: Validators(etag: "\"c\(counter)\(renewed ? "-renewed" : "")\"", lastModified: nil),
        contentHash: ContentHash(of: crashPayload(counter)), source: "crash-loop", ttlHint: renewed ? 60 : nil)
}

/// The payload written by hammer writer `writer` at its step `step`.
func hammerPayload(writer: Int, step: Int) -> Data {
    let fill = String(repeating: String(UnicodeScalar(UInt8(97 + writer % 26))), count: 2_000 + (step % 13) * 100)
    return Data("{\"writer\":\(writer),\"step\":\(step),\"fill\":\"\(fill)\"}".utf8)
}

/// A JSON object of `count` keys, `key0` … `key<count-1>`, with mixed value types.
func coldStartPayload(keys count: Int) -> Data {
    var text = "{"
    for i in 0..<count {
        if i > 0 { text += "," }
        switch i % 4 {
        case 0: text += "\"key\(i)\":\(i)"
        case 1: text += "\"key\(i)\":\"value number \(i)\""
        case 2: text += "\"key\(i)\":\(i % 8 == 2 ? "true" : "false")"
        default: text += "\"key\(i)\":{\"nested\":[\(i),\(Double(i) / 4)]}"
        }
    }
    return Data((text + "}").utf8)
}
