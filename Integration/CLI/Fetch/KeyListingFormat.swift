import ConfigDomain
import ConfigPorts
import Foundation

/// Wraps a payload format and remembers the key names of the last payload it decoded, so the
/// tool can list every key of the snapshot the client holds (fetched or loaded from the cache).
final class KeyListingFormat: PayloadFormat {
    private let inner: any PayloadFormat
    private let names = Locked<[String]>([])

    /// Wraps `inner`.
    init(_ inner: any PayloadFormat = PlainJSONFormat()) { self.inner = inner }

    var name: String { inner.name }

    /// The keys of the last payload decoded successfully, sorted.
    var lastKeys: [String] { names.current }

    func decode(_ bytes: Data) throws(PayloadError) -> DecodedPayload {
        let payload = try inner.decode(bytes)
        names.withLock { $0 = payload.keys }
        return payload
    }
}
