import Foundation

/// The Levenshtein distance between two names, used for "did you mean" hints.
struct EditDistance {
    private var previous: [Int] = []
    private var current: [Int] = []

    /// A calculator whose row buffers are reused from one call to the next.
    init() {}

    /// The number of single-scalar insertions, deletions and substitutions that turn `a` into `b`,
    /// or `nil` when it is more than `limit`.
    ///
    /// Only the diagonal band of width `2 × limit + 1` is computed, so a call costs
    /// O(length × limit), and names whose lengths differ by more than `limit` cost nothing.
    mutating func between(_ a: [UInt32], _ b: [UInt32], limit: Int) -> Int? {
        guard limit >= 0, abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let beyond = limit + 1
        if previous.count < b.count + 1 {
            previous = [Int](repeating: beyond, count: b.count + 1)
            current = previous
        }
        for j in 0...b.count { previous[j] = j <= limit ? j : beyond }
        for i in 1...a.count {
            let low = max(1, i - limit)
            let high = min(b.count, i + limit)
            current[0] = i <= limit ? i : beyond
            if low > 1 { current[low - 1] = beyond }
            var rowMinimum = current[0]
            if low <= high {
                for j in low...high {
                    let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                    let value = min(substitution, previous[j] + 1, current[j - 1] + 1, beyond)
                    current[j] = value
                    rowMinimum = min(rowMinimum, value)
                }
            }
            if high < b.count { current[high + 1] = beyond }
            if rowMinimum > limit { return nil }
            swap(&previous, &current)
        }
        let distance = previous[b.count]
        return distance <= limit ? distance : nil
    }

    /// The scalars of `name`, upper-cased, as ``between(_:_:limit:)`` compares them.
    static func folded(_ name: String) -> [UInt32] {
        var folded: [UInt32] = []
        folded.reserveCapacity(name.utf8.count)
        for scalar in name.unicodeScalars {
            if scalar.isASCII {
                folded.append(scalar.value >= 0x61 && scalar.value <= 0x7A ? scalar.value - 0x20 : scalar.value)
            } else {
                folded.append(contentsOf: scalar.properties.uppercaseMapping.unicodeScalars.map(\.value))
            }
        }
        return folded
    }
}
