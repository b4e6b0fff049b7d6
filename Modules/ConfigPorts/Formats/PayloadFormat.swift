import ConfigDomain
import Foundation

/// Turns payload bytes into configuration values: plain JSON, a vendor's export, anything.
///
/// A format is a pure function (no I/O), so the same one decodes a fresh fetch and a cached
/// payload. Formats are chosen on the client's builder, independent of the fetcher.
public protocol PayloadFormat: Sendable {
    /// A short name used in messages, for example `json`.
    var name: String { get }
    /// Decodes `bytes` into values by key, or throws why it cannot.
    func decode(_ bytes: Data) throws(PayloadError) -> [String: ConfigValue]
}
