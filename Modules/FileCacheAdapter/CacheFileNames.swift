import ConfigPorts
import Foundation

/// The file names one configuration uses inside a cache directory.
///
/// Any string is a valid configuration name; the file names derived from it are always safe.
/// A name maps to a *stem* made of two parts joined by `-`:
/// 1. a readable prefix: the first 40 Unicode scalars of the name's canonical composition (NFC),
///    each kept when it is an ASCII letter, digit, `_` or `-` and replaced by `_` otherwise (a
///    leading `-` also becomes `_`; an empty name gives `_`). It never contains `/`, `.`, NUL or
///    anything a shell or file system treats specially, so `../x` cannot escape the directory.
/// 2. 32 lowercase hex digits: the first 16 bytes of the SHA-256 of the UTF-8 bytes of that
///    canonical composition. This part keeps names apart: `a/b` and `a_b` share a prefix but not
///    a hash, and because the hash is lowercase hex, names that differ only in case stay apart
///    on case-insensitive volumes. Names Swift considers equal (`é` precomposed and `e` + U+0301)
///    share their files.
///
/// Every stem is at most 73 characters, so with its longest suffix a file name stays far below
/// the usual 255-byte limit whatever the length of the configuration name. The full name is also
/// stored inside each file and checked on load, so a file copied under another name is refused.
public struct CacheFileNames: Sendable, Hashable {
    /// The configuration name.
    public let name: String
    /// The prefix-plus-hash stem every file of this configuration starts with.
    public let stem: String

    /// Derives the file names of `name`.
    public init(name: String) {
        self.name = name
        self.stem = Self.stem(for: name)
    }

    /// The snapshot file of `slot` (payload and the metadata it was stored with).
    public func snapshot(_ slot: CacheSlot) -> String { stem + "." + slot.rawValue + "." + Self.snapshotExtension }
    /// The metadata file written by a renewal (a 304) of the active snapshot.
    public var renewedMetadata: String { stem + ".active." + Self.metadataExtension }
    /// The lock file that serialises writers of this configuration across processes.
    public var lock: String { stem + "." + Self.lockExtension }

    /// A fresh temporary file name for an atomic write (`<stem>.<16 hex>.tmp`).
    func temporary() -> String {
        let random = UInt64.random(in: UInt64.min...UInt64.max)
        return stem + "." + Self.hex(random, digits: 16) + "." + Self.temporaryExtension
    }

    /// Whether `fileName` is a temporary file of this configuration (left by an interrupted write).
    func isTemporary(_ fileName: String) -> Bool {
        fileName.hasPrefix(stem + ".") && fileName.hasSuffix("." + Self.temporaryExtension)
    }

    /// `snap`: a snapshot file.
    static let snapshotExtension = "snap"
    /// `meta`: a renewal metadata file.
    static let metadataExtension = "meta"
    /// `lock`: a lock file.
    static let lockExtension = "lock"
    /// `tmp`: a file being written.
    static let temporaryExtension = "tmp"
    /// The longest readable prefix kept from a name.
    static let maxPrefixLength = 40

    /// The stem of `name`; see the type's documentation.
    static func stem(for name: String) -> String {
        // Swift compares strings by canonical equivalence ("é" precomposed equals "e" + U+0301),
        // so both parts come from the precomposed (NFC) form: equal strings, equal files.
        // ASCII text is already in NFC; skipping Foundation's normalisation keeps a cold start fast.
        let canonical = name.utf8.allSatisfy { $0 < 0x80 } ? name : name.precomposedStringWithCanonicalMapping
        var prefix = ""
        for scalar in canonical.unicodeScalars.prefix(maxPrefixLength) {
            let v = scalar.value
            let keep =
                (v >= 0x30 && v <= 0x39) || (v >= 0x41 && v <= 0x5A) || (v >= 0x61 && v <= 0x7A) || v == 0x5F
                || (v == 0x2D && !prefix.isEmpty)
            prefix.unicodeScalars.append(keep ? scalar : "_")
        }
        if prefix.isEmpty { prefix = "_" }
        // The hash's hex digits, made in stack buffers: a cache names its files before its first
        // read at launch, where each heap array costs.
        var bytes = canonical
        let hash = bytes.withUTF8 { utf8 in
            withUnsafeTemporaryAllocation(byteCount: SHA256Digest.length, alignment: 1) { digest in
                SHA256Digest.hash(UnsafeRawBufferPointer(utf8), into: digest)
                return String(unsafeUninitializedCapacity: 32) { out in
                    for i in 0..<16 {
                        out[2 * i] = hexDigit(digest[i] >> 4)
                        out[2 * i + 1] = hexDigit(digest[i] & 0x0F)
                    }
                    return 32
                }
            }
        }
        return prefix + "-" + hash
    }

    /// The lowercase hex digit of `nibble` (0–15), as an ASCII byte.
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// `value` in lowercase hex, left-padded with zeros to `digits`.
    static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
