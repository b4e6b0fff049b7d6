import Foundation

/// A key name's fingerprint: two hashes of it, each with its own seed, 128 bits in all.
///
/// Two keys with the same name have the same fingerprint; two names share one only by a 2^-128
/// chance, and a client refuses to register two names that do. A read compares fingerprints, two
/// machine words, instead of names (see "The read path" in `Integration/Benchmarks/README.md`).
@usableFromInline
package struct KeyNameID: Sendable, Hashable {
    /// The hash that places the name in a registry's table.
    @usableFromInline package let hash: Int
    /// The second hash, which confirms a table hit.
    @usableFromInline package let check: Int

    /// The fingerprint of `name`.
    @usableFromInline
    package init(_ name: String) {
        hash = name.hashValue
        var hasher = Hasher()
        hasher.combine(0x9E37_79B9_7F4A_7C15 as UInt64)
        hasher.combine(name)
        check = hasher.finalize()
    }
}
