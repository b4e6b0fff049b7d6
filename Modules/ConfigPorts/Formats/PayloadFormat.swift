import ConfigDomain
import Foundation

/// Turns payload bytes into configuration values: plain JSON, a vendor's export, anything.
///
/// A format is a pure function (no I/O), so the same one decodes a fresh fetch and a cached
/// payload. Formats are chosen on the client's builder, independent of the fetcher.
///
/// A format with targeting rules also implements ``decodePayload(_:)``; the client calls only
/// that, and its default wraps ``decode(_:)``, so a values-only format implements `decode` alone.
public protocol PayloadFormat: Sendable {
    /// A short name used in messages, for example `json`.
    var name: String { get }
    /// Decodes `bytes` into values by key, or throws why it cannot.
    func decode(_ bytes: Data) throws(PayloadError) -> [String: ConfigValue]
    /// Decodes `bytes` into values and per-key targeting rules, or throws why the whole payload cannot be used.
    func decodePayload(_ bytes: Data) throws(PayloadError) -> DecodedPayload
}

extension PayloadFormat {
    /// The values of ``decode(_:)``, without rules.
    public func decodePayload(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
        DecodedPayload(values: try decode(bytes))
    }
}
