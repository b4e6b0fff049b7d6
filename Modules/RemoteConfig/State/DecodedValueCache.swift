import Foundation

/// The values `decode(_:forKey:)` produced from one ``ResolvedState``, by key name and type.
///
/// Not generic, and its dictionary is made on the first store: a state that is never decoded
/// from (most of them) costs one small object, and building a state asks the Swift runtime for
/// no new generic type (in a fresh process each such first request costs tens of microseconds).
///
/// `@unchecked Sendable`: `values` is read and written only while holding `lock`.
final class DecodedValueCache: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [DecodedCacheKey: any Sendable]?

    init() {}

    /// The value decoded earlier for `name` as `type`, if any.
    func value<T>(forKey name: String, as type: T.Type) -> T? {
        lock.lock()
        defer { lock.unlock() }
        return values?[DecodedCacheKey(name: name, type: ObjectIdentifier(T.self))] as? T
    }

    /// Keeps `value`, decoded for `name` as `T`.
    func store<T: Sendable>(_ value: T, forKey name: String) {
        lock.lock()
        defer { lock.unlock() }
        values = values ?? [:]
        values?[DecodedCacheKey(name: name, type: ObjectIdentifier(T.self))] = value
    }
}

/// Key of the per-state decode cache: key name and requested type.
struct DecodedCacheKey: Hashable, Sendable {
    let name: String
    let type: ObjectIdentifier
}
