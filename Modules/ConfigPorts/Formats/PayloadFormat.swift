import ConfigDomain
import Foundation

/// Turns payload bytes into configuration values and, for a rule dialect, per-key targeting rules:
/// plain JSON, a vendor's export, anything.
///
/// A format is a pure function (no I/O), so the same one decodes a fresh fetch, a pushed payload
/// and a cached one. Formats are chosen on the client's builder, independent of the fetcher. A
/// values-only format returns `DecodedPayload(values:)`. The article "Writing a payload format" shows
/// a dialect with rules.
public protocol PayloadFormat: Sendable {
    /// A short name used in messages, for example `json`.
    var name: String { get }
    /// Decodes `bytes` into values and per-key targeting rules, or throws why the whole payload cannot be used.
    func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload
}

extension PayloadFormat {
    /// Removed: a format has one decoder, ``decode(_:)``.
    @available(*, unavailable, renamed: "decode(_:)")
    public func decodePayload(_ bytes: Data) throws(PayloadError) -> DecodedPayload { try decode(bytes) }
}
