import ConfigDomain
import ConfigPorts
import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The file names one configuration uses inside a cache directory.
///
/// Every file of a configuration starts with its *stem*: the UTF-8 bytes of the name's canonical
/// composition (NFC), where `a`–`z`, `0`–`9`, `_` and `-` stand for themselves and every other
/// byte (uppercase letters included) is written `%xx` in lowercase hex. A leading `-` is escaped
/// too, and the empty name is written `%`. So:
/// - a stem never holds `/`, `.` or NUL, nor starts with `-`: `../x` cannot leave the directory;
/// - different names get different stems, and the escaping can be undone (``name(fromStem:)``);
/// - a stem holds no uppercase letter, so names that differ only in case (`Prod`, `prod`) stay
///   apart on case-insensitive volumes;
/// - names Swift considers equal (`é` precomposed and `e` + U+0301) share their files.
///
/// A stem longer than ``maxStemLength`` bytes would make file names too long for some file
/// systems: such a name cannot be stored (``FileSnapshotCache/store(_:as:slot:)`` throws) and
/// loads as a miss. Each file also stores the full name, and every load checks it.
public struct CacheFileNames: Sendable, Hashable {
    /// The configuration name.
    public let name: String
    /// The escaped name every file of this configuration starts with.
    public let stem: String

    /// Derives the file names of `name`.
    public init(name: String) {
        self.name = name
        self.stem = Self.stem(for: name)
    }

    /// The snapshot file of `slot` (payload and the metadata it was stored with).
    public func snapshot(_ slot: CacheSlot) -> String { stem + "." + slot.rawValue + ".snap" }
    /// The metadata file written by a renewal (a 304) of the active snapshot.
    public var renewedMetadata: String { stem + ".active.meta" }
    /// The lock file that serialises writers of this configuration across processes.
    public var lock: String { stem + ".lock" }

    /// What follows the stem in the name of each file above.
    static let suffixes = CacheSlot.allCases.map { "." + $0.rawValue + ".snap" } + [".active.meta", ".lock"]

    /// The longest stem, in bytes: with its longest suffix (`.<16 hex>.tmp`), a file name stays
    /// under the 255-byte limit of common file systems.
    public static let maxStemLength = 200

    /// Whether the stem fits in ``maxStemLength`` bytes.
    var fitsFileSystem: Bool { stem.utf8.count <= Self.maxStemLength }

    /// A fresh temporary file name for an atomic write (`<stem>.<16 hex>.tmp`).
    func temporary() -> String {
        let random = String(UInt64.random(in: UInt64.min...UInt64.max), radix: 16)
        return stem + "." + String(repeating: "0", count: 16 - random.count) + random + ".tmp"
    }

    /// Whether `fileName` is a temporary file of this configuration (left by an interrupted write).
    func isTemporary(_ fileName: String) -> Bool {
        fileName.hasPrefix(stem + ".") && fileName.hasSuffix(".tmp")
    }

    /// The error every write of a name whose stem is too long throws.
    func nameTooLong() -> CacheError {
        let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
        return CacheError(
            .io(operation: "name", code: ENAMETOOLONG),
            message:
                "the configuration name '\(shown)' is too long for the file cache: its file names would start with "
                + "\(stem.utf8.count) bytes, over the limit of \(Self.maxStemLength) (a–z, 0–9, '_' and '-' take one byte, "
                + "every other UTF-8 byte three). Nothing was written; choose a shorter configuration name")
    }

    /// The stem of `name`; see the type's documentation.
    static func stem(for name: String) -> String {
        let bytes = Array(name.precomposedStringWithCanonicalMapping.utf8)
        if bytes.isEmpty { return "%" }
        var stem = ""
        for (index, byte) in bytes.enumerated() {
            let keep =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "_") || (byte == UInt8(ascii: "-") && index > 0)
            if keep {
                stem.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                stem += String(format: "%%%02x", byte)
            }
        }
        return stem
    }

    /// The name whose stem is `stem`, or nil when `stem` is not one ``stem(for:)`` makes.
    static func name(fromStem stem: String) -> String? {
        if stem == "%" { return "" }
        var bytes: [UInt8] = []
        var rest = Substring(stem)
        while let first = rest.first {
            if first == "%" {
                let digits = rest.dropFirst().prefix(2)
                guard digits.count == 2, let byte = UInt8(digits, radix: 16) else { return nil }
                bytes.append(byte)
                rest = rest.dropFirst(3)
            } else {
                guard let ascii = first.asciiValue else { return nil }
                bytes.append(ascii)
                rest = rest.dropFirst()
            }
        }
        // Only a stem made by `stem(for:)` decodes: valid UTF-8, in NFC, escaped exactly as it would be.
        guard let name = String(bytes: bytes, encoding: .utf8), Self.stem(for: name) == stem else { return nil }
        return name
    }
}
