import Foundation

/// Registered names by their normalised spelling (see `KeyRegistry.normalise`), built on the
/// first lookup: most clients never read a misspelt key, and a cold start should not pay for it.
///
/// A non-generic class rather than a `Locked<[String: String]?>`: the runtime makes the metadata
/// of a generic type from its mangled name, and for one whose argument is a `Dictionary` it
/// checks `Hashable` then; on Linux that scans every loaded conformance record, about 0.3 ms the
/// first time in a process, which a client built at launch would pay before its first read.
///
/// `@unchecked Sendable`: `byNormalised` is only read or written holding `lock`.
final class NormalisedNameTable: @unchecked Sendable {
    private let lock = NSLock()
    private var byNormalised: [String: String]?

    /// The registered name whose normalised spelling is `normalised`; `build` makes the table on
    /// the first call.
    func registeredName(normalised: String, build: () -> [String: String]) -> String? {
        lock.lock()
        defer { lock.unlock() }
        if byNormalised == nil { byNormalised = build() }
        return byNormalised?[normalised]
    }
}
