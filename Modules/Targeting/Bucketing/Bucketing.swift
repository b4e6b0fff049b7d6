import ConfigDomain
import Foundation

/// Stable bucketing: a seed and an id to a number in `0 ..< 1`, and that number to a variant.
///
/// These are GrowthBook's documented functions, checked against its published cross-SDK cases:
///
/// - hash version 1: `(fnv1a32(value + seed) % 1000) / 1000`;
/// - hash version 2: `(fnv1a32(String(fnv1a32(seed + value))) % 10000) / 10000`;
///
/// where `fnv1a32` is ``FNV1a`` over the text's UTF-16 code units, as GrowthBook's SDKs hash it.
///
/// The bucket depends only on the seed and the id, so it is the same on every platform and run,
/// and stays the same across payload changes that leave the rollout's seed alone.
public enum Bucketing {
    /// The bucket of `value` under `seed` with hash `version` (1 or 2), in `0 ..< 1`; nil for another version.
    public static func hash(seed: String, value: String, version: Int) -> Double? {
        switch version {
        case 1:
            let hash = FNV1a.hash(seed, continuing: FNV1a.hash(value))
            return Double(hash % 1000) / 1000
        case 2:
            let inner = FNV1a.hash(value, continuing: FNV1a.hash(seed))
            let outer = FNV1a.hash(decimalDigitsOf: inner, continuing: FNV1a.offsetBasis)
            return Double(outer % 10000) / 10000
        default:
            return nil
        }
    }

    /// The text an attribute is hashed as: a string as it is, a number or `true` as JavaScript
    /// writes it (`123`, `1.5`, `true`). Nil for what GrowthBook cannot bucket: a missing value and
    /// JavaScript's false values (null, `""`, `0`, `false`).
    public static func hashText(of value: ConfigValue?) -> String? {
        guard LooseValue.isTruthy(value) else { return nil }
        return LooseValue.text(of: value)
    }

    /// `count` equal weights summing to 1 (none for a count below 1).
    public static func equalWeights(_ count: Int) -> [Double] {
        count > 0 ? Array(repeating: 1 / Double(count), count: count) : []
    }

    /// Whether `weights` sum to 1, within GrowthBook's tolerance (0.99 ... 1.01).
    public static func weightsSumToOne(_ weights: [Double]) -> Bool {
        let sum = weights.reduce(0, +)
        return sum >= 0.99 && sum <= 1.01
    }

    /// Each variant's bucket range: variant `i` gets `[start_i, start_i + coverage * w_i)` where
    /// `start_i` is the sum of the weights before it.
    ///
    /// Coverage is clamped to `0 ... 1`. Weights of the wrong count, or that do not sum to 1, are
    /// replaced by equal weights (as GrowthBook does). Widening the coverage only extends each
    /// range, so an id already in a variant keeps it.
    public static func ranges(count: Int, coverage: Double = 1, weights: [Double]? = nil) -> [BucketRange] {
        let coverage = min(max(coverage, 0), 1)
        var weights = weights ?? equalWeights(count)
        if weights.count != count || !weightsSumToOne(weights) { weights = equalWeights(count) }
        var cumulative = 0.0
        return weights.map { weight in
            let start = cumulative
            cumulative += weight
            return BucketRange(lower: start, upper: start + coverage * weight)
        }
    }

    /// The index of the first range that holds `bucket`, or nil when none does.
    public static func variation(for bucket: Double, in ranges: [BucketRange]) -> Int? {
        ranges.firstIndex { $0.contains(bucket) }
    }

    /// Whether `id` falls in the namespace `name`'s share `range` (hash version 1 with seed `"__" + name`).
    public static func inNamespace(_ id: String, name: String, range: BucketRange) -> Bool {
        guard let bucket = hash(seed: "__" + name, value: id, version: 1) else { return false }
        return range.contains(bucket)
    }
}

/// A half-open range of buckets, `lower ..< upper`; empty when `upper <= lower`.
public struct BucketRange: Sendable, Hashable, CustomStringConvertible {
    /// The first bucket in the range.
    public var lower: Double
    /// The first bucket after the range.
    public var upper: Double

    /// Creates a range.
    public init(lower: Double, upper: Double) {
        self.lower = lower
        self.upper = upper
    }

    /// Whether `bucket` is in `lower ..< upper`.
    public func contains(_ bucket: Double) -> Bool { bucket >= lower && bucket < upper }

    /// `[0.0, 0.3)`.
    public var description: String { "[\(lower), \(upper))" }
}
