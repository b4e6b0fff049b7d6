import Foundation

/// A process-unique number given to every ``ConfigKey`` when it is created.
///
/// The client indexes its resolved state by this number, so a typed read is an array index,
/// not a string hash. Keys are meant to be created once (as `static let`s) and reused.
public struct KeyIdentity: Sendable, Hashable, Comparable {
    /// The number, dense from zero in creation order.
    public let rawValue: Int

    /// Takes the next number.
    public static func next() -> KeyIdentity { KeyIdentity(rawValue: counter.increment()) }

    /// Orders identities by creation.
    public static func < (lhs: KeyIdentity, rhs: KeyIdentity) -> Bool { lhs.rawValue < rhs.rawValue }

    private static let counter = Counter()

    // @unchecked Sendable: `value` is only touched while holding `lock`.
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        func increment() -> Int {
            lock.lock()
            defer { lock.unlock() }
            let v = value
            value += 1
            return v
        }
    }
}
