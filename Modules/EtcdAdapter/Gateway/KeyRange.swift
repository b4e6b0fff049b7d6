import Foundation

/// The etcd keys a layout covers, in the gateway's base64 form.
struct KeyRange: Sendable, Hashable {
    /// The first key, base64.
    var key: String
    /// The end of the range (exclusive), base64; `nil` for exactly one key.
    var rangeEnd: String?

    /// The range for a layout: exactly the document's key, or every key starting with the prefix.
    init(_ layout: EtcdLayout) {
        switch layout {
        case .document(let key):
            self.key = Self.base64(key)
            self.rangeEnd = nil
        case .prefix(let prefix):
            self.key = Self.base64(prefix)
            self.rangeEnd = Self.prefixEnd(Array(prefix.utf8)).base64EncodedString()
        }
    }

    /// The text as UTF-8, base64.
    static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

    /// The first key after every key starting with `prefix`: the prefix with its last byte below
    /// 0xFF incremented (and what follows it dropped); a single zero byte, meaning "to the end of
    /// the key space", when there is no such byte.
    static func prefixEnd(_ prefix: [UInt8]) -> Data {
        var end = prefix
        while let last = end.last {
            if last < 0xFF {
                end[end.count - 1] = last + 1
                return Data(end)
            }
            end.removeLast()
        }
        return Data([0])
    }
}
