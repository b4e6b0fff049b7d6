import Foundation
import Synchronization

/// The exposure marks of a state with `slots` slots, or nil on a system without the standard library's
/// `Atomic` (before macOS 15 and iOS 18: reads then check the exposure set each time).
func makeExposureMarks(slots: Int) -> (any AnyObject & Sendable)? {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return nil }
    return ExposureMarks(slots: slots)
}

/// One bit per slot of a state: set once the slot's value in that state was checked against the
/// reported exposures. A repeated read of a rule-decided value then costs one atomic load, not a set lookup.
///
/// `@unchecked Sendable`: the words are read and written only through their `Atomic`s; they are made in
/// `init` and freed in `deinit`, when no other reference exists.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class ExposureMarks: @unchecked Sendable {
    private let words: UnsafeMutablePointer<Atomic<UInt64>>
    private let count: Int

    init(slots: Int) {
        count = max(1, (slots + 63) / 64)
        words = .allocate(capacity: count)
        for index in 0..<count { (words + index).initialize(to: Atomic(0)) }
    }

    deinit {
        words.deinitialize(count: count)
        words.deallocate()
    }

    /// Whether `slot` is marked.
    func isMarked(_ slot: Int) -> Bool {
        words[slot >> 6].load(ordering: .relaxed) & (1 << UInt64(slot & 63)) != 0
    }

    /// Marks `slot`.
    func mark(_ slot: Int) {
        words[slot >> 6].bitwiseOr(1 << UInt64(slot & 63), ordering: .relaxed)
    }
}
