import ConfigDomain
import ConfigPorts
import Foundation

/// Wraps a payload format and remembers the key names of the last payload it decoded, so the
/// tool can list every key of the snapshot the client holds (fetched or loaded from the cache).
final class KeyListingFormat: PayloadFormat, @unchecked Sendable {
    // @unchecked Sendable: `names` is only read or written while holding `lock`; `inner` is immutable.
    private let inner: any PayloadFormat
    private let lock = NSLock()
    private var names: [String] = []

    /// Wraps `inner`.
    init(_ inner: any PayloadFormat = PlainJSONFormat()) { self.inner = inner }

    var name: String { inner.name }

    /// The keys of the last payload decoded successfully, sorted.
    var lastKeys: [String] {
        lock.lock()
        defer { lock.unlock() }
        return names
    }

    func decode(_ bytes: Data) throws(PayloadError) -> [String: ConfigValue] {
        let values = try inner.decode(bytes)
        lock.lock()
        names = values.keys.sorted()
        lock.unlock()
        return values
    }
}
